package claude

import (
	"slices"
	"strings"
)

// pathSet is the set of paths a loading pass has met (Claude Code loads
// each path once). A deeper directory's pass starts from the pass above
// it: it adds to a small set of its own over that one, which no longer
// changes, instead of copying it. Copying every pass's set, and growing
// each copy, took a fifth of the claude views' time on the benchmark's
// worktree (A8).
type pathSet struct {
	// small are the first paths added, looked through in turn: most sets
	// get a few (a directory's missing names), and are asked little, so a
	// map of their own, grown as they fill, cost more than the lookups.
	small []string
	own   map[string]struct{} // the paths added once small is full
	// gaps are chain directories none of whose names exist: their paths
	// are in the set without being made (most chain directories are such).
	gaps  []gap
	base  *pathSet // frozen: never added to again
	depth int      // sets below this one
}

// smallSet is how many paths a set keeps in small.
const smallSet = 16

// maxSetDepth bounds a lookup's walk: a set deeper than this is flattened.
const maxSetDepth = 8

func (s *pathSet) has(p string) bool {
	for ; s != nil; s = s.base {
		if slices.Contains(s.small, p) {
			return true
		}
		if _, ok := s.own[p]; ok {
			return true
		}
		for i := range s.gaps {
			if s.gaps[i].holds(p) {
				return true
			}
		}
	}
	return false
}

// gap is the paths root + "/" + dir + "/" + name of each of names (for
// dir "", root + "/" + name), every one clean (Resolver.gapOK).
type gap struct {
	root, dir string
	names     []string
}

// holds reports whether p is one of g's paths, without making them.
func (g *gap) holds(p string) bool {
	rest, ok := strings.CutPrefix(p, g.root)
	if ok {
		rest, ok = strings.CutPrefix(rest, "/")
	}
	if ok && g.dir != "" {
		rest, ok = strings.CutPrefix(rest, g.dir)
		if ok {
			rest, ok = strings.CutPrefix(rest, "/")
		}
	}
	return ok && slices.Contains(g.names, rest)
}

// paths are g's paths, made.
func (g *gap) paths() []string {
	out := make([]string, len(g.names))
	for i, n := range g.names {
		if g.dir == "" {
			out[i] = g.root + "/" + n
		} else {
			out[i] = g.root + "/" + g.dir + "/" + n
		}
	}
	return out
}

// addGap adds g's paths.
func (s *pathSet) addGap(g gap) {
	if s.gaps == nil {
		s.gaps = make([]gap, 0, 8) // a pass's gaps come a directory at a time
	}
	s.gaps = append(s.gaps, g)
}

func (s *pathSet) add(p string) {
	if len(s.small) < smallSet {
		if s.small == nil {
			s.small = make([]string, 0, smallSet)
		}
		s.small = append(s.small, p)
		return
	}
	if s.own == nil {
		s.own = make(map[string]struct{}, 4)
	}
	s.own[p] = struct{}{}
}

// over is a new set holding s's paths, to add to; s must not change after.
func (s *pathSet) over() *pathSet {
	if s.depth < maxSetDepth {
		return &pathSet{base: s, depth: s.depth + 1}
	}
	flat := &pathSet{own: map[string]struct{}{}}
	for t := s; t != nil; t = t.base {
		for _, p := range t.small {
			flat.own[p] = struct{}{}
		}
		for p := range t.own {
			flat.own[p] = struct{}{}
		}
		flat.gaps = append(flat.gaps, t.gaps...)
	}
	return &pathSet{base: flat, depth: 1}
}

// all is every path of s, in no order.
func (s *pathSet) all() []string {
	var out []string
	seen := map[string]bool{}
	keep := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for t := s; t != nil; t = t.base {
		for _, p := range t.small {
			keep(p)
		}
		for p := range t.own {
			keep(p)
		}
		for i := range t.gaps {
			for _, p := range t.gaps[i].paths() {
				keep(p)
			}
		}
	}
	return out
}
