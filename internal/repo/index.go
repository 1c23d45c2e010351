package repo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/rivumi/rivumi-lint/internal/repo/internal/odb"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// IndexEntry is one path of the index.
type IndexEntry struct {
	Path  string
	Mode  uint32 // canonical (CanonMode)
	Hash  Hash
	Stage uint8 // 0, or 1-3 for an unmerged path
	// IntentToAdd marks `git add -N` entries: not part of the next commit.
	IntentToAdd bool
	// SkipWorktree marks entries outside a sparse checkout (and the files
	// of an expanded sparse directory); they are staged like any other.
	SkipWorktree bool
}

// Index is the staged content as a resolve.Source (R6): the paths and modes
// the index records, with blob content read from the object store, never
// from the worktree. A mode of 120000 is a symbolic link and 160000 a
// submodule (C1, C2), whatever the checkout holds.
//
// Entries added with `git add -N` are left out (they are not committed). A
// path with unresolved merge conflicts is listed once; reading it fails, so
// the engine rejects it (RL012) with the reason.
type Index struct {
	repo  *Repo
	ents  []IndexEntry    // one per path, sorted by path
	trees map[string]Hash // valid cache-tree entries by directory ("" = root)
	file  string          // the index file read, for messages
	via   string          // "" or how it was read, when not by this package
}

// IndexFile is the index file Git reads for the worktree top with Git
// directory gitDir: $GIT_INDEX_FILE (a relative value resolved at the top,
// F2) or gitDir/index.
func IndexFile(top, gitDir string) string {
	if name := indexFileEnv(top); name != "" {
		return name
	}
	return filepath.Join(gitDir, "index")
}

// IndexLockFile is the lock Git takes on the index of the worktree top
// with Git directory gitDir while it writes it (IndexFile + ".lock"): a
// command that is about to change the index looks for it first.
func IndexLockFile(top, gitDir string) string {
	return IndexFile(top, gitDir) + ".lock"
}

// Index reads the index: $GIT_INDEX_FILE when set (a pre-commit hook of
// `git commit -a` or `git commit PATH` names the index being committed
// there; a relative one is relative to the worktree top, F2), else the
// worktree's index. Split indexes (extension link), sparse indexes
// (sparse directory entries) and versions 2 to 4 are decoded here (F3);
// only an index with a required extension this package does not know is
// read with the git binary, and Notes says so.
//
// A missing index file is an empty index, as for Git, with one exception:
// when GIT_INDEX_FILE names a file that does not exist and HEAD has a
// commit. Git reads that as an empty index, in which every file of HEAD
// looks deleted; no hook of Git's makes that state, so it is a mistake in
// the environment, and checking it would be a silent pass (exit 2 instead).
func (r *Repo) Index() (*Index, error) {
	name := IndexFile(r.Root, r.GitDir)
	fromEnv := os.Getenv("GIT_INDEX_FILE") != ""
	x := &Index{repo: r, file: name}
	ents, trees, via, err := r.readIndex(name)
	if errors.Is(err, fs.ErrNotExist) {
		if !fromEnv {
			return x, nil
		}
		if _, born, herr := r.Head(); herr != nil || born {
			return nil, fmt.Errorf("GIT_INDEX_FILE names %s, which does not exist (%s is resolved against the worktree top %s, as Git does); "+
				"Git would read it as an empty index in which every file of HEAD is deleted. Fix: unset GIT_INDEX_FILE, or point it at an existing index file",
				name, os.Getenv("GIT_INDEX_FILE"), r.Root)
		}
		return x, nil // an unborn HEAD and no index: nothing is staged
	}
	if err != nil {
		return nil, err
	}
	x.ents = mergeStages(ents)
	x.trees = trees
	x.via = via
	return x, nil
}

