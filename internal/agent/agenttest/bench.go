package agenttest

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// B is what ViewsTree needs of a *testing.B (this package is not a test
// file, and a build of the command must not link package testing).
type B interface {
	TB
	Skip(args ...any)
	ReportAllocs()
	Loop() bool
}

// ViewsTree times one profile's views of every directory of the tree
// RIVUMI_BENCH_TREE names (the performance benchmark's generated monorepo,
// say), each iteration with a new resolver over one warmed engine: the
// profile's own cost, without the engine's listings. also are the names
// its listings keep; views makes a resolver over the engine (root is the
// tree's slash path) and returns its view of a directory as a number the
// loop keeps (candidates, say), so that nothing is optimised away.
func ViewsTree(b B, also []string, views func(e *resolve.Engine, root string) func(dir string) (int, error)) {
	root := os.Getenv("RIVUMI_BENCH_TREE")
	if root == "" {
		b.Skip("RIVUMI_BENCH_TREE names no tree")
	}
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			rel = ""
		}
		dirs = append(dirs, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer wt.Close()
	e := resolve.New(wt, resolve.Options{Overrides: []string{"RIVUMI.override.md", "AGENTS.override.md"},
		Normals: []string{"RIVUMI.md", "AGENTS.md"}, MaxFileBytes: 32768, Also: also})
	pass := func() int {
		view, n := views(e, filepath.ToSlash(root)), 0
		for _, d := range dirs {
			k, err := view(d)
			if err != nil {
				b.Fatal(err)
			}
			n += k
		}
		return n
	}
	pass() // the engine's listings and reads, once
	b.ReportAllocs()
	for b.Loop() {
		pass()
	}
}
