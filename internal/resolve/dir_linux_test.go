package resolve

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestReadDirComplete: the getdents64 reader lists every entry whatever
// the buffer size, for directories of a few to thousands of names of every
// length, and lists the root again (its own read offset). A short read is
// not the end of a directory: ext4 returns one for a large hashed
// directory, so the reader always reads until getdents64 returns 0.
func TestReadDirComplete(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 300, 3000} {
		root := t.TempDir()
		want := map[string]bool{}
		for i := range n {
			name := fmt.Sprintf("%d-%s", i, strings.Repeat("x", rng.IntN(240)))
			want[name] = true
			if err := os.WriteFile(filepath.Join(root, name), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		w, err := OpenWorktree(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, again := range []bool{false, true} {
			for _, size := range []int{600, 4096, 32 << 10} {
				buf := make([]byte, size)
				fd, err := w.openDir("")
				if err != nil {
					t.Fatal(err)
				}
				ents, err := w.readDir(fd, &buf, nil)
				sysClose(fd)
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]bool{}
				for _, e := range ents {
					if got[e.Name] || !want[e.Name] {
						t.Fatalf("n=%d again=%v buffer %d: %q listed twice or unknown", n, again, size, e.Name)
					}
					got[e.Name] = true
				}
				if len(got) != len(want) {
					var missing []string
					for k := range want {
						if !got[k] {
							missing = append(missing, k)
						}
					}
					sort.Strings(missing)
					t.Fatalf("n=%d again=%v buffer %d: %d of %d names; missing %.3q", n, again, size, len(got), len(want), missing)
				}
			}
		}
		w.Close()
	}
}
