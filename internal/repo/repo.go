// Package repo finds the Git repository around a project and reads what the
// engine needs from it (R1, C1's index modes).
package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
	"github.com/rivumi/rivumi-lint/internal/rootpath"
)

// ErrNotGit says a directory is not inside a Git worktree (R1).
var ErrNotGit = errors.New("not inside a Git worktree")

// FindRoot returns the top level of the Git worktree that contains dir,
// found as git finds it (Locate): GIT_DIR and GIT_WORK_TREE first, else the
// nearest directory, from dir upwards, holding a .git directory or file. A
// bare repository, or dir inside a Git directory, is a *NoWorktreeError.
func FindRoot(dir string) (string, error) {
	loc, err := Locate(dir)
	if err != nil {
		return "", err
	}
	if loc.Top == "" {
		return "", &NoWorktreeError{Dir: dir, GitDir: loc.GitDir, Bare: loc.BareConfig}
	}
	return loc.Top, nil
}

// GitDir returns the Git directory of the worktree at root, as Locate
// finds it: root/.git, or the directory a .git file points to (linked
// worktrees, submodules); else the one GIT_DIR names, or whose
// core.worktree is root, when the environment or the working directory
// leads there; a bare repository's Git directory is root itself.
func GitDir(root string) (string, error) {
	env := os.Getenv("GIT_DIR") != "" || os.Getenv("GIT_WORK_TREE") != ""
	p := filepath.Join(root, ".git")
	fi, err := os.Lstat(p)
	if !env && err == nil {
		if fi.IsDir() {
			return p, nil
		}
		return readGitFile(p, fi)
	}
	starts := []string{root}
	if wd, err := rootpath.Getwd(); err == nil {
		starts = append(starts, wd) // git looks from the working directory
	}
	for _, s := range starts {
		loc, err := Locate(s)
		if err == nil && (sameDir(loc.Top, root) || loc.Top == "" && sameDir(loc.GitDir, root)) {
			return loc.GitDir, nil
		}
	}
	if err == nil {
		// The environment names another repository: root's own .git.
		if fi.IsDir() {
			return p, nil
		}
		return readGitFile(p, fi)
	}
	return "", fmt.Errorf("%s: %w", root, ErrNotGit)
}

// IndexScan is what a worktree check needs from the index, gathered in one
// streaming pass that holds no entry.
type IndexScan struct {
	// Kinds are the paths recorded as symbolic links or submodules.
	Kinds map[string]resolve.Kind
	// Unmerged are the paths the index holds in conflict stages (1–3): a
	// merge that is not finished, whose worktree file holds both sides
	// and the conflict markers (nil when there is none).
	Unmerged map[string]bool
	// Tracked tells every directory that has a tracked path below it ("" is
	// not one). A whole-worktree check descends into such a directory even
	// when an ignore pattern matches it: Git ignores only untracked files.
	// Nil (no directory) when the scan was asked without it (ScanIndexOf).
	Tracked *TrackedDirs
	// SkipIgnores are the stage-0 entries named .gitignore that the index
	// marks skip-worktree (a sparse checkout leaves them out): Git reads
	// such a file from its blob when the worktree lacks it (F4).
	SkipIgnores []IndexEntry
	// Note says the git binary read the index, when it did.
	Note string
}

// ScanIndexOf reads the index Git reads for the worktree in one streaming
// pass that allocates nothing per entry; a split or sparse index is read in
// full through Repo.Index's reader, and only an index with a required
// extension this package does not know goes to the git binary. Tracked is
// filled only when tracked is set: a check of a few PATHs walks no
// directory, and the map of a large monorepo's directories is costly.
func ScanIndexOf(root string, tracked bool) (*IndexScan, error) {
	return scanIndexOf(root, tracked, defaultOptions())
}

