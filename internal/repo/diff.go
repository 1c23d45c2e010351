package repo

import (
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/par"
	"github.com/rivumi/rivumi-lint/internal/repo/internal/odb"
)

// ChangeKind says how a path changed.
type ChangeKind uint8

const (
	Added ChangeKind = iota + 1
	Deleted
	Modified // content, mode or type (file, link, submodule) changed
)

func (k ChangeKind) String() string {
	switch k {
	case Added:
		return "added"
	case Deleted:
		return "deleted"
	case Modified:
		return "modified"
	}
	return "changed"
}

// Change is one changed path between two trees, or between HEAD and the
// index. Renames are not detected: a renamed file is its old path deleted
// and its new path added, which is what R7 needs (both sides).
type Change struct {
	Path             string
	Kind             ChangeKind
	OldMode, NewMode uint32 // 0 on the side where the path does not exist
	Old, New         Hash
}

// DiffTrees returns the paths that differ between trees a and b (either
// may be zero: the empty tree), in path order; the same set as
// `git diff --name-only --no-renames A B`.
//
// The walk is hash-pruned: a subtree whose id is the same on both sides is
// never loaded, so the cost follows the size of the change, not of the
// repository. Any object it needs and cannot read is an error: never a
// shorter diff (§10; go-git's object.DiffTree treats a missing subtree as
// empty and is not used).
func (r *Repo) DiffTrees(a, b Hash) ([]Change, error) {
	r.prefetchDiff(a, b)
	var out []Change
	if err := r.diffTree("", a, b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// prefetchDiff loads, level by level and on several goroutines, the trees
// the walk of DiffTrees(a, b) will read: those that differ on the two
// sides, and all of an added or deleted subtree. The walk then finds them
// in the cache, in the same order and with the same errors as without it.
func (r *Repo) prefetchDiff(a, b Hash) {
	if r.opts.parallelism < 2 {
		return
	}
	type pair struct{ a, b Hash }
	level := []pair{{a, b}}
	for len(level) > 0 {
		hs := make([]Hash, 0, 2*len(level))
		for _, p := range level {
			if p.a != p.b {
				hs = append(hs, p.a, p.b)
			}
		}
		r.loadTrees(hs, true)
		var next []pair
		for _, p := range level {
			if p.a == p.b {
				continue
			}
			ea, eb := r.cachedEntries(p.a), r.cachedEntries(p.b)
			if ea == nil && !p.a.IsZero() || eb == nil && !p.b.IsZero() {
				continue // not read: the walk will say why
			}
			i, j := 0, 0
			for i < len(ea) || j < len(eb) {
				var c int
				switch {
				case i == len(ea):
					c = 1
				case j == len(eb):
					c = -1
				default:
					c = gitCompare(ea[i].Name, ea[i].IsTree(), eb[j].Name, eb[j].IsTree())
				}
				switch {
				case c < 0:
					if ea[i].IsTree() {
						next = append(next, pair{ea[i].Hash, Hash{}})
					}
					i++
				case c > 0:
					if eb[j].IsTree() {
						next = append(next, pair{Hash{}, eb[j].Hash})
					}
					j++
				default:
					if ea[i].IsTree() && ea[i].Hash != eb[j].Hash {
						next = append(next, pair{ea[i].Hash, eb[j].Hash})
					}
					i++
					j++
				}
			}
		}
		level = next
	}
}

// prefetchIndexDiff loads, level by level and on several goroutines, the
// trees of head that DiffIndex will read: every subtree whose cache-tree
// entry does not vouch for it (see prefetchDiff).
func (r *Repo) prefetchIndexDiff(head Hash, x *Index) {
	if r.opts.parallelism < 2 || head.IsZero() {
		return
	}
	type node struct {
		dir string
		h   Hash
	}
	level := []node{{"", head}}
	for len(level) > 0 {
		var hs []Hash
		var todo []node
		for _, n := range level {
			if c, ok := x.trees[n.dir]; ok && c == n.h {
				continue
			}
			hs = append(hs, n.h)
			todo = append(todo, n)
		}
		r.loadTrees(hs, false)
		var next []node
		for _, n := range todo {
			for _, e := range r.cachedEntries(n.h) {
				if e.IsTree() {
					next = append(next, node{join(n.dir, e.Name), e.Hash})
				}
			}
		}
		level = next
	}
}

// prefetchBlobs reads, on several goroutines, the blobs of hs (regular
// files of an instruction source) that readBlobEntry has not read yet,
// each at most limit+1 bytes after a size check, and caches them.
// Failures are left for readBlobEntry to meet and report.
func (r *Repo) prefetchBlobs(hs []Hash, limit int64) {
	objs, ok := r.objs.(*odb.Native)
	if !ok || r.opts.parallelism < 2 {
		return
	}
	var todo []Hash
	seen := map[Hash]bool{}
	for _, h := range hs {
		if _, ok := r.blobs[blobKey{h, limit}]; ok || seen[h] || h.IsZero() {
			continue
		}
		seen[h] = true
		todo = append(todo, h)
	}
	if len(todo) < 4 {
		return
	}
	got := make([]*blobRead, len(todo))
	par.Each(r.opts.parallelism, len(todo), func(i int) {
		size, err := objs.Size(todo[i])
		if err != nil {
			return
		}
		if size > limit {
			got[i] = &blobRead{nil, size}
			return
		}
		data, size, err := objs.Read(todo[i], odb.Blob, limit)
		if err != nil {
			return
		}
		if size > limit {
			got[i] = &blobRead{nil, size}
			return
		}
		got[i] = &blobRead{data, int64(len(data))}
	})
	for i, h := range todo {
		if got[i] != nil {
			r.blobs[blobKey{h, limit}] = *got[i]
		}
	}
}

// cachedEntries is the parsed entries of tree h when it is cached, else
// nil (and nil for the empty tree).
func (r *Repo) cachedEntries(h Hash) []TreeEntry {
	if h.IsZero() {
		return nil
	}
	o, ok := r.trees[h]
	if !ok {
		return nil
	}
	if !o.parsed {
		ents, err := parseTree(o.raw, r.hashSize)
		if err != nil {
			return nil
		}
		sortGit(ents)
		o.ents, o.parsed = ents, true
	}
	return o.ents
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func (r *Repo) diffTree(dir string, a, b Hash, out *[]Change) error {
	if a == b {
		return nil
	}
	ea, err := r.treeEntries(a, dir)
	if err != nil {
		return err
	}
	eb, err := r.treeEntries(b, dir)
	if err != nil {
		return err
	}
	i, j := 0, 0
	for i < len(ea) || j < len(eb) {
		var c int
		switch {
		case i == len(ea):
			c = 1
		case j == len(eb):
			c = -1
		default:
			c = gitCompare(ea[i].Name, ea[i].IsTree(), eb[j].Name, eb[j].IsTree())
		}
		switch {
		case c < 0:
			if err := r.oneSide(join(dir, ea[i].Name), ea[i], Deleted, out); err != nil {
				return err
			}
			i++
		case c > 0:
			if err := r.oneSide(join(dir, eb[j].Name), eb[j], Added, out); err != nil {
				return err
			}
			j++
		default:
			x, y := ea[i], eb[j]
			p := join(dir, x.Name)
			if x.IsTree() {
				if err := r.diffTree(p, x.Hash, y.Hash, out); err != nil {
					return err
				}
			} else if x.Hash != y.Hash || x.Mode != y.Mode {
				*out = append(*out, Change{Path: p, Kind: Modified, OldMode: x.Mode, NewMode: y.Mode, Old: x.Hash, New: y.Hash})
			}
			i++
			j++
		}
	}
	return nil
}

// oneSide reports entry e at p, and every file below it when it is a tree,
// as added or deleted.
func (r *Repo) oneSide(p string, e TreeEntry, k ChangeKind, out *[]Change) error {
	if !e.IsTree() {
		c := Change{Path: p, Kind: k}
		if k == Added {
			c.NewMode, c.New = e.Mode, e.Hash
		} else {
			c.OldMode, c.Old = e.Mode, e.Hash
		}
		*out = append(*out, c)
		return nil
	}
	ents, err := r.treeEntries(e.Hash, p)
	if err != nil {
		return err
	}
	for _, sub := range ents {
		if err := r.oneSide(join(p, sub.Name), sub, k, out); err != nil {
			return err
		}
	}
	return nil
}

// DiffIndex returns the paths whose staged state differs from tree head
// (zero: the empty tree, for an unborn HEAD), in path order; the same set
// as `git diff --cached --name-only --no-renames`. An unmerged path is
// always listed.
//
// It walks HEAD's tree alongside the sorted index entries, and skips every
// directory whose cache-tree id (the tree the index would write there) is
// the HEAD subtree's id, without loading it. Directories the last `git add`
// touched have no valid cache-tree and are compared entry by entry.
func (r *Repo) DiffIndex(head Hash, x *Index) ([]Change, error) {
	r.prefetchIndexDiff(head, x)
	var out []Change
	if err := r.diffIndex("", head, x, 0, len(x.ents), &out); err != nil {
		return nil, err
	}
	return out, nil
}

func (r *Repo) diffIndex(dir string, tree Hash, x *Index, lo, hi int, out *[]Change) error {
	if tree.IsZero() && lo == hi {
		return nil
	}
	if h, ok := x.trees[dir]; ok && h == tree && !tree.IsZero() {
		return nil
	}
	ents, err := r.treeEntries(tree, dir)
	if err != nil {
		return err
	}
	pfx := ""
	if dir != "" {
		pfx = dir + "/"
	}
	i, k := 0, lo
	for i < len(ents) || k < hi {
		// The index side: a file of this directory, or the span of a subdirectory.
		var name string
		var isDir bool
		end := k + 1
		if k < hi {
			rest := x.ents[k].Path[len(pfx):]
			if s := strings.IndexByte(rest, '/'); s >= 0 {
				name, isDir = rest[:s], true
				end = x.subdirEnd(k, hi, len(pfx)+s)
			} else {
				name = rest
			}
		}
		var c int
		switch {
		case k == hi:
			c = -1
		case i == len(ents):
			c = 1
		default:
			c = gitCompare(ents[i].Name, ents[i].IsTree(), name, isDir)
		}
		switch {
		case c < 0:
			if err := r.oneSide(join(dir, ents[i].Name), ents[i], Deleted, out); err != nil {
				return err
			}
			i++
		case c > 0:
			for _, e := range x.ents[k:end] {
				*out = append(*out, Change{Path: e.Path, Kind: Added, NewMode: e.Mode, New: e.Hash})
			}
			k = end
		default:
			t := ents[i]
			if isDir {
				if err := r.diffIndex(pfx+name, t.Hash, x, k, end, out); err != nil {
					return err
				}
			} else if e := x.ents[k]; e.Stage != 0 || e.Hash != t.Hash || e.Mode != t.Mode {
				*out = append(*out, Change{Path: e.Path, Kind: Modified, OldMode: t.Mode, NewMode: e.Mode, Old: t.Hash, New: e.Hash})
			}
			i++
			k = end
		}
	}
	return nil
}

// subdirEnd returns the end of the entries of x.ents[k:hi] that lie in
// the directory x.ents[k].Path[:n], which is one (Path[n] is '/'): they
// come first, so one binary search inside the span finds it, without
// making the directory's name or searching the whole index.
func (x *Index) subdirEnd(k, hi, n int) int {
	dir := x.ents[k].Path[:n]
	return k + 1 + sort.Search(hi-k-1, func(j int) bool {
		p := x.ents[k+1+j].Path
		return len(p) <= n || p[n] != '/' || p[:n] != dir
	})
}

// sortGit puts tree entries in Git's order when they are not (a tree not
// written by Git); the merge walks rely on it.
func sortGit(ents []TreeEntry) {
	less := func(i, j int) bool {
		return gitCompare(ents[i].Name, ents[i].IsTree(), ents[j].Name, ents[j].IsTree()) < 0
	}
	for i := 1; i < len(ents); i++ {
		if !less(i-1, i) {
			sort.SliceStable(ents, less)
			return
		}
	}
}
