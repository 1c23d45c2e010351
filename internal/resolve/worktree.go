package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rivumi/rivumi-lint/internal/par"
)

// Worktree reads the files on disk below a project root.
type Worktree struct {
	root   string
	rootfd dirHandle
	// recorded holds the paths whose Git index entry is a symlink or a
	// submodule: those modes win over what the checkout holds (C1, C2).
	recorded map[string]Kind
	// unmerged holds the paths the index holds in conflict stages
	// (SetUnmerged): the engine rejects such a layer (CauseConflict).
	unmerged map[string]bool
	// mu guards kept and reads: ListKeep and prefetch may run on several
	// goroutines.
	mu sync.Mutex
	// kept are listings ListKeep made, each served once to List; listed
	// holds every directory listed so far (the engine lists each once).
	kept   map[string][]Entry
	listed map[string]bool
	// reads are the chosen candidates ListKeep read ahead, each served once
	// to Read.
	reads map[string]readAhead
	//lint:ignore U1000 used by worktree_unix.go; windows opens directories another way
	noOpenat2 atomic.Bool // openat2(2) is not available: open directories component by component
	buf       []byte      // List's getdents buffer (List runs on one goroutine)
	// candidates, once an engine is made over the worktree, let List leave
	// out the regular files no check can act on (see relevant) and ListKeep
	// read ahead the file a directory's layer will be (limit: the engine's
	// MaxFileBytes).
	candidates []string
	limit      int64
	// also are the names other agent profiles look for (Options.Also),
	// which List keeps too.
	also []string
	// overlayDocs are unsaved editor texts Read serves instead of the
	// disk's (SetOverlay, X4).
	overlayDocs map[string][]byte
	// walk lists the directories at or below one (SetWalk).
	walk func(dir string) ([]string, error)
	// symlinksOff is core.symlinks=false (SetSymlinksOff): asked only
	// when the index records a link that the disk holds otherwise.
	symlinksOff func() (off, known bool)
	// wide marks the candidates with non-ASCII bytes, which a name of
	// another length may fold to (see relevant).
	wide []bool
}

// useCandidates sets the candidates (in priority order) and the read
// limit of the engine made over the worktree.
func (w *Worktree) useCandidates(candidates []string, limit int64) {
	w.candidates, w.limit = candidates, limit
	w.wide = make([]bool, len(candidates))
	for i, c := range candidates {
		w.wide[i] = !asciiOnly(c)
	}
}

// readAhead is one Read made before the engine asked for it.
type readAhead struct {
	data  []byte
	kind  Kind
	size  int64
	err   error
	limit int64
}

func (w *Worktree) Name() string { return "worktree" }

// LinkedDirError says a directory on the way to a path is a symbolic link.
type LinkedDirError struct{ Dir string }

func (e *LinkedDirError) Error() string { return e.Dir + " is a symbolic link" }

func (w *Worktree) abs(p string) string {
	if p == "" {
		return w.root
	}
	return w.root + "/" + p
}

// List implements Source. A listing ListKeep made is served from memory,
// once.
func (w *Worktree) List(dir string) ([]Entry, error) {
	w.mu.Lock()
	ents, ok := w.kept[dir]
	if ok {
		delete(w.kept, dir)
	}
	w.markListed(dir)
	w.mu.Unlock()
	if ok {
		return ents, nil
	}
	ents, _, err := w.list(dir, &w.buf, false, nil)
	return ents, err
}

// Reserve sizes the maps of listings for about n directories before a
// walk lists them: growing them one directory at a time, under the lock
// both walkers take, rehashed them a dozen times in a whole-worktree
// check.
func (w *Worktree) Reserve(n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.kept == nil {
		w.kept = make(map[string][]Entry, n)
	}
	if w.listed == nil {
		w.listed = make(map[string]bool, n)
	}
}

// markListed records dir as listed; w.mu is held.
func (w *Worktree) markListed(dir string) {
	if w.listed == nil {
		w.listed = map[string]bool{}
	}
	w.listed[dir] = true
}

