package repo

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// ChainInputs tells, for directories of a diff's base tree and its head
// (a tree, or the index with --staged), whether everything a chain of the
// directory reads is the same on both sides, from the tree objects and
// index entries alone: then its resolution is the same too, and the drift
// of that directory (R9) is empty without resolving the base side.
//
// A chain of dir reads, in dir and each directory above it (R2, R5), the
// entries named like a candidate (in any case: D1's case-folded layers,
// a directory used as a layer), their content and link targets, and the
// .gitattributes file (F5); the user layer, the options and
// info/attributes are the same for both sides. So the directories compare
// equal when each of them is a directory (not a link) on both sides and
// those entries have the same names, modes and ids. Any other entry, a
// changed file or subtree beside them, makes no difference.
type ChainInputs struct {
	base   *Tree
	head   chainSide
	names  []string
	firsts [utf8.RuneSelf]bool // the names' first bytes, lower case
	memo   map[string]bool
}

// chainSide gives a directory's entries that a chain reads (see
// ChainInputs), and the id of the tree the directory is, when known; ok
// is false when it cannot tell (not a directory there, an unmerged or
// intent-to-add entry, a subtree whose id is unknown).
type chainSide interface {
	chainEntries(dir string, relevant func(string) bool) (ents []TreeEntry, tree Hash, ok bool)
}

// NewChainInputs compares directories of the trees base and head; names
// are the candidate names.
func NewChainInputs(base, head *Tree, names []string) *ChainInputs {
	return newChainInputs(base, head, names)
}

// NewIndexChainInputs compares directories of the tree base with the
// index x (--staged).
func NewIndexChainInputs(base *Tree, x *Index, names []string) *ChainInputs {
	return newChainInputs(base, x, names)
}

func newChainInputs(base *Tree, head chainSide, names []string) *ChainInputs {
	c := &ChainInputs{base: base, head: head, names: names, memo: map[string]bool{}}
	for _, n := range names {
		if n != "" && n[0] < utf8.RuneSelf {
			c.firsts[n[0]|0x20] = true
		} else {
			// A name that starts with a multi-byte letter: no first-byte
			// filter can be sure.
			for b := range c.firsts {
				c.firsts[b] = true
			}
		}
	}
	return c
}

// Same reports whether dir, and every directory above it, has the same
// chain inputs on both sides. Anything it cannot tell (a tree that cannot
// be read, a directory that is a link or missing on one side) is false:
// the caller then resolves the chain.
func (c *ChainInputs) Same(dir string) bool {
	if v, ok := c.memo[dir]; ok {
		return v
	}
	same := dir == "" || c.Same(parentDir(dir))
	if same {
		same = c.sameDir(dir)
	}
	c.memo[dir] = same
	return same
}

func (c *ChainInputs) sameDir(dir string) bool {
	ea, ha, ok := c.base.chainEntries(dir, c.relevant)
	if !ok {
		return false
	}
	eb, hb, ok := c.head.chainEntries(dir, c.relevant)
	if !ok {
		return false
	}
	if !ha.IsZero() && ha == hb {
		return true
	}
	return slices.Equal(ea, eb)
}

// relevant reports an entry a chain reads: a candidate name or
// .gitattributes, in any case.
func (c *ChainInputs) relevant(name string) bool {
	// Most names differ from all of them in the first byte: ASCII, and
	// not a case of the first byte of any (a non-ASCII byte may fold to
	// one, as U+017F folds to s).
	if name == "" {
		return false
	}
	if b := name[0]; b < utf8.RuneSelf {
		b |= 0x20 // lower case for letters; '.' stays '.'
		if b != '.' && !c.firsts[b] {
			return false
		}
	}
	if strings.EqualFold(name, ".gitattributes") {
		return true
	}
	for _, n := range c.names {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}

func (t *Tree) chainEntries(dir string, relevant func(string) bool) ([]TreeEntry, Hash, bool) {
	ents, err := t.dir(dir)
	if err != nil {
		return nil, Hash{}, false
	}
	var out []TreeEntry
	for _, e := range ents {
		if relevant(e.Name) {
			out = append(out, e)
		}
	}
	sortByName(out)
	return out, t.dirs[dir].hash, true
}

func (x *Index) chainEntries(dir string, relevant func(string) bool) ([]TreeEntry, Hash, bool) {
	// Same asks about the directories above dir first: each was a
	// directory of the index, so dir is one when it has entries (a link or
	// a file there has none below it).
	lo, hi := x.span(dir)
	if lo == hi {
		return nil, Hash{}, false
	}
	h := x.trees[dir] // the cache-tree's id, when valid
	pfx := ""
	if dir != "" {
		pfx = dir + "/"
	}
	var out []TreeEntry
	for k := lo; k < hi; {
		e := &x.ents[k]
		rest := e.Path[len(pfx):]
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			k++
			if relevant(rest) {
				if e.Stage != 0 || e.IntentToAdd {
					return nil, Hash{}, false
				}
				out = append(out, TreeEntry{Name: rest, Mode: e.Mode, Hash: e.Hash})
			}
			continue
		}
		// A subdirectory: its entries follow, up to the first that is not
		// below it.
		sub := rest[:i]
		k = x.subdirEnd(k, hi, len(pfx)+i)
		if relevant(sub) {
			t, ok := x.trees[pfx+sub]
			if !ok {
				return nil, Hash{}, false // a directory used as a layer, its id unknown
			}
			out = append(out, TreeEntry{Name: sub, Mode: ModeTree, Hash: t})
		}
	}
	sortByName(out)
	return out, h, true
}

// sortByName orders a few entries by name, so that two sides compare
// whatever order their listing had.
func sortByName(ents []TreeEntry) {
	slices.SortFunc(ents, func(a, b TreeEntry) int { return strings.Compare(a.Name, b.Name) })
}
