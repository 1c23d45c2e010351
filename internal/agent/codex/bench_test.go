package codex

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// BenchmarkCodexViewsTree resolves the view of every directory of the
// tree RIVUMI_BENCH_TREE names (the performance benchmark's generated
// monorepo, say), each iteration with a new resolver over one warmed
// engine: the codex profile's own cost, without the engine's listings.
func BenchmarkCodexViewsTree(b *testing.B) {
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
	o := Options{MaxBytes: DefaultMaxBytes, RootAbs: filepath.ToSlash(root), RootMarked: true}
	e := resolve.New(wt, resolve.Options{Overrides: []string{"RIVUMI.override.md", "AGENTS.override.md"},
		Normals: []string{"RIVUMI.md", "AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
	view := func() int {
		c, n := New(e, o), 0
		for _, d := range dirs {
			v, err := c.View(d)
			if err != nil {
				b.Fatal(err)
			}
			n += len(v.Candidates) + len(strings.TrimSpace(v.Inexact))
		}
		return n
	}
	view() // the engine's listings and reads, once
	b.ReportAllocs()
	for b.Loop() {
		view()
	}
}