// readIndex reads the index file name with every entry Git holds in
// memory after reading it (ls-files -s): all stages, intent-to-add
// entries, a split index merged with its shared index, sparse directories
// expanded to their files. via is "" or the fall-back used. A missing
// file is an error that wraps fs.ErrNotExist. With r.opts.indexFallback
// the git binary reads every index.
func (r *Repo) readIndex(name string) (ents []IndexEntry, trees map[string]Hash, via string, err error) {
	// Mapped, not read: no copy of a 10 MiB index, and the entries' paths
	// point into the mapping, which stays for the life of the process (Git
	// replaces an index by renaming a new file over it, never in place).
	data, err := odb.MapFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, "", fmt.Errorf("read index %s: %w", name, err)
	}
	if err != nil {
		return nil, nil, "", fmt.Errorf("read index: %w", err)
	}
	var tail *indexTail
	perr := error(&unreadableIndexError{what: "a layout that tests send to the git binary", fix: "unset the test switch"})
	if !r.opts.indexFallback {
		ents, tail, perr = parseIndex(data, r.hashSize)
	}
	if perr != nil {
		var ue *unreadableIndexError
		if !errors.As(perr, &ue) {
			return nil, nil, "", fmt.Errorf("read index %s: %w (Git refuses it too; rebuild it with `rm %s && git reset`)", name, perr, name)
		}
		if !HaveGit() {
			return nil, nil, "", fmt.Errorf("read index %s: %v; the git binary would read it instead, but it is not installed: install git, or %s", name, perr, ue.fix)
		}
		ents, err = r.lsFilesIndex(name)
		if err != nil {
			return nil, nil, "", fmt.Errorf("read index %s (%v) with git ls-files: %w", name, perr, err)
		}
		if !r.opts.indexFallback {
			r.notes = append(r.notes, Info("the index uses %s, which this tool cannot decode; read it with the git binary (git ls-files --stage) instead", ue.what))
		}
		return ents, nil, "git ls-files", nil
	}
	if tail.link != nil {
		if ents, err = r.mergeSharedIndex(name, ents, tail.link); err != nil {
			return nil, nil, "", err
		}
	}
	if tail.dirs > 0 {
		if ents, err = r.expandSparse(ents); err != nil {
			return nil, nil, "", fmt.Errorf("read index %s: expand its sparse directories: %w", name, err)
		}
	}
	return ents, tail.trees, "", nil
}

// mergeSharedIndex applies a split index to the shared index it names
// (Git's merge_base_index): the shared entries, minus those the delete
// bitmap marks, with those the replace bitmap marks taking the data (not
// the path) of the split index's first, nameless entries in order; the
// split index's named entries are then added, replacing the entry of the
// same path and stage (a stage 0 entry replaces every stage of its path).
func (r *Repo) mergeSharedIndex(name string, split []IndexEntry, link *splitLink) ([]IndexEntry, error) {
	if link.shared.IsZero() {
		return split, nil // a split index without a shared index yet
	}
	// Git looks in the Git directory, then beside the index file (an index
	// elsewhere, GIT_INDEX_FILE, may have its shared index with it).
	shared := filepath.Join(r.GitDir, "sharedindex."+link.shared.String())
	data, err := odb.MapFile(shared)
	if errors.Is(err, fs.ErrNotExist) {
		alt := filepath.Join(filepath.Dir(name), "sharedindex."+link.shared.String())
		if data, err = odb.MapFile(alt); err == nil {
			shared = alt
		}
	}
	if err != nil {
		return nil, fmt.Errorf("read index %s: it is a split index, and its shared index %s cannot be read (%w); Git cannot read it either: rebuild the index with `rm %s && git reset`", name, shared, err, name)
	}
	base, btail, err := parseIndex(data, r.hashSize)
	if err != nil {
		return nil, fmt.Errorf("read shared index %s of %s: %w", shared, name, err)
	}
	if btail.link != nil || btail.checksum != link.shared {
		return nil, fmt.Errorf("read index %s: the shared index %s is not the one it names (checksum %s); rebuild the index with `rm %s && git reset`", name, shared, btail.checksum, name)
	}
	out, err := applySplit(base, split, link)
	if err != nil {
		return nil, fmt.Errorf("read index %s (split index over %s): %w", name, shared, err)
	}
	return out, nil
}

