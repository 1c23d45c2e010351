package project

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
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
		var abs []string
		for _, a := range paths {
			abs = append(abs, filepath.Join(g.Dir, a))
		}
		out, err := Do(Request{Options: Options{Root: g.Dir}, Scope: Scope{Paths: abs}})
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		return out.Project, dirs(out.Result)
	}
	p, got := check("src/x.go")
	if p.scanned || p.tracked != nil {
		t.Errorf("check src/x.go built the tracked directories")
	}
	if got != "src" {
		t.Errorf("check src/x.go resolved %q, want src", got)
	}
	p, got = check("src/x.go", "AGENTS.md")
	if !p.scanned || p.tracked == nil || !p.tracked("build") || p.tracked("build/other") {
		t.Errorf("check AGENTS.md: want build among the tracked directories, build/other not")
	}
	if !strings.Contains(got, "build") || strings.Contains(got, "build/other") {
		t.Errorf("check AGENTS.md resolved %q: want the tracked build (F4), not the ignored build/other", got)
	}
	p, all := check()
	if !p.scanned || all != got {
		t.Errorf("whole worktree resolved %q, the root's AGENTS.md %q", all, got)
	}
}

// TestWalks: which scopes walk directories (and so need the tracked ones).
func TestWalks(t *testing.T) {
	cfg, err := loadConfig(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s    Scope
		want bool
	}{
		{Scope{}, true},
		{Scope{Dirs: []string{"a"}}, false},
		{Scope{Paths: []string{"a/x.go", "b/README.md"}}, false},
		{Scope{Paths: []string{"a/x.go", "b/AGENTS.md"}}, true},
		{Scope{Paths: []string{"b/AGENTS.md/."}}, true},
		{Scope{Paths: []string{"./AGENTS.md"}}, true},
	} {
		r := &Run{scope: c.s}
		if got := r.walks(cfg); got != c.want {
			t.Errorf("walks(%+v) = %v, want %v", c.s, got, c.want)
		}
	}
}
