package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unsafe"

	"github.com/rivumi/rivumi-lint/internal/par"
	"github.com/rivumi/rivumi-lint/internal/repo/internal/odb"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Hash is a Git object id (odb.Hash): 20 bytes in a SHA-1 repository, 32
// in a SHA-256 one; the zero Hash stands for "no object", as a tree the
// empty tree.
type Hash = odb.Hash

// HashOf returns the Hash with the given raw bytes (20 or 32 of them).
func HashOf(raw []byte) Hash { return odb.HashOf(raw) }

// ParseHash parses a full hexadecimal object id of 40 (SHA-1) or 64
// (SHA-256) digits.
func ParseHash(s string) (Hash, bool) { return odb.ParseHash(s) }

// Git tree entry modes, canonical forms (as git's canon_mode makes them).
const (
	ModeTree       uint32 = 0o040000
	ModeRegular    uint32 = 0o100644
	ModeExecutable uint32 = 0o100755
	ModeSymlink    uint32 = 0o120000
	ModeGitlink    uint32 = 0o160000
)

// CanonMode maps a raw mode to the form Git compares: a regular file is
// 100644 or 100755 whatever other permission bits were recorded (old Git
// wrote 100664).
func CanonMode(m uint32) uint32 {
	switch m & 0o170000 {
	case 0o100000:
		if m&0o100 != 0 {
			return ModeExecutable
		}
		return ModeRegular
	case 0o040000:
		return ModeTree
	case 0o120000:
		return ModeSymlink
	case 0o160000:
		return ModeGitlink
	}
	return m
}

// KindOfMode is how the engine sees a tree or index entry of mode m (R6, C1,
// C2): 120000 is a symbolic link and 160000 a submodule, whatever a checkout
// of it holds.
func KindOfMode(m uint32) (resolve.Kind, string) {
	switch CanonMode(m) {
	case ModeRegular, ModeExecutable:
		return resolve.Regular, ""
	case ModeTree:
		return resolve.Dir, ""
	case ModeSymlink:
		return resolve.Symlink, ""
	case ModeGitlink:
		return resolve.Submodule, ""
	}
	return resolve.Special, fmt.Sprintf("a Git entry of unknown mode %06o", m)
}

// TreeEntry is one entry of a tree object.
type TreeEntry struct {
	Name string
	Mode uint32 // canonical (CanonMode)
	Hash Hash
}

// IsTree reports whether the entry is a subtree.
func (e *TreeEntry) IsTree() bool { return e.Mode == ModeTree }

