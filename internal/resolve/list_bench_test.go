package resolve

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkList measures what the pre-commit case of SPEC §9 spends most
// of its time on (docs/performance.md): listing the directories of a deep
// tree, each with a few source files and an instruction file, one after
// another (ListKeep) and on every processor (Prefetch). Per directory it
// is one openat2, two getdents64 and one close, and the read-ahead of its
// AGENTS.md (openat, fstat, read, close).
func BenchmarkList(b *testing.B) {
	root := b.TempDir()
	var dirs []string
	// 8 top directories, each a tree 4 deep with 4 children per level:
	// 8 × (1 + 4 + 16 + 64) = 680 directories.
	var grow func(dir string, depth int)
	grow = func(dir string, depth int) {
		dirs = append(dirs, dir)
		abs := filepath.Join(root, dir)
		if err := os.MkdirAll(abs, 0o755); err != nil {
			b.Fatal(err)
		}
		for i := range 6 {
			os.WriteFile(filepath.Join(abs, fmt.Sprintf("f%d.go", i)), nil, 0o644)
		}
		os.WriteFile(filepath.Join(abs, "AGENTS.md"), []byte("x\n"), 0o644)
		if depth == 4 {
			return
		}
		for i := range 4 {
			grow(filepath.Join(dir, fmt.Sprintf("d%d", i)), depth+1)
		}
	}
	for i := range 8 {
		grow(fmt.Sprintf("top%d", i), 1)
	}
	b.Logf("%d directories", len(dirs))
	candidates := []string{"AGENTS.override.md", "AGENTS.md"}
	b.Run("ListKeep", func(b *testing.B) {
		for b.Loop() {
			w, err := OpenWorktree(root, nil)
			if err != nil {
				b.Fatal(err)
			}
			w.candidates = candidates
			for _, d := range dirs {
				if _, err := w.ListKeep(d); err != nil {
					b.Fatal(err)
				}
			}
			w.Close()
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(dirs)), "µs/dir")
	})
	b.Run("Prefetch", func(b *testing.B) {
		for b.Loop() {
			w, err := OpenWorktree(root, nil)
			if err != nil {
				b.Fatal(err)
			}
			w.candidates = candidates
			w.prefetch(dirs)
			w.Close()
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(dirs)), "µs/dir")
	})
}
