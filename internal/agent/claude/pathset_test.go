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
