package repo

import (
	"fmt"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/shell"
)

// Re-rooting at a subdirectory (F2, R1): `--root DIR` below a worktree's
// top level makes DIR the project root, so the Git sources are taken from
// the repository's and re-rooted at DIR's path there (the prefix).

// NotDirError says an entry on the way to the project root (--root DIR
// below the worktree top) is not a directory in a revision or the index:
// Path is that entry, What what it is there ("a file", "a symbolic link",
// "a submodule"), Where the revision or index, Prefix the root.
type NotDirError struct{ Path, What, Where, Prefix string }

func (e *NotDirError) Error() string {
	fix := "check a revision that has the directory, or pass a --root that is a directory in it"
	switch {
	case e.What == "a submodule":
		// An uninitialised submodule's directory is on disk, empty or
		// not, but its files are another repository's (R1).
		fix = "its files belong to another repository: run rivumi-lint inside it (`git submodule update --init " + shell.Quote(e.Path) + "` at the top of the worktree checks it out first)"
	case strings.HasPrefix(e.Where, "the index"):
		fix = "stage the directory first, or pass a --root that is a directory in the index"
	}
	return fmt.Sprintf("%s is %s in %s, not a directory, so the project root %s cannot be read there: %s", e.Path, e.What, e.Where, e.Prefix, fix)
}

// Subtree returns the id of the tree at prefix (a slash path) inside tree
// root: the zero Hash (the empty tree) when the path does not exist there,
// as a directory missing at a revision holds nothing. An entry on the way
// that is not a directory (a file, a symbolic link, a submodule) is a
// *NotDirError: the revision checked cannot be read as the directory, and
// treating it as empty would hide its content; the side compared with
// (subBase) takes it as no directory at all. label names the tree in
// messages.
func (r *Repo) Subtree(root Hash, prefix, label string) (Hash, error) {
	h := root
	dir := ""
	for _, name := range strings.Split(prefix, "/") {
		if h.IsZero() || name == "" {
			return h, nil
		}
		ents, err := r.treeEntries(h, dir)
		if err != nil {
			return Hash{}, err
		}
		dir = join(dir, name)
		e := findEntry(ents, name)
		switch {
		case e == nil:
			return Hash{}, nil
		case !e.IsTree():
			what := "a file"
			switch e.Mode {
			case ModeSymlink:
				what = "a symbolic link"
			case ModeGitlink:
				what = "a submodule"
			}
			return Hash{}, &NotDirError{Path: dir, What: what, Where: label, Prefix: prefix}
		}
		h = e.Hash
	}
	return h, nil
}

// Sub returns the index re-rooted at prefix (a slash path): the entries
// below it, with paths relative to it, and the cache-tree likewise. An
// entry at prefix itself that is not a directory is an error (see
// Subtree). The entries' paths share x's storage.
func (x *Index) Sub(prefix string) (*Index, error) {
	if prefix == "" {
		return x, nil
	}
	pfx := prefix + "/"
	lo, hi := x.span(prefix)
	for d := prefix; d != ""; d = parentDir(d) {
		if i := x.find(d); i >= 0 {
			return nil, &NotDirError{Path: d, What: modeName(x.ents[i].Mode), Where: "the index (" + x.file + ")", Prefix: prefix}
		}
	}
	y := *x
	y.ents = make([]IndexEntry, 0, hi-lo)
	for _, e := range x.ents[lo:hi] {
		if rest, ok := strings.CutPrefix(e.Path, pfx); ok && rest != "" {
			e.Path = rest
			y.ents = append(y.ents, e)
		}
	}
	if x.trees != nil {
		y.trees = map[string]Hash{}
		for d, h := range x.trees {
			switch {
			case d == prefix:
				y.trees[""] = h
			case strings.HasPrefix(d, pfx):
				y.trees[d[len(pfx):]] = h
			}
		}
	}
	return &y, nil
}

func modeName(m uint32) string {
	switch m {
	case ModeSymlink:
		return "a symbolic link"
	case ModeGitlink:
		return "a submodule"
	}
	return fmt.Sprintf("a file (mode %06o)", m)
}
