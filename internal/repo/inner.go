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
	// A dangling .git link makes no repository (R1), as for Locate.
	if p := filepath.Join(s.top, filepath.FromSlash(rel), ".git"); !isGitEntry(p) {
		in = s.Of(parentDir(rel))
	}
	s.memo[rel] = in
	return in
}

// isGitEntry reports whether p exists and is no dangling link.
func isGitEntry(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && !danglingLink(p, fi)
}
