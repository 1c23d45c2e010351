package repo

import "strings"

// ChainInputs tells, for directories of two trees (a diff's base and
// head), whether everything a chain of the directory reads is the same on
// both sides, from the tree objects alone: then its resolution is the same
// too, and the drift of that directory (R9) is empty without resolving
// the base side.
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
	a, b  *Tree
	names []string
	memo  map[string]bool
}

// NewChainInputs compares directories of a and b; names are the
// candidate names.
func NewChainInputs(a, b *Tree, names []string) *ChainInputs {
	return &ChainInputs{a: a, b: b, names: names, memo: map[string]bool{}}
}

// Same reports whether dir, and every directory above it, has the same
// chain inputs in both trees. Anything it cannot tell (a tree that cannot
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
	ea, err := c.a.dir(dir)
	if err != nil {
		return false
	}
	eb, err := c.b.dir(dir)
	if err != nil {
		return false
	}
	if c.a.dirs[dir].hash == c.b.dirs[dir].hash {
		return true
	}
	i, j := 0, 0
	for {
		for i < len(ea) && !c.relevant(ea[i].Name) {
			i++
		}
		for j < len(eb) && !c.relevant(eb[j].Name) {
			j++
		}
		if i == len(ea) || j == len(eb) {
			return i == len(ea) && j == len(eb)
		}
		if ea[i] != eb[j] {
			return false
		}
		i++
		j++
	}
}

// relevant reports an entry a chain reads: a candidate name or
// .gitattributes, in any case.
func (c *ChainInputs) relevant(name string) bool {
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
