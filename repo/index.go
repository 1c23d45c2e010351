package repo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/rivumi/rivumi-lint/resolve"
)

// IndexEntry is one path of the index.
type IndexEntry struct {
	Path  string
	Mode  uint32 // canonical (CanonMode)
	Hash  Hash
	Stage uint8 // 0, or 1-3 for an unmerged path
	// IntentToAdd marks `git add -N` entries: not part of the next commit.
	IntentToAdd bool
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

// Index reads the index: $GIT_INDEX_FILE when set (a pre-commit hook of
// `git commit -a` or `git commit PATH` names the index being committed
// there), else the worktree's index. A missing index file is an empty
// index. An index this package cannot decode (split index, sparse index,
// an unknown required extension) is read with `git ls-files --stage -z`
// instead, and Notes says so.
func (r *Repo) Index() (*Index, error) {
	name := indexFileEnv()
	if name == "" {
		name = filepath.Join(r.GitDir, "index")
	}
	x := &Index{repo: r, file: name}
	// Mapped, not read: no copy of a 10 MiB index, and the entries' paths
	// point into the mapping, which stays for the life of the process (Git
	// replaces an index by renaming a new file over it, never in place).
	data, err := mapFile(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return x, nil
	case err != nil:
		return nil, fmt.Errorf("read index: %w", err)
	}
	ents, trees, perr := parseIndex(data, r.hashSize)
	if perr != nil {
		var ue *unreadableIndexError
		if !errors.As(perr, &ue) {
			return nil, fmt.Errorf("read index %s: %w", name, perr)
		}
		if _, lerr := exec.LookPath("git"); lerr != nil {
			return nil, fmt.Errorf("read index %s: %v; the git binary would read it instead, but it is not installed: install git, or %s", name, perr, ue.fix)
		}
		ents, err = r.lsFilesIndex()
		if err != nil {
			return nil, fmt.Errorf("read index %s (%v) with git ls-files: %w", name, perr, err)
		}
		trees = nil
		x.via = "git ls-files"
		r.notes = append(r.notes, fmt.Sprintf("the index uses %s, which go-git cannot decode; read it with the git binary (git ls-files --stage) instead", ue.what))
	}
	x.ents = mergeStages(ents)
	x.trees = trees
	return x, nil
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
		return nil, k, -1, errors.New("it has unresolved merge conflicts in the index; resolve them and `git add` it")
	}
	return x.repo.readBlobEntry(e.Mode, e.Hash, p, limit, x.fatal)
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

// PrefetchLayers is Tree.PrefetchLayers for the staged content.
func (x *Index) PrefetchLayers(dirs, names []string, limit int64) {
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
	mode, ok, err := x.lookup(p)
	if err != nil || !ok || mode != ModeSymlink {
		return false, err
	}
	var terr error
	_, ok, err = walkDir(p, x.lookup, targetOf(x.LinkTarget, &terr))
	if err == nil {
		err = terr
	}
	return ok && err == nil, err
}

// unreadableIndexError says the index uses a format feature this package
// does not decode; the git binary can read it.
type unreadableIndexError struct {
	what string // e.g. "a split index (extension link)"
	fix  string
}

func (e *unreadableIndexError) Error() string { return "the index uses " + e.what }

// parseIndex decodes an index file (versions 2, 3 and 4; SHA-1 or SHA-256
// ids) into its entries and the valid directories of its cache-tree
// extension. The cache-tree is what lets the comparison with HEAD skip
// every directory whose staged tree is HEAD's.
func parseIndex(data []byte, hashSize int) ([]IndexEntry, map[string]Hash, error) {
	if len(data) < 12+hashSize || string(data[:4]) != "DIRC" {
		return nil, nil, errors.New("not an index file (no DIRC header)")
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, nil, fmt.Errorf("index version %d is not supported", version)
	}
	count := binary.BigEndian.Uint32(data[8:12])
	body := data[:len(data)-hashSize]
	if uint64(count) > uint64(len(body))/uint64(40+hashSize+2) {
		return nil, nil, fmt.Errorf("corrupt index: %d entries cannot fit in %d bytes", count, len(data))
	}
	ents := make([]IndexEntry, 0, count)
	// Paths of versions 2 and 3 are substrings of one string over data,
	// which is never modified: no allocation per entry.
	str := unsafe.String(unsafe.SliceData(data), len(data))
	off := 12
	noName := false
	prev := ""
	for n := uint32(0); n < count; n++ {
		start := off
		fixed := 40 + hashSize + 2
		if off+fixed > len(body) {
			return nil, nil, errors.New("corrupt index: truncated entry")
		}
		mode := binary.BigEndian.Uint32(body[off+24 : off+28])
		h := HashOf(body[off+40 : off+40+hashSize])
		flags := binary.BigEndian.Uint16(body[off+40+hashSize : off+fixed])
		off += fixed
		var ext uint16
		if flags&0x4000 != 0 {
			if version < 3 {
				return nil, nil, errors.New("corrupt index: extended flags in a version 2 index")
			}
			if off+2 > len(body) {
				return nil, nil, errors.New("corrupt index: truncated entry")
			}
			ext = binary.BigEndian.Uint16(body[off : off+2])
			off += 2
		}
		var name string
		if version == 4 {
			strip, m := varint(body[off:])
			if m == 0 || strip > uint64(len(prev)) {
				return nil, nil, errors.New("corrupt index: bad path compression")
			}
			off += m
			end := bytes.IndexByte(body[off:], 0)
			if end < 0 {
				return nil, nil, errors.New("corrupt index: unterminated path")
			}
			name = prev[:len(prev)-int(strip)] + string(body[off:off+end])
			off += end + 1
		} else {
			end := bytes.IndexByte(body[off:], 0)
			if end < 0 {
				return nil, nil, errors.New("corrupt index: unterminated path")
			}
			name = str[off : off+end]
			// Entries are padded with 1-8 NULs to a multiple of 8 bytes.
			off = start + (off-start+end+8)&^7
			if off > len(body) {
				return nil, nil, errors.New("corrupt index: truncated entry")
			}
		}
		if name == "" {
			// A split index stores replaced entries without a name (the
			// shared index has it); the link extension below sends the
			// whole index to git ls-files.
			noName = true
		} else if strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") && mode != 0o040000 {
			return nil, nil, fmt.Errorf("corrupt index: bad path %q", name)
		}
		if mode == 0o040000 || ext&0x4000 != 0 && strings.HasSuffix(name, "/") {
			return nil, nil, &unreadableIndexError{what: "a sparse index (directory entries, extension sdir)",
				fix: "turn it off with `git sparse-checkout init --no-sparse-index`"}
		}
		prev = name
		ents = append(ents, IndexEntry{Path: name, Mode: CanonMode(mode), Hash: h,
			Stage: uint8(flags>>12) & 3, IntentToAdd: ext&0x2000 != 0})
	}
	var trees map[string]Hash
	for off < len(body) {
		if off+8 > len(body) {
			return nil, nil, errors.New("corrupt index: truncated extension")
		}
		sig := string(body[off : off+4])
		size := binary.BigEndian.Uint32(body[off+4 : off+8])
		off += 8
		if uint64(size) > uint64(len(body)-off) {
			return nil, nil, fmt.Errorf("corrupt index: extension %q overruns the file", sig)
		}
		ext := body[off : off+int(size)]
		off += int(size)
		switch {
		case sig == "TREE":
			t, err := parseCacheTree(ext, hashSize)
			if err != nil {
				return nil, nil, err
			}
			trees = t
		case sig == "link":
			return nil, nil, &unreadableIndexError{what: "a split index (extension link)",
				fix: "turn it off with `git update-index --no-split-index`"}
		case sig == "sdir":
			return nil, nil, &unreadableIndexError{what: "a sparse index (extension sdir)",
				fix: "turn it off with `git sparse-checkout init --no-sparse-index`"}
		case sig[0] < 'A' || sig[0] > 'Z':
			return nil, nil, &unreadableIndexError{what: fmt.Sprintf("the required extension %q", sig),
				fix: "rewrite the index with a Git that does not use it"}
		}
		// Other extensions (REUC, UNTR, FSMN, EOIE, IEOT…) are optional.
	}
	if noName {
		return nil, nil, errors.New("corrupt index: an entry without a path")
	}
	return ents, trees, nil
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