// relevant reports whether a regular file called name can matter to a
// check: an instruction candidate, a name RL011 may find close to one (a
// Markdown or text extension), a skill's SKILL.md (idem), or a dot-file
// (.gitignore, .git). List leaves the other regular files out once an
// engine is made over the worktree: a monorepo directory holds mostly
// source files, and naming each of them is most of a whole-worktree
// check's allocations. Every other kind of entry is always listed.
func (w *Worktree) relevant(name []byte) bool {
	// Where the index records links or submodules, every name is kept for
	// the overlay (C1: a link a checkout holds as a plain file).
	if w.candidates == nil || len(w.recorded) > 0 || len(name) > 0 && name[0] == '.' {
		return true
	}
	for _, c := range w.candidates {
		if string(name) == c {
			return true
		}
	}
	for _, a := range w.also {
		if string(name) == a {
			return true
		}
	}
	if hasNoteExt(name) {
		return true
	}
	// RL011: AGENTS.mdd or AGENTS.m has no note extension but is one edit
	// from a candidate (nearMissKeyed). name is ASCII here (hasNoteExt
	// keeps every other name), so it can equal an ASCII candidate in
	// another case only at the same length, and be one edit from it only
	// within one byte: most source file names are rejected on their
	// length, without the comparisons (a fifth of a pre-commit check's
	// listing).
	//
	// Within that byte, an ASCII name that differs from the candidate in
	// both its first and its last byte is neither: one edit (insertion,
	// deletion, replacement, adjacent swap) of a string of three or more
	// bytes leaves one of its ends in place, and equality ignoring case
	// needs the first bytes equal ignoring case. Most source file names of
	// a candidate's length fail here, before the comparisons (a whole
	// worktree's listing made them for 80,000 names).
	n := len(name)
	for i, c := range w.candidates {
		if !w.wide[i] {
			d := n - len(c)
			if d > 1 || d < -1 {
				continue
			}
			if n >= 3 && len(c) >= 3 && name[0] != c[0] && name[n-1] != c[len(c)-1] &&
				(d != 0 || name[0]|0x20 != c[0]|0x20 || !isLetter(c[0])) {
				continue
			}
		}
		if strings.EqualFold(c, string(name)) || oneEdit(string(name), c) {
			return true
		}
	}
	return false
}

// isLetter reports whether the ASCII byte b is a letter, whose case
// strings.EqualFold ignores.
func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// ListKeep lists dir as List does and keeps the answer for the next List
// of dir: a whole-worktree walk reads every directory once, for the scope
// and for the engine. Once an engine is made over the worktree it also
// reads the directory's layer file (the first candidate, in priority order,
// that has an entry, when that entry is a regular file: R2) for the
// engine's next Read of it, through the directory descriptor it has open.
// The caller may reorder the entries, not change them. A listing kept and
// not yet served to List is returned as it is, not made again: its layer
// file is read once (R7) when the PATHs' directories were listed before a
// walk below one of them. ListKeep and Prefetch may run on several
// goroutines at once; the other methods may not run beside them.
func (w *Worktree) ListKeep(dir string) ([]Entry, error) {
	w.mu.Lock()
	ents, ok := w.kept[dir]
	w.mu.Unlock()
	if ok {
		return ents, nil
	}
	return w.listKeep(dir, nil)
}

func (w *Worktree) listKeep(dir string, want *diskKinds) ([]Entry, error) {
	bp := bufPool.Get().(*[]byte)
	ents, ra, err := w.list(dir, bp, w.candidates != nil, want)
	bufPool.Put(bp)
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	if w.kept == nil {
		w.kept = map[string][]Entry{}
	}
	w.kept[dir] = ents
	w.markListed(dir)
	if ra != nil {
		if w.reads == nil {
			w.reads = map[string]readAhead{}
		}
		w.reads[ra.path] = ra.readAhead
	}
	w.mu.Unlock()
	return ents, nil
}

