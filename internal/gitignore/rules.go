package gitignore

// Rules are the ignore patterns in force in one directory: the lists of
// the files outside the tree (core.excludesFile, then info/exclude) and the
// .gitignore files of the directory and its ancestors. A Rules value is
// never changed once made, so that parallel walkers can share it.
type Rules struct {
	// Fold is core.ignoreCase: letters compare without case.
	Fold  bool
	files []*List // lowest precedence first
	dirs  *node   // deepest first
}

type node struct {
	list *List
	next *node
}

// NewRules returns the rules of the files outside the tree, given from the
// lowest precedence to the highest (core.excludesFile, then info/exclude).
func NewRules(fold bool, files ...*List) *Rules {
	r := &Rules{Fold: fold}
	for _, l := range files {
		if l != nil && len(l.Patterns) > 0 {
			r.files = append(r.files, l)
		}
	}
	return r
}

// With returns r with the .gitignore list of a directory below every list
// already in r added: its patterns take precedence over theirs.
func (r *Rules) With(l *List) *Rules {
	if l == nil || len(l.Patterns) == 0 {
		return r
	}
	c := *r
	c.dirs = &node{l, r.dirs}
	return &c
}

// Match returns the pattern that decides path (a slash path relative to
// the worktree top) and the list it comes from, or nils when none matches.
// It is last_matching_pattern_from_lists: the deepest .gitignore first,
// then info/exclude, then core.excludesFile; in each file the last matching
// line. It does not look at the parent directories: whether one of them is
// excluded is the walker's to carry (Git cannot re-include a path below an
// excluded directory).
func (r *Rules) Match(path string, isDir bool) (*Pattern, *List) {
	for n := r.dirs; n != nil; n = n.next {
		if p := n.list.last(path, isDir, r.Fold); p != nil {
			return p, n.list
		}
	}
	for i := len(r.files) - 1; i >= 0; i-- {
		if p := r.files[i].last(path, isDir, r.Fold); p != nil {
			return p, r.files[i]
		}
	}
	return nil, nil
}

// Excluded reports whether the patterns exclude path itself (Git's
// is_excluded without the parent directories).
func (r *Rules) Excluded(path string, isDir bool) bool {
	p, _ := r.Match(path, isDir)
	return p != nil && !p.Negative
}

// Empty reports whether no pattern is in force.
func (r *Rules) Empty() bool { return r.dirs == nil && len(r.files) == 0 }