// scanIndexOf is ScanIndexOf with the options o: the scan's window, and
// those of the Repo that reads a split or sparse index in full.
func scanIndexOf(root string, tracked bool, o options) (*IndexScan, error) {
	gitDir, err := GitDir(root)
	if err != nil {
		return nil, err
	}
	// The index Git reads: GIT_INDEX_FILE when a hook of `git commit -a`
	// or `git commit PATH` names the index being committed (F2, F4: a path
	// tracked only there is not hidden by an ignore rule).
	name := IndexFile(root, gitDir)
	s, err := scanIndexFile(root, gitDir, name, tracked, o)
	if err != nil {
		return nil, err
	}
	// The checkout's own index counts too: it records how this checkout
	// holds a committed link (C1), and a hook's index need not (a
	// hand-made one may be empty). Both add, neither hides a file.
	if own := filepath.Join(gitDir, "index"); own != name {
		o, err := scanIndexFile(root, gitDir, own, tracked, o)
		if err != nil {
			return nil, err
		}
		s.add(o)
	}
	return s, nil
}

// add puts o's links, submodules and tracked directories into s.
func (s *IndexScan) add(o *IndexScan) {
	for p, k := range o.Kinds {
		if _, ok := s.Kinds[p]; !ok {
			s.Kinds[p] = k
		}
	}
	for p := range o.Unmerged {
		s.unmerged(p)
	}
	if s.Tracked != nil && o.Tracked != nil {
		s.Tracked.add(o.Tracked)
	}
	for _, e := range o.SkipIgnores {
		if !slices.ContainsFunc(s.SkipIgnores, func(x IndexEntry) bool { return x.Path == e.Path }) {
			s.SkipIgnores = append(s.SkipIgnores, e)
		}
	}
	if s.Note == "" {
		s.Note = o.Note
	}
}

// scanIndexFile scans the index file name. A missing file is an empty
// index, as for Git.
func scanIndexFile(root, gitDir, name string, tracked bool, o options) (*IndexScan, error) {
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return newIndexScan(tracked), nil
	}
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	s := newIndexScan(tracked)
	full, serr := scanIndex(f, fi.Size(), indexHashSize(gitDir), s, o.scanWindow)
	if serr == nil && !full {
		return s, nil
	}
	// A damaged index is an error (§10 fails closed: git ls-files prints
	// what it can of a truncated index and exits 0).
	var ue *unreadableIndexError
	if serr != nil && !errors.As(serr, &ue) {
		return nil, fmt.Errorf("%s: %w (git status refuses it too; rebuild it with `git reset` or `rm .git/index && git reset`)", name, serr)
	}
	// A split or sparse index needs the shared index or trees, and an
	// unknown extension the git binary: the full reader does both, with
	// the git environment of every other git process here (F3).
	r, err := Open(root)
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", name, err)
	}
	defer r.Close()
	r.opts = o
	ents, _, via, err := r.readIndex(name)
	if err != nil {
		return nil, err
	}
	s = newIndexScan(tracked)
	for _, e := range ents {
		switch e.Mode {
		case ModeSymlink:
			s.Kinds[e.Path] = resolve.Symlink
		case ModeGitlink:
			s.Kinds[e.Path] = resolve.Submodule
		}
		if e.Stage != 0 {
			s.unmerged(e.Path)
		}
		if s.Tracked != nil {
			s.Tracked.see([]byte(e.Path))
		}
		if e.SkipWorktree && e.Stage == 0 && isIgnoreFile([]byte(e.Path)) {
			s.SkipIgnores = append(s.SkipIgnores, e)
		}
	}
	if via != "" {
		why := "a layout this tool cannot decode"
		if serr != nil {
			why = serr.Error()
		}
		s.Note = fmt.Sprintf("could not read the index (%s); used the git binary instead", why)
	}
	return s, nil
}

// isIgnoreFile reports whether the index path p names a .gitignore.
func isIgnoreFile(p []byte) bool {
	return bytes.Equal(p, []byte(".gitignore")) || bytes.HasSuffix(p, []byte("/.gitignore"))
}

func (s *IndexScan) unmerged(p string) {
	if s.Unmerged == nil {
		s.Unmerged = map[string]bool{}
	}
	s.Unmerged[p] = true
}

func newIndexScan(tracked bool) *IndexScan {
	s := &IndexScan{Kinds: map[string]resolve.Kind{}}
	if tracked {
		s.Tracked = &TrackedDirs{}
	}
	return s
}

