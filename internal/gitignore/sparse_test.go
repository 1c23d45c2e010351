package gitignore

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// F4: a skip-worktree .gitignore missing from the worktree is read from
// its index blob, as Git's add_patterns does; a checkout that is not
// sparse gives nil without reading more than the index scan;
// a .gitignore present in the worktree wins over the index's. Each answer
// is compared with git check-ignore.
func TestSparseGitignoreFromIndex(t *testing.T) {
	gittest.SetEnv(t)
	r := gittest.New(t)
	r.Write(".gitignore", "build/\n", "sub/.gitignore", "secret/\n", "AGENTS.md", "x\n", "sub/AGENTS.md", "y\n")
	r.Commit("c")
	gitDir := filepath.Join(r.Dir, ".git")
	if s, err := readSparse(t, r.Dir, gitDir); err != nil || s != nil {
		t.Fatalf("full checkout: ReadSparse = %v, %v; want nil, nil", s, err)
	}
	r.Git("sparse-checkout", "set", "--no-cone", "/*", "!/.gitignore")
	if _, err := os.Lstat(filepath.Join(r.Dir, ".gitignore")); !os.IsNotExist(err) {
		t.Fatalf(".gitignore still in the worktree: %v", err)
	}
	s, err := readSparse(t, r.Dir, gitDir)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Has("") || s.Has("sub") {
		t.Errorf("Has: top %v, sub %v; want true, false", s.Has(""), s.Has("sub"))
	}
	l, err := s.ReadDirFile(r.Dir, "")
	if err != nil || l == nil || l.Source != ":.gitignore" {
		t.Fatalf("ReadDirFile(top) = %+v, %v", l, err)
	}
	rules := NewRules(false).With(l)
	if !rules.Excluded("build", true) || rules.Excluded("sub", true) {
		t.Errorf("index .gitignore: build excluded %v, sub %v", rules.Excluded("build", true), rules.Excluded("sub", true))
	}
	if _, err := r.Try("check-ignore", "-q", "build/"); err != nil {
		t.Errorf("git check-ignore build/: %v (Git reads the index's .gitignore too)", err)
	}
	// Present again: the worktree's file is read, not the blob.
	r.Write(".gitignore", "other/\n")
	l, err = s.ReadDirFile(r.Dir, "")
	if err != nil || l == nil || l.Source == ":.gitignore" || len(l.Patterns) != 1 || l.Patterns[0].Text != "other" {
		t.Fatalf("worktree .gitignore: %+v, %v", l, err)
	}
	if _, err := r.Try("check-ignore", "-q", "build/"); err == nil {
		t.Errorf("git check-ignore build/ still ignored with the worktree's .gitignore")
	}
	var nilSparse *Sparse
	if nilSparse.Has("") {
		t.Error("nil Sparse has a file")
	}
}

// readSparse is ReadSparse of what the worktree's index scan finds,
// through a repository opened at most once, and only when the scan found
// skip-worktree .gitignore entries.
func readSparse(t *testing.T, top, gitDir string) (*Sparse, error) {
	t.Helper()
	scan, err := repo.ScanIndexOf(top, true)
	if err != nil {
		t.Fatal(err)
	}
	opens := 0
	s, err := ReadSparse(scan.SkipIgnores, func() (*repo.Repo, error) {
		opens++
		r, err := repo.OpenAt(top, gitDir)
		if err == nil {
			t.Cleanup(func() { r.Close() })
		}
		return r, err
	})
	if want := min(len(scan.SkipIgnores), 1); opens != want {
		t.Errorf("ReadSparse of %d skip-worktree entries opened the repository %d times, want %d", len(scan.SkipIgnores), opens, want)
	}
	return s, err
}
