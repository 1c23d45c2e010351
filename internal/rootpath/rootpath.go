// Package rootpath answers whether an OS path lies inside a root
// directory, and where: the one inside-the-root test (#22). Within
// compares the paths as written; WithinResolved also resolves symbolic
// links when the written paths do not match. Paths inside the result are
// slash-separated, "" for the root itself.
package rootpath

import (
	"path/filepath"
	"strings"
)

// Within is p as a slash path relative to root ("" for the root itself),
// and whether p is root or lies below it, comparing the paths as written
// (cleaned, no link resolved): /a/bc is not inside /a/b, and a path that
// reaches inside the root only through a link is outside. Both paths are
// absolute, or both relative to the same directory; paths on different
// volumes (windows) are not inside each other.
func Within(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	if rel == "." {
		return "", true
	}
	return filepath.ToSlash(rel), true
}

// WithinResolved is Within, except that when the written paths do not
// match, links on the way are resolved (filepath.EvalSymlinks of both,
// which must then exist) and the resolved paths are compared: a directory
// reached through a link to inside the root is inside.
func WithinResolved(root, p string) (string, bool) {
	if rel, ok := Within(root, p); ok {
		return rel, true
	}
	rr, err1 := filepath.EvalSymlinks(root)
	rp, err2 := filepath.EvalSymlinks(p)
	if err1 != nil || err2 != nil {
		return "", false
	}
	return Within(rr, rp)
}