// TrackedDirs tells the directories that hold tracked paths. It keeps, in
// one buffer, each path at which the index enters a directory it was not
// in just before (not one above the last): the first path below any
// directory is one of them (the path before it lies outside that
// directory, so its directory is not below it), and when they come
// sorted, as Git writes the index, the first kept path from "dir/" on in
// byte order is below dir when any is (Has). A map of the 10,000 directories of a large monorepo cost the
// scan more than its decoding; a walk asks about a few ignored
// directories. An index that is not sorted (Git writes none) falls back
// to a map.
type TrackedDirs struct {
	arena []byte
	ends  []int32 // where each kept path ends in arena
	m     map[string]bool
	last  []byte // the directory of the last path seen
	have  bool
}

// see takes the next path of the index.
func (t *TrackedDirs) see(p []byte) {
	// Most paths lie in the directory of the path before them: "last/"
	// followed by a name without '/'.
	if n := len(t.last); t.have && len(p) > n+1 && p[n] == '/' && bytes.Equal(p[:n], t.last) &&
		bytes.IndexByte(p[n+1:], '/') < 0 {
		return
	}
	i := bytes.LastIndexByte(p, '/')
	if i <= 0 {
		return // a file of the top directory
	}
	// Back up into a directory above the last one: no directory is
	// entered for the first time (the first path below a directory never
	// comes from below it), nothing to keep.
	up := t.have && i <= len(t.last) && bytes.Equal(t.last[:i], p[:i]) && (i == len(t.last) || t.last[i] == '/')
	t.last, t.have = append(t.last[:0], p[:i]...), true
	if up {
		return
	}
	if t.m == nil {
		if k := len(t.ends); k == 0 || bytes.Compare(p, t.path(k-1)) > 0 {
			t.arena = append(t.arena, p...)
			t.ends = append(t.ends, int32(len(t.arena)))
			return
		}
		t.m = map[string]bool{}
		for k := range t.ends {
			t.mark(string(t.path(k)))
		}
	}
	t.mark(string(p))
}

// add puts o's directories into t (as a map: two indexes' paths are not
// one sorted sequence).
func (t *TrackedDirs) add(o *TrackedDirs) {
	if t.m == nil {
		t.m = map[string]bool{}
		for k := range t.ends {
			t.mark(string(t.path(k)))
		}
	}
	if o.m != nil {
		for d := range o.m {
			t.m[d] = true
		}
		return
	}
	for k := range o.ends {
		t.mark(string(o.path(k)))
	}
}

// mark puts the directories above path p in the map.
func (t *TrackedDirs) mark(p string) {
	for d := parentDir(p); d != "" && !t.m[d]; d = parentDir(d) {
		t.m[d] = true
	}
}

// path is the k-th kept path.
func (t *TrackedDirs) path(k int) []byte {
	start := int32(0)
	if k > 0 {
		start = t.ends[k-1]
	}
	return t.arena[start:t.ends[k]]
}

// Len is about the number of directories that hold tracked paths: the
// paths at which the index enters a directory (nil: 0). A walk sizes its
// maps with it.
func (t *TrackedDirs) Len() int {
	switch {
	case t == nil:
		return 0
	case t.m != nil:
		return len(t.m)
	}
	return len(t.ends)
}

// Has reports whether a tracked path lies below dir (a slash path
// relative to the worktree top; "" is not one). A nil TrackedDirs has
// none.
func (t *TrackedDirs) Has(dir string) bool {
	if t == nil || dir == "" {
		return false
	}
	if t.m != nil {
		return t.m[dir]
	}
	pfx := []byte(dir + "/")
	k := sort.Search(len(t.ends), func(k int) bool { return bytes.Compare(t.path(k), pfx) >= 0 })
	return k < len(t.ends) && bytes.HasPrefix(t.path(k), pfx)
}

// indexHashSize is the object id size of the repository whose Git
// directory is gitDir: 32 with extensions.objectFormat = sha256, else 20.
func indexHashSize(gitDir string) int {
	cfg, err := readGitConfig(filepath.Join(CommonDir(gitDir), "config"))
	if err != nil {
		return 20
	}
	if strings.EqualFold(strings.TrimSpace(cfg.Section("extensions").Options.Get("objectformat")), "sha256") {
		return 32
	}
	return 20
}

