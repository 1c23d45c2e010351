package lsp

// The diagnostics round trip after a keystroke (X4's figure, docs/lsp.md):
// a didChange of an open instruction file to the publishDiagnostics that
// answers it, on a generated repository of 1,000 directories.
//
//	go test ./internal/lsp -run '^$' -bench Keystroke

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/monorepo"
)

func BenchmarkKeystroke(b *testing.B) {
	size := monorepo.Small.Scale(5) // 1,000 directories, 10,000 files
	g := monorepo.Generate(size, 1)
	dir := b.TempDir()
	if err := monorepo.Create(dir, g, monorepo.Options{Checkout: true}); err != nil {
		b.Fatal(err)
	}
	dir, _ = filepath.EvalSymlinks(dir)
	deepest := ""
	for _, p := range g.Paths() {
		if monorepo.IsInstruction(p) && strings.Count(p, "/") > strings.Count(deepest, "/") {
			deepest = p
		}
	}
	for _, tc := range []struct{ name, rel string }{
		// The root's AGENTS.md reaches every directory's chain (R7): the
		// worst case, a whole-worktree check per keystroke.
		{"root", monorepo.Agents},
		{"deepest", deepest},
	} {
		b.Run(tc.name, func(b *testing.B) {
			content, ok := g.Content(tc.rel)
			if !ok {
				b.Fatalf("%s not in the repository", tc.rel)
			}
			c := newClient(b)
			c.initialize(dir, map[string]any{}, nil)
			uri := c.open(filepath.Join(dir, filepath.FromSlash(tc.rel)), string(content))
			c.waitPublish(uri)
			v := 1
			for b.Loop() {
				v++
				c.change(uri, v, string(content)+fmt.Sprintf("typed %d\n", v))
				p := c.waitPublish(uri)
				if p.Version == nil || *p.Version != v {
					b.Fatalf("published version %v, want %d", p.Version, v)
				}
			}
			c.stop()
		})
	}
}