// applySplit is mergeSharedIndex's merge, on decoded entries.
func applySplit(base, split []IndexEntry, link *splitLink) ([]IndexEntry, error) {
	ents := make([]IndexEntry, len(base))
	copy(ents, base)
	nrepl := 0
	err := ewahEach(link.replace, func(pos uint64) error {
		if pos >= uint64(len(ents)) {
			return fmt.Errorf("corrupt link extension: replacement at %d beyond the %d shared entries", pos, len(ents))
		}
		if nrepl >= len(split) || split[nrepl].Path != "" {
			return errors.New("corrupt link extension: more replacements than nameless entries")
		}
		e := split[nrepl]
		e.Path = ents[pos].Path
		ents[pos] = e
		nrepl++
		return nil
	})
	if err != nil {
		return nil, err
	}
	deleted := make([]bool, len(ents))
	err = ewahEach(link.delete, func(pos uint64) error {
		if pos >= uint64(len(ents)) {
			return fmt.Errorf("corrupt link extension: deletion at %d beyond the %d shared entries", pos, len(ents))
		}
		deleted[pos] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	type key struct {
		path  string
		stage uint8
	}
	added := map[key]int{}
	stage0 := map[string]bool{}
	for i, e := range split[nrepl:] {
		if e.Path == "" {
			return nil, fmt.Errorf("corrupt link extension: entry %d has no path", nrepl+i)
		}
		added[key{e.Path, e.Stage}] = nrepl + i // a later duplicate wins, as in Git
		if e.Stage == 0 {
			stage0[e.Path] = true
		}
	}
	out := make([]IndexEntry, 0, len(ents)+len(added))
	for i, e := range ents {
		if deleted[i] || stage0[e.Path] {
			continue
		}
		if _, ok := added[key{e.Path, e.Stage}]; ok {
			continue
		}
		out = append(out, e)
	}
	for i, e := range split[nrepl:] {
		if added[key{e.Path, e.Stage}] == nrepl+i {
			out = append(out, e)
		}
	}
	sortIndex(out)
	return out, nil
}

// expandSparse replaces each sparse directory entry of a sparse index (a
// directory outside the sparse-checkout cone, recorded by its tree id)
// with the files of that tree, as Git's ensure_full_index does before
// `git ls-files` or `git diff --cached` reads them: stage 0 and
// skip-worktree.
func (r *Repo) expandSparse(ents []IndexEntry) ([]IndexEntry, error) {
	out := make([]IndexEntry, 0, len(ents))
	for _, e := range ents {
		if e.Mode != ModeTree {
			out = append(out, e)
			continue
		}
		if e.Stage != 0 {
			return nil, fmt.Errorf("corrupt index: the sparse directory %s has stage %d", e.Path, e.Stage)
		}
		err := r.walkTree(strings.TrimSuffix(e.Path, "/"), e.Hash, 0, func(p string, te TreeEntry) {
			out = append(out, IndexEntry{Path: p, Mode: te.Mode, Hash: te.Hash, SkipWorktree: true})
		})
		if err != nil {
			return nil, err
		}
	}
	// Git sorts "a/" where its files go, but the files of a tree come in
	// tree order, which is not the index's byte order ("a.b" vs "a/").
	sortIndex(out)
	return out, nil
}

// sortIndex puts entries in the index's order, by path then stage, when
// they are not.
func sortIndex(ents []IndexEntry) {
	less := func(a, b *IndexEntry) bool {
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Stage < b.Stage
	}
	for i := 1; i < len(ents); i++ {
		if less(&ents[i], &ents[i-1]) {
			sort.SliceStable(ents, func(i, j int) bool { return less(&ents[i], &ents[j]) })
			return
		}
	}
}

// walkTree calls fn for every non-tree entry below tree h, which is the
// directory dir, depth first.
func (r *Repo) walkTree(dir string, h Hash, depth int, fn func(p string, e TreeEntry)) error {
	if depth > 4096 {
		return fmt.Errorf("tree %s (%s/) is nested more than 4096 deep", h.Short(), dir)
	}
	ents, err := r.treeEntries(h, dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		p := join(dir, e.Name)
		if e.IsTree() {
			if err := r.walkTree(p, e.Hash, depth+1, fn); err != nil {
				return err
			}
			continue
		}
		fn(p, e)
	}
	return nil
}

// mergeStages drops intent-to-add entries and keeps one entry per path:
// stage 0, or for an unmerged path "ours" (stage 2), else theirs, else the
// base, marked with its stage.
func mergeStages(ents []IndexEntry) []IndexEntry {
	out := ents[:0] // in place: an entry is written at or before where it was read
	// Git writes the index sorted by path; sort only one that is not.
	for i := 1; i < len(ents); i++ {
		if ents[i].Path < ents[i-1].Path {
			sort.SliceStable(ents, func(i, j int) bool { return ents[i].Path < ents[j].Path })
			break
		}
	}
	for i := 0; i < len(ents); {
		j := i
		best := -1
		for ; j < len(ents) && ents[j].Path == ents[i].Path; j++ {
			e := ents[j]
			if e.IntentToAdd {
				continue
			}
			if best < 0 || stageRank(e.Stage) < stageRank(ents[best].Stage) {
				best = j
			}
		}
		if best >= 0 {
			e := ents[best]
			if e.Stage == 0 && j-i > 1 {
				e.Stage = 2 // a stage-0 entry beside conflict stages: treat as unmerged
			}
			out = append(out, e)
		}
		i = j
	}
	return out
}

func stageRank(s uint8) int {
	switch s {
	case 0:
		return 0
	case 2:
		return 1
	case 3:
		return 2
	}
	return 3
}

// Entries returns the index's paths, sorted, one per path.
func (x *Index) Entries() []IndexEntry { return x.ents }

// Via says how the index was read: "" by this package, or "git ls-files".
func (x *Index) Via() string { return x.via }

func (x *Index) Name() string { return "index" }

// fatal marks err, a missing or corrupt object, as one that stops the run
// (F6).
func (x *Index) fatal(err error) error { return resolve.Fatal(err) }

// find returns the position of path p, or -1.
func (x *Index) find(p string) int {
	i := sort.Search(len(x.ents), func(i int) bool { return x.ents[i].Path >= p })
	if i < len(x.ents) && x.ents[i].Path == p {
		return i
	}
	return -1
}

// span returns the range of entries below directory dir ("" = all).
func (x *Index) span(dir string) (lo, hi int) {
	if dir == "" {
		return 0, len(x.ents)
	}
	pfx := dir + "/"
	lo = sort.Search(len(x.ents), func(i int) bool { return x.ents[i].Path >= pfx })
	end := dir + "0" // '0' follows '/'
	hi = lo + sort.Search(len(x.ents)-lo, func(i int) bool { return x.ents[lo+i].Path >= end })
	return lo, hi
}

// checkDir returns nil when dir is a directory of the index, fs.ErrNotExist
// when it is not, or *resolve.LinkedDirError when a component is a link.
func (x *Index) checkDir(dir string) error {
	if dir == "" {
		return nil
	}
	walked := ""
	for _, c := range strings.Split(dir, "/") {
		walked = path.Join(walked, c)
		if i := x.find(walked); i >= 0 {
			if x.ents[i].Mode == ModeSymlink {
				return &resolve.LinkedDirError{Dir: walked}
			}
			return fs.ErrNotExist
		}
	}
	if lo, hi := x.span(dir); lo == hi {
		return fs.ErrNotExist
	}
	return nil
}

// List implements resolve.Source.
func (x *Index) List(dir string) ([]resolve.Entry, error) {
	if err := x.checkDir(dir); err != nil {
		return nil, err
	}
	lo, hi := x.span(dir)
	pfx := ""
	if dir != "" {
		pfx = dir + "/"
	}
	var out []resolve.Entry
	for k := lo; k < hi; {
		rest := x.ents[k].Path[len(pfx):]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			sub := rest[:i]
			out = append(out, resolve.Entry{Name: sub, Kind: resolve.Dir, Size: -1})
			_, end := x.span(pfx + sub)
			k = end
			continue
		}
		kind, note := KindOfMode(x.ents[k].Mode)
		out = append(out, resolve.Entry{Name: rest, Kind: kind, Size: -1, Note: note})
		k++
	}
	return out, nil
}

// Lstat implements resolve.Source, as Tree.Lstat does: links on the way to
// p are followed by their staged target text, the last component is not.
func (x *Index) Lstat(p string) (resolve.Entry, error) {
	var terr error
	mode, ok, err := lstatPath(p, x.lookup, targetOf(x.LinkTarget, &terr))
	if err == nil {
		err = terr
	}
	if err != nil || !ok {
		return resolve.Entry{Name: path.Base(p), Kind: resolve.Missing, Size: -1}, err
	}
	kind, note := KindOfMode(mode)
	return resolve.Entry{Name: path.Base(p), Kind: kind, Size: -1, Note: note}, nil
}

// lookup returns the mode of the entry at p: a file's, or ModeTree for a
// directory of the index.
func (x *Index) lookup(p string) (uint32, bool, error) {
	if p == "" {
		return ModeTree, true, nil
	}
	if i := x.find(p); i >= 0 {
		return x.ents[i].Mode, true, nil
	}
	if lo, hi := x.span(p); lo < hi {
		return ModeTree, true, nil
	}
	return 0, false, nil
}

// Read implements resolve.Source: the staged blob, never the worktree file.
func (x *Index) Read(p string, limit int64) ([]byte, resolve.Kind, int64, error) {
	if x.checkDir(parentDir(p)) != nil {
		return nil, resolve.Missing, -1, fs.ErrNotExist
	}
	i := x.find(p)
	if i < 0 {
		return nil, resolve.Missing, -1, fs.ErrNotExist
	}
	e := x.ents[i]
	if e.Stage != 0 {
		k, _ := KindOfMode(e.Mode)
		return nil, k, -1, &resolve.RejectError{Rej: resolve.Unmerged(true)}
	}
	return x.repo.readBlobEntry(e.Mode, e.Hash, p, limit, x.fatal)
}

// ReadEntry reads the blob of the index entry e as Read does (at most
// limit+1 bytes; a missing or corrupt object is fatal, F6): for entries
// an IndexScan kept (SkipIgnores).
func (r *Repo) ReadEntry(e IndexEntry, limit int64) ([]byte, resolve.Kind, int64, error) {
	return r.readBlobEntry(e.Mode, e.Hash, e.Path, limit, resolve.Fatal)
}

// LinkTarget implements resolve.Source: the text of the staged symlink blob.
func (x *Index) LinkTarget(p string) (string, error) {
	i := x.find(p)
	if i < 0 || x.ents[i].Mode != ModeSymlink || x.ents[i].Stage != 0 {
		return "", nil
	}
	return x.repo.linkTarget(x.ents[i].Hash, p, x.fatal)
}

// DirsBelow returns dir and every directory below it in the index, sorted;
// a link to a directory is listed itself (see Tree.DirsBelow). A dir that
// is not a directory of the index gives none.
func (x *Index) DirsBelow(dir string) ([]string, error) {
	if x.checkDir(dir) != nil {
		return nil, nil
	}
	lo, hi := x.span(dir)
	set := map[string]bool{dir: true}
	for k := lo; k < hi; k++ {
		p := x.ents[k].Path
		if x.ents[k].Mode == ModeSymlink {
			ok, err := x.DirLink(p)
			if err != nil {
				return nil, err
			}
			if ok {
				set[p] = true // listed, never descended into (C1)
			}
		}
		for d := parentDir(p); len(d) > len(dir) && !set[d]; d = parentDir(d) {
			set[d] = true
		}
	}
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	sort.Strings(out)
	return out, nil
}

// Prefetch is Tree.Prefetch for the staged content.
func (x *Index) Prefetch(dirs, names []string, limit int64) {
	var hs []Hash
	for _, d := range resolve.WithAncestors(dirs) {
		if x.checkDir(d) != nil {
			continue
		}
		pfx := ""
		if d != "" {
			pfx = d + "/"
		}
		for _, n := range names {
			if i := x.find(pfx + n); i >= 0 {
				if e := x.ents[i]; e.Stage == 0 && (e.Mode == ModeRegular || e.Mode == ModeExecutable) {
					hs = append(hs, e.Hash)
				}
				break
			}
			if lo, hi := x.span(pfx + n); lo < hi {
				break // a directory of that name is the layer
			}
		}
	}
	x.repo.prefetchBlobs(hs, limit)
}

// CandidateDirsBelow returns, sorted, the directories at or below dir
// that have an entry (file or directory) called like one of names, and
// the staged links to directories of the index: see
// Tree.CandidateDirsBelow. A dir that is not a directory of the index
// gives none.
func (x *Index) CandidateDirsBelow(dir string, names []string) ([]string, error) {
	if x.checkDir(dir) != nil {
		return nil, nil
	}
	lo, hi := x.span(dir)
	set := map[string]bool{}
	prevDir := "\x00"
	for k := lo; k < hi; k++ {
		p := x.ents[k].Path
		if x.ents[k].Mode == ModeSymlink {
			ok, err := x.DirLink(p)
			if err != nil {
				return nil, err
			}
			if ok {
				set[p] = true
			}
		}
		d := parentDir(p)
		if d == prevDir {
			if isName(p[len(p)-len(path.Base(p)):], names) {
				set[d] = true
			}
			continue
		}
		prevDir = d
		// A new directory: every component below dir may be named like a
		// candidate (a directory called AGENTS.md is its parent's layer).
		rest := p
		base := ""
		if dir != "" {
			rest, base = p[len(dir)+1:], dir
		}
		for {
			i := strings.IndexByte(rest, '/')
			c := rest
			if i >= 0 {
				c = rest[:i]
			}
			if isName(c, names) {
				set[base] = true
			}
			if i < 0 {
				break
			}
			base, rest = join(base, c), rest[i+1:]
		}
	}
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	sort.Strings(out)
	return out, nil
}

func isName(s string, names []string) bool {
	for _, n := range names {
		if s == n {
			return true
		}
	}
	return false
}

// DirLink reports whether p is a staged symbolic link that leads to a
// directory of the index (see Tree.DirLink).
func (x *Index) DirLink(p string) (bool, error) {
	return dirLink(p, x.lookup, x.LinkTarget)
}

// unreadableIndexError says the index uses a format feature this package
// does not decode; the git binary can read it.
type unreadableIndexError struct {
	what string // e.g. "the required extension \"abcd\""
	fix  string
}

func (e *unreadableIndexError) Error() string { return "the index uses " + e.what }

// Index entry flags (Git's read-cache.c; the extended flags follow the
// flags in versions 3 and 4 when flagExtended is set).
const (
	flagExtended    = 0x4000
	extSkipWorktree = 0x4000
	extIntentToAdd  = 0x2000
	extKnown        = extSkipWorktree | extIntentToAdd
)

// indexEntryView is one entry as decodeIndex meets it. name is valid only
// during the callback (version 4 rebuilds names in one buffer, and a
// streaming window moves), unless inData: then it points into the bytes
// being decoded, which never change.
type indexEntryView struct {
	name    []byte
	nameOff int64  // where name starts in the file (versions 2 and 3)
	mode    uint32 // as recorded
	id      []byte
	flags   uint16
	ext     uint16
	inData  bool
}

// indexTail is what an index holds besides its entries.
type indexTail struct {
	trees    map[string]Hash // valid cache-tree directories (when asked for)
	link     *splitLink      // a split index: the shared index it applies to
	dirs     int             // sparse directory entries (mode 040000)
	checksum Hash            // the trailing checksum (a shared index's name)
}

// splitLink is the link extension of a split index.
type splitLink struct {
	shared          Hash   // the shared index's checksum; zero: none
	delete, replace []byte // EWAH bitmaps over the shared index's entries
}

// parseIndex decodes an index file (versions 2, 3 and 4; SHA-1 or SHA-256
// ids) into its entries, in file order, and what follows them. A split
// index's replaced entries have no path (see mergeSharedIndex); a sparse
// directory is an entry of mode ModeTree whose path ends in "/" (see
// expandSparse). The cache-tree is what lets the comparison with HEAD
// skip every directory whose staged tree is HEAD's.
func parseIndex(data []byte, hashSize int) ([]IndexEntry, *indexTail, error) {
	// The window holds all of data from the start, so it never moves and
	// the paths of versions 2 and 3 are substrings of one string over data:
	// no allocation per entry.
	w := &window{buf: data, w: len(data), eof: true}
	str := unsafe.String(unsafe.SliceData(data), len(data))
	var ents []IndexEntry
	tail, err := decodeIndex(w, int64(len(data)), hashSize, true, func(count uint32) {
		ents = make([]IndexEntry, 0, count)
	}, func(v *indexEntryView) error {
		var name string
		if v.inData {
			name = str[v.nameOff : v.nameOff+int64(len(v.name))]
		} else {
			name = string(v.name)
		}
		ents = append(ents, IndexEntry{Path: name, Mode: CanonMode(v.mode), Hash: HashOf(v.id),
			Stage: uint8(v.flags>>12) & 3, IntentToAdd: v.ext&extIntentToAdd != 0, SkipWorktree: v.ext&extSkipWorktree != 0})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return ents, tail, nil
}

// decodeIndex is the one decoder of index files, for the full read
// (parseIndex) and the worktree check's streaming scan (scanIndex): it
// reads size bytes through w, calls start with the entry count and each
// for every entry, and returns what follows the entries; the cache-tree
// only when trees is set. Both readers therefore accept the same files
// and see the same entries.
func decodeIndex(w *window, size int64, hashSize int, trees bool, start func(count uint32), each func(*indexEntryView) error) (*indexTail, error) {
	if size < int64(12+hashSize) {
		return nil, errors.New("not an index file (no DIRC header)")
	}
	hdr, err := w.peek(12)
	if err != nil || string(hdr[:4]) != "DIRC" {
		return nil, errors.New("not an index file (no DIRC header)")
	}
	version := binary.BigEndian.Uint32(hdr[4:8])
	if version < 2 || version > 4 {
		return nil, &unreadableIndexError{what: fmt.Sprintf("index version %d", version), fix: "rewrite it with `git update-index --index-version 4`"}
	}
	count := binary.BigEndian.Uint32(hdr[8:12])
	body := size - int64(hashSize) // the entries and extensions end here
	if uint64(count) > uint64(body)/uint64(40+hashSize+2) {
		return nil, fmt.Errorf("corrupt index: %d entries cannot fit in %d bytes", count, size)
	}
	w.skip(12)
	start(count)
	inData := w.src == nil && version < 4
	tail := &indexTail{}
	fixed := 40 + hashSize + 2
	var prev []byte
	nameless := 0
	truncated := errors.New("corrupt index: truncated entry")
	v := &indexEntryView{inData: inData}
	// Every peek returns all the bytes the window holds from the entry's
	// start, so a peek is needed only where those fall short: most entries
	// of a 64 KiB window take none.
	for n := uint32(0); n < count; n++ {
		e := w.buf[w.r:w.w]
		if len(e) < fixed {
			if e, err = w.peek(fixed); err != nil {
				return nil, truncated
			}
		}
		v.mode = binary.BigEndian.Uint32(e[24:28])
		v.flags = binary.BigEndian.Uint16(e[40+hashSize : fixed])
		head := fixed
		v.ext = 0
		if v.flags&flagExtended != 0 {
			if version < 3 {
				return nil, errors.New("corrupt index: extended flags in a version 2 index")
			}
			if len(e) < fixed+2 {
				if e, err = w.peek(fixed + 2); err != nil {
					return nil, truncated
				}
			}
			v.ext = binary.BigEndian.Uint16(e[fixed : fixed+2])
			if v.ext&^extKnown != 0 {
				return nil, fmt.Errorf("corrupt index: unknown extended flags %#04x (Git refuses them too)", v.ext)
			}
			head += 2
		}
		var entryLen, nul int
		if version == 4 {
			m := 0
			for {
				if e, err = w.peek(head + m + 1); err != nil {
					return nil, errors.New("corrupt index: bad path compression")
				}
				m++
				if e[head+m-1]&0x80 == 0 {
					break
				}
				if m > 9 {
					return nil, errors.New("corrupt index: bad path compression")
				}
			}
			strip, vm := varint(e[head : head+m])
			if vm != m || strip > uint64(len(prev)) {
				return nil, errors.New("corrupt index: bad path compression")
			}
			if nul, e, err = w.find(head + m); err != nil {
				return nil, errors.New("corrupt index: unterminated path")
			}
			prev = append(prev[:len(prev)-int(strip)], e[head+m:nul]...)
			v.name = prev
			entryLen = nul + 1
		} else {
			// The flags hold the path's length below 0xFFF, as Git reads
			// it; the NUL after it, and none before, confirms it, so a
			// corrupt length takes the NUL search and its errors.
			nul = -1
			if l := int(v.flags & 0xfff); l < 0xfff {
				var perr error
				if len(e) < head+l+1 {
					e, perr = w.peek(head + l + 1)
				}
				if perr == nil && e[head+l] == 0 && bytes.IndexByte(e[head:head+l], 0) < 0 {
					nul = head + l
				}
			}
			if nul < 0 {
				if nul, e, err = w.find(head); err != nil {
					return nil, errors.New("corrupt index: unterminated path")
				}
			}
			// Entries are padded with 1-8 NULs to a multiple of 8 bytes.
			entryLen = (nul + 8) &^ 7
		}
		// The last peek may move the window: slice the entry only after it.
		if len(e) < entryLen {
			if e, err = w.peek(entryLen); err != nil {
				return nil, truncated
			}
		}
		if version != 4 {
			v.name = e[head:nul]
			v.nameOff = w.off + int64(head)
		}
		v.id = e[40 : 40+hashSize]
		if w.off+int64(entryLen) > body {
			return nil, truncated
		}
		name := v.name
		switch {
		case len(name) == 0:
			// A split index stores replaced entries without a path (the
			// shared index has it); mergeSharedIndex checks them.
			nameless++
		case name[0] == '/':
			return nil, fmt.Errorf("corrupt index: bad path %q", name)
		case v.mode == ModeTree:
			// A sparse directory: its tree stands for the files below it.
			if name[len(name)-1] != '/' {
				return nil, fmt.Errorf("corrupt index: directory entry %q", name)
			}
			tail.dirs++
		case name[len(name)-1] == '/':
			return nil, fmt.Errorf("corrupt index: bad path %q", name)
		}
		if err := each(v); err != nil {
			return nil, err
		}
		w.skip(entryLen)
	}
	for w.off < body {
		eh, err := w.peek(8)
		if err != nil || w.off+8 > body {
			return nil, errors.New("corrupt index: truncated extension")
		}
		sig := string(eh[:4])
		n := int64(binary.BigEndian.Uint32(eh[4:8]))
		w.skip(8)
		if n > body-w.off {
			return nil, fmt.Errorf("corrupt index: extension %q overruns the file", sig)
		}
		switch {
		case sig == "TREE" && trees:
			b, err := w.peek(int(n))
			if err != nil {
				return nil, errors.New("corrupt index: truncated extension")
			}
			if tail.trees, err = parseCacheTree(b[:n], hashSize); err != nil {
				return nil, err
			}
			w.skip(int(n))
			continue
		case sig == "link":
			b, err := w.peek(int(n))
			if err != nil {
				return nil, errors.New("corrupt index: truncated extension")
			}
			if tail.link, err = parseLink(b[:n], hashSize); err != nil {
				return nil, err
			}
			w.skip(int(n))
			continue
		case sig == "sdir":
			// A sparse index: the directory entries above say where.
		case sig[0] < 'A' || sig[0] > 'Z':
			return nil, &unreadableIndexError{what: fmt.Sprintf("the required extension %q", sig), fix: "rewrite the index with a Git that does not use it"}
		}
		// Other extensions (REUC, UNTR, FSMN, EOIE, IEOT…) are optional.
		if err := w.discard(n); err != nil {
			return nil, errors.New("corrupt index: truncated extension")
		}
	}
	if w.off != body {
		return nil, errors.New("corrupt index: bad length")
	}
	if nameless > 0 && (tail.link == nil || tail.link.shared.IsZero()) {
		return nil, errors.New("corrupt index: an entry without a path outside a split index")
	}
	if sum, err := w.peek(hashSize); err == nil {
		tail.checksum = HashOf(sum[:hashSize])
	} else {
		return nil, errors.New("corrupt index: truncated checksum")
	}
	return tail, nil
}

// parseLink decodes the link extension: the shared index's id, then the
// delete and the replace bitmaps (both absent in a split index that has
// no shared index yet).
func parseLink(b []byte, hashSize int) (*splitLink, error) {
	if len(b) < hashSize {
		return nil, errors.New("corrupt index: link extension too short")
	}
	l := &splitLink{}
	if id := b[:hashSize]; !bytes.Equal(id, make([]byte, hashSize)) {
		l.shared = HashOf(id)
	}
	b = b[hashSize:]
	if len(b) == 0 {
		return l, nil
	}
	n, err := ewahLen(b)
	if err != nil {
		return nil, fmt.Errorf("corrupt index: delete bitmap of the link extension: %w", err)
	}
	l.delete, b = b[:n], b[n:]
	if n, err = ewahLen(b); err != nil {
		return nil, fmt.Errorf("corrupt index: replace bitmap of the link extension: %w", err)
	}
	if n != len(b) {
		return nil, errors.New("corrupt index: garbage at the end of the link extension")
	}
	l.replace = b
	return l, nil
}

// ewahLen returns the length of the EWAH bitmap at the start of b (Git's
// ewah_read_mmap): bit count, word count, the 64-bit words, the position
// of the last run-length word; all big-endian.
func ewahLen(b []byte) (int, error) {
	if len(b) < 8 {
		return 0, errors.New("truncated")
	}
	words := uint64(binary.BigEndian.Uint32(b[4:8]))
	n := 8 + 8*words + 4
	if n > uint64(len(b)) {
		return 0, errors.New("truncated")
	}
	return int(n), nil
}

// ewahEach calls fn with the position of every set bit of an EWAH bitmap,
// in increasing order (Git's ewah_each_bit). Words alternate: a run-length
// word (bit 0: the run's bit; bits 1-32: the run's length in 64-bit
// words; bits 33-63: how many literal words follow), then its literal
// words. fn rejects a position beyond what it indexes, which bounds the
// work a corrupt run can cause.
func ewahEach(b []byte, fn func(pos uint64) error) error {
	if len(b) == 0 {
		return nil
	}
	words := b[8 : len(b)-4]
	var pos uint64
	for i := 0; i+8 <= len(words); {
		rlw := binary.BigEndian.Uint64(words[i:])
		i += 8
		run := (rlw >> 1) & (1<<32 - 1) * 64
		if rlw&1 != 0 {
			for k := uint64(0); k < run; k++ {
				if err := fn(pos); err != nil {
					return err
				}
				pos++
			}
		} else {
			pos += run
		}
		lits := rlw >> 33
		for k := uint64(0); k < lits; k++ {
			if i+8 > len(words) {
				return errors.New("corrupt EWAH bitmap: literal words beyond its end")
			}
			lw := binary.BigEndian.Uint64(words[i:])
			i += 8
			for c := uint64(0); c < 64; c++ {
				if lw>>c&1 != 0 {
					if err := fn(pos + c); err != nil {
						return err
					}
				}
			}
			pos += 64
		}
	}
	return nil
}

// parseCacheTree decodes the TREE extension: nodes in pre-order, each
// "NAME NUL COUNT SP SUBTREES LF [ID]", an invalid node (COUNT -1) without
// ID. It returns the ids of the valid directories by full path.
func parseCacheTree(b []byte, hashSize int) (map[string]Hash, error) {
	out := map[string]Hash{}
	bad := errors.New("corrupt index: bad cache-tree extension")
	var node func(prefix string, depth int) error
	node = func(prefix string, depth int) error {
		if depth > 4096 {
			return bad
		}
		nul := bytes.IndexByte(b, 0)
		if nul < 0 {
			return bad
		}
		name := string(b[:nul])
		b = b[nul+1:]
		sp := bytes.IndexByte(b, ' ')
		if sp < 0 {
			return bad
		}
		count, err := strconv.Atoi(string(b[:sp]))
		if err != nil {
			return bad
		}
		b = b[sp+1:]
		lf := bytes.IndexByte(b, '\n')
		if lf < 0 {
			return bad
		}
		subs, err := strconv.Atoi(string(b[:lf]))
		if err != nil || subs < 0 || subs > len(b) {
			return bad
		}
		b = b[lf+1:]
		full := name
		if prefix != "" {
			full = prefix + "/" + name
		}
		if count >= 0 {
			if len(b) < hashSize {
				return bad
			}
			out[full] = HashOf(b[:hashSize])
			b = b[hashSize:]
		}
		for i := 0; i < subs; i++ {
			if err := node(full, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if len(b) == 0 {
		return out, nil
	}
	if err := node("", 0); err != nil {
		return nil, err
	}
	return out, nil
}

// varint decodes the offset encoding of index version 4.
func varint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	val := uint64(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || i > 9 {
			return 0, 0
		}
		val++
		c = b[i]
		val = val<<7 + uint64(c&127)
		i++
	}
	return val, i
}