// scanIndex is the streaming reader behind ScanIndex, for index versions
// 2, 3 and 4 with ids of hashSize bytes. The file passes through one
// window of win bytes at first (scanWindow; memory does not grow with the
// index); only entries of mode 120000 and 160000 are kept, and, when
// s.Tracked is not nil, tracked directories are added as the sorted paths
// move from one directory to the next. full reports an index that the scan
// cannot answer alone (a split index, sparse directories): s is then
// incomplete.
func scanIndex(src io.Reader, size int64, hashSize int, s *IndexScan, win int) (full bool, err error) {
	w := &window{src: src, buf: make([]byte, win)}
	tail, err := decodeIndex(w, size, hashSize, false, func(count uint32) {
		if s.Tracked != nil && count > 64 {
			// Room for a path per ten entries (about one directory per
			// ten files in a source tree): reserved once, and the pages
			// never written cost nothing.
			s.Tracked.arena = make([]byte, 0, min(int(count)*8, 64<<20))
			s.Tracked.ends = make([]int32, 0, count/8)
		}
	}, func(v *indexEntryView) error {
		name := v.name
		if len(name) == 0 || v.mode == ModeTree {
			return nil // a split index's replacement, a sparse directory: see full
		}
		switch CanonMode(v.mode) {
		case ModeSymlink:
			s.Kinds[string(name)] = resolve.Symlink
		case ModeGitlink:
			s.Kinds[string(name)] = resolve.Submodule
		}
		if v.flags>>12&3 != 0 {
			s.unmerged(string(name))
		}
		if s.Tracked != nil {
			s.Tracked.see(name)
		}
		if v.ext&extSkipWorktree != 0 && v.flags>>12&3 == 0 && isIgnoreFile(name) {
			s.SkipIgnores = append(s.SkipIgnores, IndexEntry{Path: string(name), Mode: CanonMode(v.mode), Hash: HashOf(v.id), SkipWorktree: true})
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	return tail.link != nil || tail.dirs > 0, nil
}

// scanWindow is the window's initial size (options.scanWindow: tests
// shrink it to exercise refills and growth; the fuzz target passes its
// own). 64 KiB, not more: each page of the buffer is a page fault on first
// use, and those cost more than the extra read calls (docs/performance.md).
const scanWindow = 64 << 10

// window is a sliding window over a reader: peek(n) makes the next n bytes
// available in one slice, skip(n) consumes them.
type window struct {
	src  io.Reader
	buf  []byte
	r, w int
	off  int64 // bytes consumed
	eof  bool
}

// peek returns the unconsumed bytes, at least n of them.
func (w *window) peek(n int) ([]byte, error) {
	if w.w-w.r >= n {
		return w.buf[w.r:w.w], nil
	}
	if w.eof {
		// Nothing more will come; and a window over bytes it does not own
		// (parseIndex's mapped file) must never be compacted.
		return nil, io.ErrUnexpectedEOF
	}
	if w.r+n > len(w.buf) {
		copy(w.buf, w.buf[w.r:w.w])
		w.w -= w.r
		w.r = 0
		if n > len(w.buf) {
			nb := make([]byte, max(n, 2*len(w.buf)))
			copy(nb, w.buf[:w.w])
			w.buf = nb
		}
	}
	for w.w-w.r < n {
		if w.eof {
			return nil, io.ErrUnexpectedEOF
		}
		m, err := w.src.Read(w.buf[w.w:])
		w.w += m
		if err == io.EOF {
			w.eof = true
		} else if err != nil {
			return nil, err
		}
	}
	return w.buf[w.r:w.w], nil
}

// find returns the offset (from the unconsumed start) of the first NUL at
// or after from, with the bytes up to it.
func (w *window) find(from int) (int, []byte, error) {
	for {
		b, err := w.peek(from + 1)
		if err != nil {
			return 0, nil, err
		}
		if i := bytes.IndexByte(b[from:], 0); i >= 0 {
			return from + i, b, nil
		}
		from = len(b)
	}
}

func (w *window) skip(n int) {
	w.r += n
	w.off += int64(n)
}

func (w *window) discard(n int64) error {
	for n > 0 {
		k := min(n, int64(len(w.buf)))
		if _, err := w.peek(int(k)); err != nil {
			return err
		}
		w.skip(int(k))
		n -= k
	}
	return nil
}
