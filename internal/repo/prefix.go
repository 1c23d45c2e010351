package repo

import (
	"fmt"
	"strings"
)

// Re-rooting at a subdirectory (F2, R1): `--root DIR` below a worktree's
// top level makes DIR the project root, so the Git sources are taken from
// the repository's and re-rooted at DIR's path there (the prefix).

// Subtree returns the id of the tree at prefix (a slash path) inside tree
// root: the zero Hash (the empty tree) when the path does not exist there,
// as a directory missing at a revision holds nothing. An entry on the way
// that is not a directory (a file, a symbolic link, a submodule) is an
// error: that revision's DIR cannot be read as a directory, and treating
// it as empty would hide its content. label names the tree in messages.
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
			return Hash{}, fmt.Errorf("%s is %s in %s, not a directory, so the project root %s cannot be read there; pass --root with the directory itself", dir, what, label, prefix)
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
	if i := x.find(prefix); i >= 0 {
		return nil, fmt.Errorf("%s is a %s entry in the index (%s), not a directory, so the project root %s cannot be read there; pass --root with the directory itself", prefix, modeName(x.ents[i].Mode), x.file, prefix)
	}
	for d := parentDir(prefix); d != ""; d = parentDir(d) {
		if i := x.find(d); i >= 0 {
			return nil, fmt.Errorf("%s is a %s entry in the index (%s), not a directory, so the project root %s cannot be read there; pass --root with the directory itself", d, modeName(x.ents[i].Mode), x.file, prefix)
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
		return "symbolic link"
	case ModeGitlink:
		return "submodule"
	}
	return fmt.Sprintf("file (mode %06o)", m)
}