// Prefetch implements Snapshot: it lists dirs and the directories above
// them with ListKeep on as many goroutines as there are processors, so
// that the engine then resolves them from memory, reading each layer file
// ahead with the candidates and limit of the engine made over the worktree
// (names and limit are those). A directory listed before is skipped (each
// file is read once).
func (w *Worktree) Prefetch(dirs, names []string, limit int64) {
	w.prefetch(WithAncestors(dirs))
}

func (w *Worktree) prefetch(dirs []string) {
	w.mu.Lock()
	if w.kept == nil {
		// Sized once, not grown entry by entry.
		w.kept = make(map[string][]Entry, len(dirs))
	}
	if w.listed == nil {
		w.listed = make(map[string]bool, len(dirs))
	}
	work := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if !w.listed[d] {
			work = append(work, d)
		}
	}
	w.mu.Unlock()
	par.Each(runtime.GOMAXPROCS(0), len(work), func(i int) { w.ListKeep(work[i]) })
}

// SetWalk gives the worktree the walk that lists the directories at or
// below one as a check walks them (scope.Walker: Git's ignore rules, which
// live above the engine); DirsBelow and CandidateDirsBelow answer with it.
// It runs on the caller's goroutine.
func (w *Worktree) SetWalk(walk func(dir string) ([]string, error)) { w.walk = walk }

// DirsBelow implements Snapshot through the walk SetWalk gave.
func (w *Worktree) DirsBelow(dir string) ([]string, error) {
	if w.walk == nil {
		return nil, errors.New("the worktree has no directory walk (SetWalk)")
	}
	return w.walk(dir)
}

// CandidateDirsBelow implements Snapshot: every directory the walk lists
// at or below dir, a superset of those holding a candidate.
func (w *Worktree) CandidateDirsBelow(dir string, _ []string) ([]string, error) {
	return w.DirsBelow(dir)
}

// DirLink implements Snapshot: p is a symbolic link on the disk and what
// it leads to is a directory (the engine reports what is behind it, never
// opens it).
func (w *Worktree) DirLink(p string) (bool, error) {
	fi, err := os.Lstat(w.abs(p))
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return false, nil
	}
	fi, err = os.Stat(w.abs(p))
	return err == nil && fi.IsDir(), nil
}

// PrefetchKinds lists the directory of each of paths (slash paths below
// the root), and the directories above those, as Prefetch does, and
// returns the kind each path's entry has on disk, taken from that
// listing: d_type, before the index's overlay (C1) and before the regular
// files no check acts on are left out, so what lstat(2) would say. It is
// Missing where the listing cannot tell: no entry of that name (a deleted
// PATH, another case on a case-insensitive disk), a directory that cannot
// be listed (behind a link, gone), a file system without d_type, the root
// itself, a directory listed before: the caller lstats those. A
// pre-commit check's 1,000 PATHs then cost no system call beyond the
// listings the chains need anyway (R2).
func (w *Worktree) PrefetchKinds(paths []string) []Kind {
	k := w.PlanKinds(paths)
	k.Run(nil)
	return k.Kinds
}

// KindsPlan is PrefetchKinds in steps: Run may be called more than once
// (beside the index scan, then after it), and lists only what no Run
// listed before; Kinds holds what the listings said.
type KindsPlan struct {
	w     *Worktree
	paths []string
	Kinds []Kind
	dirs  []string     // the paths' directories, then those above them
	want  []*diskKinds // per directory of dirs: its paths (nil: none)
}