// parseTree decodes a tree object: repeated "MODE SP NAME NUL HASH". The
// entries keep the object's order, which Git writes sorted (see gitLess).
func parseTree(data []byte, hashSize int) ([]TreeEntry, error) {
	n := bytes.Count(data, []byte{0})
	out := make([]TreeEntry, 0, n)
	// Names are substrings of one string over data, which nothing modifies
	// after the read (F1: cached object bytes are never scratch, see
	// treeScratch): no allocation per entry.
	str := unsafe.String(unsafe.SliceData(data), len(data))
	err := forEachEntry(data, hashSize, func(mode uint32, start, end int, id []byte) error {
		out = append(out, TreeEntry{Name: str[start:end], Mode: CanonMode(mode), Hash: HashOf(id)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// forEachEntry calls fn for every entry of a tree object, in the object's
// order, with the raw mode, the name as data[start:end] and the id.
func forEachEntry(data []byte, hashSize int, fn func(mode uint32, start, end int, id []byte) error) error {
	for i := 0; i < len(data); {
		sp := bytes.IndexByte(data[i:], ' ')
		if sp <= 0 || sp > 7 {
			return errors.New("corrupt tree object: bad mode")
		}
		var mode uint32
		for _, c := range data[i : i+sp] {
			if c < '0' || c > '7' {
				return errors.New("corrupt tree object: bad mode")
			}
			mode = mode<<3 | uint32(c-'0')
		}
		i += sp + 1
		nul := bytes.IndexByte(data[i:], 0)
		if nul <= 0 || len(data)-i < nul+1+hashSize {
			return errors.New("corrupt tree object: bad entry name or truncated id")
		}
		name := data[i : i+nul]
		if len(name) <= 2 && (string(name) == "." || string(name) == "..") || bytes.IndexByte(name, '/') >= 0 {
			return fmt.Errorf("corrupt tree object: entry name %q", name)
		}
		if err := fn(mode, i, i+nul, data[i+nul+1:i+nul+1+hashSize]); err != nil {
			return err
		}
		i += nul + 1 + hashSize
	}
	return nil
}

// gitCompare orders tree entries as Git does: by name, a subtree's name
// compared as if it ended in "/". Full paths sorted bytewise (the index
// order) follow the same order.
func gitCompare(aName string, aTree bool, bName string, bTree bool) int {
	n := min(len(aName), len(bName))
	if c := strings.Compare(aName[:n], bName[:n]); c != 0 {
		return c
	}
	ca, cb := nextByte(aName, n, aTree), nextByte(bName, n, bTree)
	switch {
	case ca < cb:
		return -1
	case ca > cb:
		return 1
	}
	if len(aName) == len(bName) {
		return 0 // same name and same "treeness"
	}
	// One name is a prefix of the other and the next bytes matched ('/').
	if len(aName) < len(bName) {
		return -1
	}
	return 1
}

func nextByte(name string, i int, tree bool) int {
	if i < len(name) {
		return int(name[i])
	}
	if tree {
		return '/'
	}
	return 0
}

// findEntry returns the entry called name in a git-ordered tree, or nil.
// A name may have at most one entry, a file or a subtree; both are looked
// for, as the two sort in different places. Every entry list here is in
// Git's order (sortGit puts a tree not written by Git in it when it is
// parsed), so a miss is two binary searches, never a scan: the layer
// look-ups miss three names of four.
func findEntry(ents []TreeEntry, name string) *TreeEntry {
	for _, tree := range [2]bool{false, true} {
		i := sort.Search(len(ents), func(i int) bool {
			return gitCompare(ents[i].Name, ents[i].IsTree(), name, tree) >= 0
		})
		if i < len(ents) && ents[i].Name == name {
			return &ents[i]
		}
	}
	return nil
}

// maxLinkTarget caps what LinkTarget reads of a symlink blob (PATH_MAX).
const maxLinkTarget = 4096

// Tree is a commit's tree as a resolve.Source (R6). Entry kinds come from the
// tree's modes: 120000 is a symbolic link and 160000 a submodule (C1, C2).
// Blob content comes from the object store; the size is taken from the
// object's header before anything is read, and never more than limit+1
// bytes are read (C3).
//
// A missing object is not a property of one file: it makes the answer
// unknowable, so every method returns it as a *resolve.FatalError and the
// run stops (exit 2) rather than report a rejected file (F6).
type Tree struct {
	repo  *Repo
	root  Hash // zero: the empty tree
	label string
	dirs  map[string]*treeDir
}

type treeDir struct {
	ents []TreeEntry
	hash Hash // the tree object's id
	err  error
}

// Tree returns the tree with id root (the zero Hash: the empty tree) as a
// source; label names it in messages ("HEAD", "base abc123…").
func (r *Repo) Tree(root Hash, label string) *Tree {
	return &Tree{repo: r, root: root, label: label, dirs: map[string]*treeDir{}}
}

// Root returns the tree's id (zero for the empty tree).
func (t *Tree) Root() Hash { return t.root }

// Label names the tree in messages.
func (t *Tree) Label() string { return t.label }

func (t *Tree) Name() string { return "tree" }

// fatal marks err, a missing or corrupt object, as one that stops the run
// (F6).
func (t *Tree) fatal(err error) error { return resolve.Fatal(err) }

// dir returns the entries of directory dir: fs.ErrNotExist when a
// component is missing or not a directory, *resolve.LinkedDirError when a
// component is a symbolic link.
func (t *Tree) dir(dir string) ([]TreeEntry, error) {
	if d, ok := t.dirs[dir]; ok {
		return d.ents, d.err
	}
	d := &treeDir{}
	if dir == "" {
		d.hash = t.root
		d.ents, d.err = t.repo.treeEntries(t.root, "")
		d.err = t.fatal(d.err)
	} else {
		parent, err := t.dir(parentDir(dir))
		if err != nil {
			d.err = err
		} else {
			e := findEntry(parent, path.Base(dir))
			switch {
			case e == nil:
				d.err = fs.ErrNotExist
			case e.Mode == ModeSymlink:
				d.err = &resolve.LinkedDirError{Dir: dir}
			case !e.IsTree():
				d.err = fs.ErrNotExist
			default:
				d.hash = e.Hash
				d.ents, d.err = t.repo.treeEntries(e.Hash, dir)
				d.err = t.fatal(d.err)
			}
		}
	}
	t.dirs[dir] = d
	return d.ents, d.err
}

// List implements resolve.Source. The entries of a tree object are made
// once per run and shared (read-only) by every source that lists it: the
// base and head of a diff share most of their trees.
func (t *Tree) List(dir string) ([]resolve.Entry, error) {
	ents, err := t.dir(dir)
	if err != nil {
		return nil, err
	}
	h := t.dirs[dir].hash
	var o *treeObj
	if !h.IsZero() {
		if o = t.repo.trees[h]; o != nil && o.listed != nil {
			return o.listed, nil
		}
	}
	out := make([]resolve.Entry, 0, len(ents))
	for _, e := range ents {
		k, note := KindOfMode(e.Mode)
		out = append(out, resolve.Entry{Name: e.Name, Kind: k, Size: -1, Note: note})
	}
	if o != nil {
		o.listed = out
	}
	return out, nil
}

// entry returns the tree entry at p, or nil when there is none (also when a
// directory on the way is a link or a file).
func (t *Tree) entry(p string) (*TreeEntry, error) {
	ents, err := t.dir(parentDir(p))
	if err != nil {
		if isAbsent(err) {
			return nil, nil
		}
		return nil, err
	}
	return findEntry(ents, path.Base(p)), nil
}

// Lstat implements resolve.Source. The engine asks it only about
// candidates below a symbolic link, to report them (C1): like lstat(2) on
// a checkout, it follows links on the way to p, by their target text inside
// the tree (an absolute target, or one leading out of the tree, is unknown:
// Missing), and never the last component.
func (t *Tree) Lstat(p string) (resolve.Entry, error) {
	var terr error
	mode, ok, err := lstatPath(p, t.lookup, targetOf(t.LinkTarget, &terr))
	if err == nil {
		err = terr
	}
	if err != nil || !ok {
		return resolve.Entry{Name: path.Base(p), Kind: resolve.Missing, Size: -1}, err
	}
	k, note := KindOfMode(mode)
	return resolve.Entry{Name: path.Base(p), Kind: k, Size: -1, Note: note}, nil
}

// lookup returns the mode of the entry at p, without following links.
func (t *Tree) lookup(p string) (uint32, bool, error) {
	if p == "" {
		return ModeTree, true, nil
	}
	e, err := t.entry(p)
	if err != nil || e == nil {
		return 0, false, err
	}
	return e.Mode, true, nil
}

// maxLinkHops bounds the links followed on the way to one path (Linux
// gives up after 40).
const maxLinkHops = 40

// lstatPath finds the entry at p as lstat(2) would in a checkout: links in
// the directories on the way are followed by their target text, the last
// component is not. lookup gives an entry's mode without following links;
// target gives a link's text.
func lstatPath(p string, lookup func(string) (uint32, bool, error), target func(string) string) (uint32, bool, error) {
	cur, ok, err := walkDir(parentDir(p), lookup, target)
	if err != nil || !ok {
		return 0, false, err
	}
	return lookup(join(cur, path.Base(p)))
}

// walkDir resolves the directory dir as opening it in a checkout would:
// every link on the way, dir itself included, is followed by its target
// text (never opened). It returns the directory's real path in the tree;
// ok is false when it is not a directory there, or a link leads out of the
// tree (absolute, or above the root), or there are too many links.
func walkDir(dir string, lookup func(string) (uint32, bool, error), target func(string) string) (string, bool, error) {
	cur := ""
	hops := 0
	var comps []string
	if dir != "" {
		comps = strings.Split(dir, "/")
	}
	for len(comps) > 0 {
		next := join(cur, comps[0])
		comps = comps[1:]
		mode, ok, err := lookup(next)
		if err != nil || !ok {
			return "", false, err
		}
		switch mode {
		case ModeTree:
			cur = next
		case ModeSymlink:
			hops++
			t := target(next)
			if hops > maxLinkHops || t == "" || strings.HasPrefix(t, "/") {
				return "", false, nil
			}
			resolved := path.Join(cur, t)
			if resolved == ".." || strings.HasPrefix(resolved, "../") {
				return "", false, nil // outside the tree: unknown here
			}
			// Walk the target's components from the root again.
			var rest []string
			if resolved != "." && resolved != "" {
				rest = strings.Split(resolved, "/")
			}
			comps = append(rest, comps...)
			cur = ""
		default:
			return "", false, nil
		}
	}
	return cur, true, nil
}

// DirLink reports whether p is a symbolic link that leads to a directory of
// the tree, links on the way to p followed as lstat(2) does. Like a
// whole-worktree check, a change lists such a link as a directory of its
// own, so that candidates behind it are reported (C1).
func (t *Tree) DirLink(p string) (bool, error) {
	return dirLink(p, t.lookup, t.LinkTarget)
}

// dirLink is DirLink over a tree's or the index's lookup and link
// targets: links on the way to p are followed, as lstat(2) does in a
// checkout, then p itself, which must be a link, to a directory.
func dirLink(p string, lookup func(string) (uint32, bool, error), linkTarget func(string) (string, error)) (bool, error) {
	var terr error
	target := targetOf(linkTarget, &terr)
	mode, ok, err := lstatPath(p, lookup, target)
	if err == nil {
		err = terr
	}
	if err != nil || !ok || mode != ModeSymlink {
		return false, err
	}
	_, ok, err = walkDir(p, lookup, target)
	if err == nil {
		err = terr
	}
	return ok && err == nil, err
}

// targetOf adapts a LinkTarget to walkDir's target function, keeping the
// first error in *errp: a link whose blob is missing is fatal (F6), not a
// link that leads nowhere.
func targetOf(f func(string) (string, error), errp *error) func(string) string {
	return func(p string) string {
		t, err := f(p)
		if err != nil && *errp == nil {
			*errp = err
		}
		return t
	}
}

// Read implements resolve.Source.
func (t *Tree) Read(p string, limit int64) ([]byte, resolve.Kind, int64, error) {
	e, err := t.entry(p)
	if err != nil {
		return nil, resolve.Missing, -1, err
	}
	if e == nil {
		return nil, resolve.Missing, -1, fs.ErrNotExist
	}
	return t.repo.readBlobEntry(e.Mode, e.Hash, p, limit, t.fatal)
}

// LinkTarget implements resolve.Source: the text of the symlink blob.
func (t *Tree) LinkTarget(p string) (string, error) {
	e, err := t.entry(p)
	if err != nil || e == nil || e.Mode != ModeSymlink {
		return "", err
	}
	return t.repo.linkTarget(e.Hash, p, t.fatal)
}

// DirsBelow returns dir and every directory below it, sorted, as slash
// paths. It does not descend into symbolic links or submodules; a link to
// a directory of the tree is listed itself, as a whole-worktree check lists
// it (C1). A dir that does not exist gives none.
func (t *Tree) DirsBelow(dir string) ([]string, error) {
	if _, err := t.dir(dir); err != nil {
		if isAbsent(err) {
			return nil, nil
		}
		return nil, err
	}
	var out []string
	var walk func(d string) error
	walk = func(d string) error {
		ents, err := t.dir(d)
		if err != nil {
			return err
		}
		out = append(out, d)
		for _, e := range ents {
			switch {
			case e.IsTree():
				if err := walk(path.Join(d, e.Name)); err != nil {
					return err
				}
			case e.Mode == ModeSymlink:
				if ok, err := t.DirLink(path.Join(d, e.Name)); err != nil {
					return err
				} else if ok {
					out = append(out, path.Join(d, e.Name)) // listed, never descended into
				}
			}
		}
		return nil
	}
	if err := walk(dir); err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// CandidateDirsBelow returns, sorted, the directories at or below dir that
// have an entry called like one of names, and the links to directories of
// the tree (whose candidates the engine finds by lstat): a superset of the
// directories below dir that hold an instruction candidate (R7), found by
// scanning each tree object once without building its entries. A dir that
// does not exist gives none.
func (t *Tree) CandidateDirsBelow(dir string, names []string) ([]string, error) {
	if _, err := t.dir(dir); err != nil {
		if isAbsent(err) {
			return nil, nil
		}
		return nil, err
	}
	if out, ok := t.candidateDirsParallel(dir, names); ok {
		return out, nil
	}
	var out []string
	// One buffer per level: a tree's content stays valid while its
	// subtrees are scanned. Only the trees on the way to a hit are kept;
	// the engine reads those next.
	var bufs [][]byte
	var walk func(d string, h Hash, depth int) (bool, error)
	walk = func(d string, h Hash, depth int) (bool, error) {
		if h.IsZero() {
			return false, nil // the empty tree
		}
		if depth >= len(bufs) {
			bufs = append(bufs, nil)
		}
		data, scratch, err := t.repo.treeScratch(h, d, bufs[depth])
		if err != nil {
			return false, t.fatal(err)
		}
		// Only bytes of the walk's own may become its buffer: a cached
		// tree's, taken here, would be overwritten by the next inflate at
		// this level (F1).
		if scratch && cap(data) > cap(bufs[depth]) {
			bufs[depth] = data[:0]
		}
		hit, below := false, false
		err = forEachEntry(data, t.repo.hashSize, func(mode uint32, start, end int, id []byte) error {
			name := data[start:end]
			if !hit {
				for _, n := range names {
					if string(name) == n {
						hit = true
						out = append(out, d)
						break
					}
				}
			}
			switch CanonMode(mode) {
			case ModeTree:
				b, err := walk(join(d, string(name)), HashOf(id), depth+1)
				below = below || b
				return err
			case ModeSymlink:
				p := join(d, string(name))
				ok, err := t.DirLink(p)
				if ok {
					out = append(out, p) // listed, never descended into
					below = true
				}
				return err
			}
			return nil
		})
		if err != nil {
			if resolve.IsFatal(err) {
				return false, err // a subtree's or a link's, with its path
			}
			return false, t.fatal(fmt.Errorf("tree %s (%s/): %w", h.Short(), d, err))
		}
		if hit || below {
			t.repo.keepTree(h, data, scratch)
		}
		return hit || below, nil
	}
	if _, err := walk(dir, t.dirs[dir].hash, 0); err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// candidateDirsParallel is CandidateDirsBelow on several goroutines: each
// takes a subtree from a shared queue, scans it and queues its subtrees.
// ok is false when it cannot answer (one reader, the git backend, an object
// that cannot be read): the serial walk then runs and reports any error
// with its path, so the answer never depends on this path.
func (t *Tree) candidateDirsParallel(dir string, names []string) (out []string, ok bool) {
	objs, native := t.repo.objs.(*odb.Native)
	root := t.dirs[dir].hash
	n := t.repo.opts.parallelism
	if !native || n < 2 || root.IsZero() {
		return nil, false
	}
	type task struct {
		d string
		h Hash
	}
	type seen struct {
		d    string
		h    Hash
		data []byte
	}
	type result struct {
		hits, links []string
		visited     []seen
		reads       int
		buf         []byte // the worker's scratch (F1: never cached bytes)
	}
	res := make([]result, n)
	err := par.Walk(n, task{dir, root}, func(w int, tk task, next []task) ([]task, error) {
		my := &res[w]
		data, _ := t.repo.cachedRaw(tk.h)
		read, inBuf := data == nil, false
		if read {
			var size int64
			var scratch bool
			var err error
			data, size, scratch, err = objs.ReadInto(tk.h, odb.Tree, maxTreeBytes, my.buf)
			if err == nil && size > maxTreeBytes {
				err = errTooLarge
			}
			if err != nil {
				return next, err
			}
			my.reads++
			inBuf = scratch && len(data) > 0 && cap(my.buf) > 0 && &data[0] == &my.buf[:1][0]
			if scratch && !inBuf && cap(data) > cap(my.buf) {
				// A new allocation of the walk's own: the next buffer. If
				// this tree is kept below, it is copied out of it.
				my.buf, inBuf = data[:0], true
			}
		}
		hit, sub := false, false
		defer func() {
			// Keep what the engine may read next: a tree with a hit, or
			// with subtrees (on the way to a hit, maybe). A leaf without
			// one never is, and stays in the scratch buffer: most trees
			// are leaves, and not keeping them saves their memory.
			if read && (hit || sub) {
				if inBuf {
					data = bytes.Clone(data)
				}
				my.visited = append(my.visited, seen{tk.d, tk.h, data})
			}
		}()
		err := forEachEntry(data, t.repo.hashSize, func(mode uint32, start, end int, id []byte) error {
			name := data[start:end]
			if !hit {
				for _, n := range names {
					if string(name) == n {
						hit = true
						my.hits = append(my.hits, tk.d)
						break
					}
				}
			}
			switch CanonMode(mode) {
			case ModeTree:
				sub = true
				next = append(next, task{join(tk.d, string(name)), HashOf(id)})
			case ModeSymlink:
				my.links = append(my.links, join(tk.d, string(name)))
			}
			return nil
		})
		return next, err
	})
	if err != nil {
		return nil, false
	}
	var hits, links []string
	var visited []seen
	for _, r := range res {
		hits, links, visited = append(hits, r.hits...), append(links, r.links...), append(visited, r.visited...)
	}
	// Keep the trees on the way to a hit: the engine reads those next.
	need := map[string]bool{}
	for _, d := range hits {
		for {
			if need[d] {
				break
			}
			need[d] = true
			if d == "" || d == dir {
				break
			}
			d = parentDir(d)
		}
	}
	for _, r := range res {
		t.repo.treeLoads += r.reads
	}
	for _, v := range visited {
		if need[v.d] {
			if _, ok := t.repo.trees[v.h]; !ok {
				t.repo.trees[v.h] = &treeObj{raw: v.data}
			}
		}
	}
	out = hits
	for _, l := range links {
		ok, err := t.DirLink(l)
		if err != nil {
			return nil, false // the serial walk reports it with its path
		}
		if ok {
			out = append(out, l) // listed, never descended into
		}
	}
	sort.Strings(out)
	return out, true
}

var errTooLarge = errors.New("tree object too large")

// Prefetch implements resolve.Snapshot: it reads ahead, on several
// goroutines, the blob each of dirs (and every directory above them) will
// load as its layer: the first of names, in priority order, that has an
// entry (R2), when that entry is a regular file. limit is the engine's
// MaxFileBytes. The engine then finds the bytes in the cache; nothing else
// changes.
func (t *Tree) Prefetch(dirs, names []string, limit int64) {
	var hs []Hash
	for _, d := range resolve.WithAncestors(dirs) {
		ents, err := t.dir(d)
		if err != nil {
			continue
		}
		for _, n := range names {
			if e := findEntry(ents, n); e != nil {
				if k, _ := KindOfMode(e.Mode); k == resolve.Regular {
					hs = append(hs, e.Hash)
				}
				break
			}
		}
	}
	t.repo.prefetchBlobs(hs, limit)
}

// isAbsent reports an error that says a path does not exist as a directory
// of a source: missing, a file, or behind a symbolic link.
func isAbsent(err error) bool {
	var le *resolve.LinkedDirError
	return errors.Is(err, fs.ErrNotExist) || errors.As(err, &le)
}

// readBlobEntry is Read for an entry of mode m and id h, shared by the tree
// and index sources. fatal marks a missing or corrupt object (F6).
func (r *Repo) readBlobEntry(m uint32, h Hash, p string, limit int64, fatal func(error) error) ([]byte, resolve.Kind, int64, error) {
	k, _ := KindOfMode(m)
	if k != resolve.Regular {
		return nil, k, -1, nil
	}
	// Each blob is read once per run: the base and the head of a diff, the
	// index and HEAD, mostly hold the same instruction files. The bytes
	// are shared, read-only.
	key := blobKey{h, limit}
	if b, ok := r.blobs[key]; ok {
		return b.data, resolve.Regular, b.size, nil
	}
	data, size, err := r.readBlob(h, p, limit, fatal)
	if err == nil {
		r.blobs[key] = blobRead{data, size}
	}
	return data, resolve.Regular, size, err
}

type blobKey struct {
	h     Hash
	limit int64
}

type blobRead struct {
	data []byte // nil when over the limit
	size int64
}

func (r *Repo) readBlob(h Hash, p string, limit int64, fatal func(error) error) ([]byte, int64, error) {
	// C3: the size from the object's header decides before anything is read.
	size, err := r.objs.Size(h)
	if err != nil {
		return nil, -1, fatal(r.objectError(err, h, p))
	}
	if size > limit {
		return nil, size, nil
	}
	data, size, err := r.objs.Read(h, odb.Blob, limit)
	if err != nil {
		return nil, -1, fatal(r.objectError(err, h, p))
	}
	if size > limit {
		return nil, size, nil
	}
	return data, int64(len(data)), nil
}

func (r *Repo) linkTarget(h Hash, p string, fatal func(error) error) (string, error) {
	data, size, err := r.objs.Read(h, odb.Blob, maxLinkTarget)
	if err != nil {
		return "", fatal(r.objectError(err, h, p))
	}
	if size > maxLinkTarget || len(data) > maxLinkTarget {
		if len(data) > maxLinkTarget {
			data = data[:maxLinkTarget]
		}
		return string(data) + "…", nil
	}
	return string(data), nil
}

func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}
