package claude

import (
	"slices"
	"strconv"
	"testing"
)

// A set holds what was added to it and below it, past small, through
// flattening, and all lists each path once.
func TestPathSet(t *testing.T) {
	s := &pathSet{}
	var want []string
	for i := range 3 * smallSet {
		p := "/p" + strconv.Itoa(i)
		s.add(p)
		want = append(want, p)
		if i%5 == 0 {
			s.add(p) // again: still once in all
		}
		if i%4 == 0 { // deeper than maxSetDepth: flattened on the way
			s = s.over()
		}
	}
	s.addGap(gap{root: "/r", dir: "a/b", names: mainNames})
	s.addGap(gap{root: "/r", names: agentsNames})
	want = append(want, "/r/a/b/CLAUDE.md", "/r/a/b/.claude/CLAUDE.md", "/r/a/b/CLAUDE.local.md", "/r/AGENTS.md", "/r/.claude/AGENTS.md")
	for range maxSetDepth + 1 {
		s = s.over() // the gaps kept through flattening
	}
	for _, p := range []string{"/r/a/bCLAUDE.md", "/r/a/b/AGENTS.md", "/r//AGENTS.md", "/r/CLAUDE.md", "/ra/b/CLAUDE.md", "/r/a/b/c/CLAUDE.md"} {
		if s.has(p) {
			t.Errorf("has(%q) = true", p)
		}
	}
	for _, p := range want {
		if !s.has(p) {
			t.Errorf("has(%q) = false", p)
		}
	}
	if s.has("/q") {
		t.Error(`has("/q") = true`)
	}
	got := s.all()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("all() = %q, want %q", got, want)
	}
}