// PlanKinds prepares PrefetchKinds of paths.
func (w *Worktree) PlanKinds(paths []string) *KindsPlan {
	k := &KindsPlan{w: w, paths: paths, Kinds: make([]Kind, len(paths))}
	at := make(map[string]int, len(paths))
	for i, p := range paths {
		if p == "" {
			continue
		}
		dir := ParentDir(p)
		j, ok := at[dir]
		if !ok {
			j = len(k.dirs)
			at[dir] = j
			k.dirs = append(k.dirs, dir)
			k.want = append(k.want, &diskKinds{paths: paths, kinds: k.Kinds})
		}
		k.want[j].at = append(k.want[j].at, i)
	}
	// The directories above them come next, in the same batch: every
	// chain needs them (R2), and one batch has one straggler at its end,
	// not two.
	for j, n := 0, len(k.dirs); j < n; j++ {
		for d := k.dirs[j]; d != ""; {
			d = ParentDir(d)
			if _, ok := at[d]; ok {
				break
			}
			at[d] = len(k.dirs)
			k.dirs = append(k.dirs, d)
			k.want = append(k.want, nil)
		}
	}
	return k
}

// Run lists the plan's directories not listed yet, on a goroutine per
// processor; beside a job still running (more not nil), on one fewer,
// taking directories only while more returns true.
func (k *KindsPlan) Run(more func() bool) {
	workers := runtime.GOMAXPROCS(0)
	if more != nil {
		workers--
	}
	w := k.w
	w.mu.Lock()
	if w.kept == nil {
		w.kept = make(map[string][]Entry, len(k.dirs))
	}
	if w.listed == nil {
		w.listed = make(map[string]bool, len(k.dirs))
	}
	var work []int
	for j, d := range k.dirs {
		if !w.listed[d] {
			work = append(work, j)
		}
	}
	w.mu.Unlock()
	// Each goroutine writes only the kinds of its own directory's paths.
	par.Each(workers, len(work), func(i int) {
		if more == nil || more() {
			j := work[i]
			w.listKeep(k.dirs[j], k.want[j])
		}
	})
}

// Forget drops what the listings said (after Record dropped them).
func (k *KindsPlan) Forget() {
	clear(k.Kinds)
}

// SetUnmerged gives the paths (slash paths below the root) that the Git
// index holds unmerged; no read may run beside it.
func (w *Worktree) SetUnmerged(paths map[string]bool) { w.unmerged = paths }

// Recorded reports whether the index records links or submodules below
// the root (see OpenWorktree and Record).
func (w *Worktree) Recorded() bool { return len(w.recorded) > 0 }

// SetSymlinksOff gives the worktree the answer to "is core.symlinks false
// here?" (known false when it could not be read), asked at most once per
// run (the caller caches it) and only for an entry whose kind the index
// overrides; nil: unknown. It may run on several goroutines.
func (w *Worktree) SetSymlinksOff(f func() (off, known bool)) { w.symlinksOff = f }

// Record sets the kinds the Git index records (see OpenWorktree) on a
// worktree opened without them, once the index has been read beside the
// first listings. Those were made without the overlay (C1) and with the
// regular files no check acts on left out: when the index records a link
// or a submodule they are all dropped, with their read-ahead, to be made
// again as OpenWorktree with recorded would have made them. No listing
// may run beside it.
func (w *Worktree) Record(recorded map[string]Kind) {
	if len(recorded) == 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.recorded = recorded
	w.kept, w.listed, w.reads = nil, nil, nil
}

// diskKinds takes the kinds of the names one listing is asked for: the
// base names of paths[i] for i in at (one or two, mostly).
type diskKinds struct {
	paths []string
	at    []int
	kinds []Kind
}

func (d *diskKinds) note(name []byte, k Kind) {
	for _, i := range d.at {
		p := d.paths[i]
		if len(p) > len(name) && p[len(p)-len(name)-1] == '/' && p[len(p)-len(name):] == string(name) ||
			p == string(name) {
			d.kinds[i] = k
		}
	}
}

