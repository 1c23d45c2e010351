package repo

import (
	"os"
	"path/filepath"
)

// Inner is the innermost repository strictly below top that holds rel (a
// slash path below top, "" for top): the slash path of the nearest of rel
// and its ancestors, top excluded, that has a .git entry — a submodule's
// checkout (a .git file) or a nested repository (a .git directory).
// "" means top's own repository holds rel. Git never looks past such a
// directory from outside it, so a path there belongs to that repository
// (R1): `cd` there finds it.
func Inner(top, rel string) string { return NewInners(top).Of(rel) }

// Inners answers Inner for many paths below one top, looking at each
// directory once: pre-commit passes a thousand paths that share theirs.
type Inners struct {
	top  string
	memo map[string]string
}

// NewInners is Inner for paths below top.
func NewInners(top string) *Inners { return &Inners{top: top, memo: map[string]string{}} }

// Of is Inner(top, rel).
func (s *Inners) Of(rel string) string {
	if rel == "" || rel == "." {
		return ""
	}
	if in, ok := s.memo[rel]; ok {
		return in
	}
	in := rel
	// Only a .git that leads to a Git directory makes a repository
	// (R1), as git sees it from above.
	if !IsRepository(filepath.Join(s.top, filepath.FromSlash(rel))) {
		in = s.Of(parentDir(rel))
	}
	s.memo[rel] = in
	return in
}

// IsRepository reports whether dir holds a repository as git sees it from
// the directory above: a .git entry (a directory, a gitfile, or a link to
// either) that leads to a Git directory. A dangling link, an empty or
// malformed .git file, one naming no Git directory, or a .git directory
// that is none leave an ordinary directory, which `git status` from above
// lists file by file (R1, #33.3).
func IsRepository(dir string) bool {
	p := filepath.Join(dir, ".git")
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		return false
	case fi.IsDir():
		return isGitDirectory(p)
	case fi.Size() > maxGitFile:
		return false // git: "too large to be a .git file"
	}
	gd, err := readGitFile(p, fi)
	return err == nil && isGitDirectory(gd)
}

// maxGitFile bounds a gitfile read (git refuses one over 4 × PATH_MAX).
const maxGitFile = 16 << 10
