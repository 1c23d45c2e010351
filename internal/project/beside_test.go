package project

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// TestF1IndexScanBesideListing (F1, C1, C2, F9): a check of PATHs that
// reads the index on one core while the other lists the PATHs'
// directories gives what the serial order (GOMAXPROCS=1: the index, then
// the listings) gives: the same result and notes, with a link the index
// records where the checkout holds a regular file (core.symlinks=false)
// and a submodule, whose listings made before the index was read are made
// again with the index's kinds.
func TestF1IndexScanBesideListing(t *testing.T) {
	plain := gittest.New(t)
	plain.Write("AGENTS.md", "root\n", "a/AGENTS.md", "a\n", "a/x.go", "x\n", "a/b/y.txt", "y\n", "c/z.go", "z\n", "c/d/AGENTS.md", "d\n",
		"gone/x.go", "g\n", "a/gone.go", "g\n")
	plain.Git("add", "-A")
	plain.Commit("c")
	plain.Remove("gone/x.go", "a/gone.go") // deleted PATHs Git records (F9)

	linked := gittest.New(t)
	linked.Write("AGENTS.md", "root\n", "a/x.go", "x\n", "b/y.go", "y\n", "c/z.go", "z\n")
	linked.Symlink("../AGENTS.md", "b/AGENTS.md")
	linked.Symlink("../AGENTS.md", "c/AGENTS.md")
	linked.Git("add", "-A")
	linked.Git("update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,a/sub")
	linked.Git("commit", "-q", "-m", "c")
	linked.Git("config", "core.symlinks", "false")
	// What a checkout with core.symlinks=false holds: the target as text.
	linked.Remove("b/AGENTS.md", "c/AGENTS.md")
	linked.Write("b/AGENTS.md", "../AGENTS.md", "c/AGENTS.md", "../AGENTS.md", "a/sub/AGENTS.md", "inside the submodule\n")

	for _, c := range []struct {
		name  string
		g     *gittest.Repo
		paths []string
	}{
		{"plain", plain, []string{"a/x.go", "a/b/y.txt", "c/z.go", "c/d/AGENTS.md", "gone/x.go", "a/gone.go", "a/b"}},
		// c is listed only for its PATH, before the index is read: its
		// link is found once the listing is made again.
		{"recorded link and submodule", linked, []string{"a/x.go", "b/y.go", "b/AGENTS.md", "a/sub", "c/z.go"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := func(procs int) string {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				var abs []string
				for _, a := range c.paths {
					abs = append(abs, filepath.Join(c.g.Dir, a))
				}
				res, notes, err := Check(Options{Root: c.g.Dir, scanGate: make(chan struct{})}, Scope{Paths: abs})
				if err != nil {
					t.Fatal(err)
				}
				b, err := json.Marshal(res)
				if err != nil {
					t.Fatal(err)
				}
				return fmt.Sprintf("%s\nnotes %q", b, notes)
			}
			serial, beside := run(1), run(2)
			if serial != beside {
				t.Errorf("GOMAXPROCS=1:\n%s\nGOMAXPROCS=2:\n%s", serial, beside)
			}
		})
	}
}

// TestF1RulesBesideResolution (F1, R2–R4, RL005–RL011, P3): a
// whole-worktree check whose Chain rules run beside the resolution
// (lint.Prepare on another goroutine) gives what the serial order gives
// (GOMAXPROCS=1: every chain resolved, then every rule run): the same
// findings in the same order, with their directories, the budget counted
// with a skills section read after the chains, and the directory table.
func TestF1RulesBesideResolution(t *testing.T) {
	g := gittest.New(t)
	big := ""
	for i := 0; i < 40; i++ {
		big += fmt.Sprintf("rule %d: keep every answer short and cite the file it comes from.\n", i)
	}
	g.Write("AGENTS.md", "root\n", "a/AGENTS.override.md", "override\n", "a/AGENTS.md", "shadowed below the override\n",
		"a/b/RIVUMI.md", "first\n", "a/b/AGENTS.md", "second\n", "c/AGENT.md", "near miss\n", "c/d/AGENTS.md", "",
		"e/AGENTS.md", big+"<<<<<<< HEAD\n", "e/f/AGENTS.md", "hidden \u200b char\n",
		".rivumi/skills/s/SKILL.md", "---\nname: s\ndescription: a skill\n---\nbody\n",
		".rivumi-lint.yaml", "version: 1\nlimits:\n  max_dynamic_bytes: 3000\n  reserved_bytes: 0\n  warn_ratio: 1.0\n")
	for i := 0; i < 30; i++ {
		g.Write(fmt.Sprintf("e/f/g%d/x.go", i), "x\n", fmt.Sprintf("a/b/h%d/y.go", i), "y\n")
	}
	g.Git("add", "-A")
	g.Commit("c")
	run := func(procs int) string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		res, notes, err := Check(Options{Root: g.Dir, prepareBesideMin: 1}, Scope{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%s\nnotes %q", b, notes)
	}
	serial, beside := run(1), run(2)
	if serial != beside {
		t.Errorf("GOMAXPROCS=1:\n%s\nGOMAXPROCS=2:\n%s", serial, beside)
	}
	for _, want := range []string{`"RL005"`, `"RL007"`, `"RL011"`, `"RL006"`} {
		if !strings.Contains(serial, want) {
			t.Errorf("the repository should make %s fire, for the comparison to mean something:\n%s", want, serial)
		}
	}
}
