package project

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/repo/gittest"
)

// TestTrackedDirsOnlyWhenWalking (F4, R7): a check of PATHs reads the
// index for its recorded kinds (C1) and builds the tracked directories
// only when a PATH is named like an instruction candidate, whose
// directories below it are walked; that walk still enters a tracked
// directory an ignore pattern matches, as the whole-worktree check does.
func TestTrackedDirsOnlyWhenWalking(t *testing.T) {
	g := gittest.New(t)
	g.Write(".gitignore", "build/\n", "AGENTS.md", "root\n", "src/x.go", "x\n", "build/AGENTS.md", "tracked although ignored\n")
	g.Git("add", "-f", ".gitignore", "AGENTS.md", "src/x.go", "build/AGENTS.md")
	g.Commit("c")
	g.Write("build/other/AGENTS.md", "untracked and ignored\n")
	check := func(paths ...string) (*Project, string) {
		t.Helper()
		p, err := Open(Options{Root: g.Dir})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		var abs []string
		for _, a := range paths {
			abs = append(abs, filepath.Join(g.Dir, a))
		}
		res, err := p.Check(Scope{Paths: abs, Dirs: nil})
		if err != nil {
			t.Fatal(err)
		}
		return p, dirs(res)
	}
	p, got := check("src/x.go")
	if p.trackedFor != nil || p.tracked != nil {
		t.Errorf("check src/x.go built the tracked directories: %v", p.tracked)
	}
	if got != "src" {
		t.Errorf("check src/x.go resolved %q, want src", got)
	}
	p, got = check("src/x.go", "AGENTS.md")
	if fmt.Sprintf("%q", p.trackedFor) != `[""]` || !p.tracked["build"] {
		t.Errorf("check AGENTS.md: tracked directories %v, want build among them", p.tracked)
	}
	if !strings.Contains(got, "build") || strings.Contains(got, "build/other") {
		t.Errorf("check AGENTS.md resolved %q: want the tracked build (F4), not the ignored build/other", got)
	}
	p, sub := check("src/x.go", "build/AGENTS.md")
	if fmt.Sprintf("%q", p.trackedFor) != `["build"]` || !p.tracked["build"] || p.tracked["src"] {
		t.Errorf("check build/AGENTS.md: tracked directories %v for %q, want build's alone", p.tracked, p.trackedFor)
	}
	if sub != "build,src" {
		t.Errorf("check build/AGENTS.md resolved %q, want build (tracked although ignored: F4) and src", sub)
	}
	p, all := check()
	if fmt.Sprintf("%q", p.trackedFor) != `[""]` || all != got {
		t.Errorf("whole worktree resolved %q, the root's AGENTS.md %q", all, got)
	}
}

// TestWalks: which directories a scope may walk (and so needs the tracked
// directories of).
func TestWalks(t *testing.T) {
	cfg, err := loadConfig(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, c := range []struct {
		s      Scope
		prefix string
		want   string // %q of the answer: nil is [], the whole worktree [""]
	}{
		{Scope{}, "", `[""]`},
		{Scope{Dirs: []string{"a"}}, "", `[]`},
		{Scope{Paths: []string{"a/x.go", "b/README.md"}}, "", `[]`},
		{Scope{Paths: []string{"a/x.go", "b/AGENTS.md"}}, "", `["b"]`},
		{Scope{Paths: []string{"b/c/AGENTS.md/."}}, "", `["b/c"]`},
		{Scope{Paths: []string{"./AGENTS.md"}}, "", `[""]`},
		{Scope{Paths: []string{"x/AGENTS.md", "AGENTS.md"}}, "sub", `["sub/x" "sub"]`},
	} {
		r := &Run{scope: c.s, p: &Project{Root: root, Prefix: c.prefix, wd: root}}
		if got := fmt.Sprintf("%q", r.walks(cfg)); got != c.want {
			t.Errorf("walks(%+v) with prefix %q = %s, want %s", c.s, c.prefix, got, c.want)
		}
	}
}