// forget drops what a failed listing noted.
func (d *diskKinds) forget() {
	for _, i := range d.at {
		d.kinds[i] = Missing
	}
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

type pathRead struct {
	path string
	readAhead
}

func (w *Worktree) list(dir string, buf *[]byte, ahead bool, want *diskKinds) ([]Entry, *pathRead, error) {
	fd, err := w.openDir(dir)
	if err != nil {
		return nil, nil, err
	}
	defer sysClose(fd)
	out, err := w.readDir(fd, buf, want)
	if err != nil {
		if want != nil {
			want.forget() // a listing cut short: lstat each PATH instead
		}
		return nil, nil, fmt.Errorf("list %s: %w", w.abs(dir), err)
	}
	if len(w.recorded) > 0 {
		for i := range out {
			w.overlay(path.Join(dir, out[i].Name), &out[i])
		}
	}
	if !ahead {
		return out, nil, nil
	}
	best, rank := -1, len(w.candidates)
	for i := range out {
		if out[i].Name == ".git" {
			return out, nil, nil // the root, or a nested repository: not read ahead
		}
	}
	for i := range out {
		for r, c := range w.candidates[:rank] {
			if out[i].Name == c {
				best, rank = i, r
				break
			}
		}
	}
	if best < 0 || out[best].Kind != Regular {
		return out, nil, nil
	}
	ra := &pathRead{path: path.Join(dir, out[best].Name), readAhead: readAhead{limit: w.limit}}
	ra.data, ra.kind, ra.size, ra.err = readAt(fd, out[best].Name, w.limit)
	return out, ra, nil
}

// overlay applies what the Git index records over what the disk holds.
func (w *Worktree) overlay(p string, e *Entry) {
	rec, ok := w.recorded[p]
	if !ok || rec == e.Kind {
		return
	}
	switch rec {
	case Symlink:
		if e.Kind == Dir {
			// A directory where the index records a link is a checkout
			// in the middle of a change (a staged type change): the
			// runtime reads the directory, so the walk goes into it.
			return
		}
		// core.symlinks=false checks a link out as a plain file holding
		// its target; with links on, a regular file there replaced the
		// link and is not staged yet (#33.8): say which, never guess.
		off, known := false, false
		if w.symlinksOff != nil {
			off, known = w.symlinksOff()
		}
		switch {
		case known && off:
			e.Note = "a symbolic link in Git (mode 120000), although this checkout holds a " + e.Kind.String() + " (core.symlinks=false)"
		case known && e.Kind == Regular:
			e.Note = "a regular file in the worktree, but Git's index still records a symbolic link (mode 120000), which is what a commit takes"
			e.Unstaged = true
		case known:
			e.Note = "a symbolic link in Git's index (mode 120000), although the worktree holds a " + e.Kind.String()
		default:
			e.Note = "a symbolic link in Git (mode 120000), although this checkout holds a " + e.Kind.String() + " (core.symlinks=false, or a change not staged)"
		}
		e.Kind = Symlink
	case Submodule:
		e.Note = "a submodule (Git records it with mode 160000)"
		e.Kind = Submodule
	}
}

func (w *Worktree) Read(p string, limit int64) ([]byte, Kind, int64, error) {
	if data, kind, size, ok := w.readOverlay(p, limit); ok {
		return data, kind, size, nil
	}
	w.mu.Lock()
	ra, ok := w.reads[p]
	if ok {
		delete(w.reads, p)
	}
	w.mu.Unlock()
	if ok && ra.limit == limit {
		return ra.data, ra.kind, ra.size, ra.err
	}
	dir, name := path.Split(p)
	fd, err := w.openDir(strings.TrimSuffix(dir, "/"))
	if err != nil {
		var le *LinkedDirError
		if errors.As(err, &le) {
			return nil, Symlink, -1, nil
		}
		return nil, Missing, -1, err
	}
	defer sysClose(fd)
	return readAt(fd, name, limit)
}

// LinkTarget implements Source. A link that cannot be read has no known
// target: that is a message detail, never fatal.
func (w *Worktree) LinkTarget(p string) (string, error) {
	t, err := os.Readlink(w.abs(p))
	if err != nil {
		return "", nil
	}
	return t, nil
}

// ModeNote names a file mode that is neither a regular file, a directory
// nor a link: "FIFO", "socket", "character device", "block device"; "" else
// (an Entry.Note puts "a " before it).
func ModeNote(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return ""
}
