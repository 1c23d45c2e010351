package project

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rivumi/rivumi-lint/repo/gittest"
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
	plain.Write("AGENTS.md", "root\n", "a/AGENTS.md", "a\n", "a/x.go", "x\n", "a/b/y.txt", "y\n", "c/z.go", "z\n", "c/d/AGENTS.md", "d\n")
	plain.Git("add", "-A")
	plain.Commit("c")

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
				scanGate = make(chan struct{})
				defer func() { scanGate = nil }()
				var abs []string
				for _, a := range c.paths {
					abs = append(abs, filepath.Join(c.g.Dir, a))
				}
				res, notes, err := Check(Options{Root: c.g.Dir}, Scope{Paths: abs})
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
