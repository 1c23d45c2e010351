package repo

import (
	"os"
	"path/filepath"
	"testing"
)

// R1: the innermost directory holding a .git entry (a file for a
// submodule's checkout, a directory for a nested repository) owns a path;
// the top's own .git never counts, and one Inners answers each path as
// Inner does.
func TestInnerIsInnermostR1(t *testing.T) {
	top := t.TempDir()
	for _, d := range []string{".git", "sub/d/nest/.git", "a/b"} {
		if err := os.MkdirAll(filepath.Join(top, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Git directories (HEAD, objects, refs): a .git that leads to none
	// makes no repository (R1).
	for _, gd := range []string{".git/modules/sub", "sub/d/nest/.git"} {
		for _, d := range []string{"objects", "refs"} {
			if err := os.MkdirAll(filepath.Join(top, filepath.FromSlash(gd), d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(top, filepath.FromSlash(gd), "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(top, "sub", ".git"), []byte("gitdir: ../.git/modules/sub\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewInners(top)
	for rel, want := range map[string]string{
		"": "", ".": "", "a/b": "", "a/b/c.md": "", "sub": "sub", "sub/d": "sub", "sub/d/x.md": "sub",
		"sub/d/nest": "sub/d/nest", "sub/d/nest/e/f": "sub/d/nest", "missing/x": "",
	} {
		if got := s.Of(rel); got != want {
			t.Errorf("Inners.Of(%q) = %q, want %q", rel, got, want)
		}
		if got := Inner(top, rel); got != want {
			t.Errorf("Inner(%q) = %q, want %q", rel, got, want)
		}
	}
}
