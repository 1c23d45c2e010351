//go:build unix

package scope

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// TestPathKindsFromListings (F9, R7, C1; F1 for one and two cores): the
// kind of each PATH taken from its directory's listing is what lstat says,
// so PathDirs gives the same directories and missing PATHs with it as with
// an lstat of every PATH; only the PATHs a listing cannot answer (deleted,
// the root, behind a link) are left to lstat.
func TestPathKindsFromListings(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/b", "c/AGENTS.md", "nested/.git", "real/deep", "ignored"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"AGENTS.md", "a/x.go", "a/b/AGENTS.md", "a/b/y.txt", "real/deep/AGENTS.md", "real/z.go", "c/AGENTS.md/x"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"a/tofile": "x.go", "a/todir": "b", "linked": "real", "a/dangling": "nope"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "a/fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	rels := []string{"a/x.go", "a/b/AGENTS.md", "a/b", "a/tofile", "a/todir", "a/dangling", "a/fifo", "nested",
		"c/AGENTS.md", "a/gone.go", "gone/AGENTS.md", "linked/z.go", "", "AGENTS.md", "a/x.go", "a/x.go/y"}
	// Those a listing answers; the others go to lstat.
	answered := map[string]bool{"a/x.go": true, "a/b/AGENTS.md": true, "a/b": true, "a/tofile": true, "a/todir": true,
		"a/dangling": true, "a/fifo": true, "nested": true, "c/AGENTS.md": true, "AGENTS.md": true}
	opts := resolve.Options{Normals: []string{"AGENTS.md"}}
	below := func(dir string) ([]string, error) {
		var out []string
		err := filepath.Walk(filepath.Join(root, dir), func(p string, fi os.FileInfo, err error) error {
			if err == nil && fi.IsDir() {
				rel, _ := filepath.Rel(root, p)
				out = append(out, filepath.ToSlash(map[bool]string{true: "", false: rel}[rel == "."]))
			}
			return err
		})
		return out, err
	}
	wt0, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer wt0.Close()
	wt0.SetWalk(below)
	wantDirs, wantMissing, err := PathDirs(root, resolve.New(wt0, opts), wt0, rels, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		wt, err := resolve.OpenWorktree(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer wt.Close()
		wt.SetWalk(below)
		e := resolve.New(wt, opts)
		kinds := wt.PrefetchKinds(rels)
		lstat, err := lstatAll(root, rels, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, rel := range rels {
			switch {
			case kinds[i] == resolve.Missing && answered[rel]:
				t.Errorf("GOMAXPROCS=%d: %q: the listing did not give its kind (lstat says %v)", procs, rel, lstat[i])
			case kinds[i] != resolve.Missing && kinds[i] != lstat[i]:
				t.Errorf("GOMAXPROCS=%d: %q: the listing says %v, lstat %v", procs, rel, kinds[i], lstat[i])
			case kinds[i] != resolve.Missing && !answered[rel]:
				t.Errorf("GOMAXPROCS=%d: %q: the listing says %v, want it left to lstat", procs, rel, kinds[i])
			}
		}
		dirs, missing, err := PathDirs(root, e, wt, rels, kinds)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(dirs, missing) != fmt.Sprint(wantDirs, wantMissing) {
			t.Errorf("GOMAXPROCS=%d: PathDirs with the listings' kinds: %q %q; with lstat: %q %q", procs, dirs, missing, wantDirs, wantMissing)
		}
	}
	if fmt.Sprint(wantMissing) != `[a/gone.go gone/AGENTS.md a/x.go/y]` {
		t.Errorf("missing %q", wantMissing)
	}
}
