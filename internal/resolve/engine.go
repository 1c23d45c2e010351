// Package resolve is the engine: it decides, exactly as the Rivumi runtime
// does, which instruction files make up the chain of a directory, which of
// them are suppressed, shadowed or rejected, and why (SPEC §2, §3).
package resolve

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/content"
)

// State is where a considered layer ended (R5).
type State string

const (
	Active     State = "active"
	Suppressed State = "suppressed"
	Shadowed   State = "shadowed"
	Rejected   State = "rejected"
)

// Scope says whose a layer is.
const (
	ScopeUser    = "user"
	ScopeProject = "project"
)

// Rejection says why a chosen file is skipped (C1–C5). Cause is what
// happened to the file (lint maps it to a rule); the other fields are set
// where they apply.
type Rejection struct {
	Cause  Cause
	Reason string // what failed, in words, e.g. "symbolic link to ../x"
	Target string // CauseSymlink, CauseBehindLink: where the link points, when known
	// TargetIn (CauseSymlink) is what the link's target is, when it lies
	// inside the root: nil for an absolute target, one outside the root,
	// or one the source could not look at. The finding's fix depends on it.
	TargetIn *LinkTargetInfo
	Size     int64 // CauseOversized: the file's size
	Limit    int64 // CauseOversized: the limit
	Pos      content.Pos
	BOM      string // CauseNotUTF8: the byte-order mark the file starts with
	// Unstaged (CauseSymlink): only Git's index records the link; the
	// worktree holds a regular file (Entry.Unstaged).
	Unstaged bool
}

// LinkTargetInfo is what the engine learns of a link's target inside the
// root with Lstat, never opening it (C1).
type LinkTargetInfo struct {
	Path string // the target, relative to the root ("." for the root)
	Kind Kind   // Missing: the link dangles
	// Candidate: its name is an instruction candidate, so it cannot become
	// the link in its place (its own directory would skip it).
	Candidate bool
}

// Unmerged is the rejection of a layer that Git's index holds in conflict
// stages (1–3): staged, the index has no text for it; in the worktree,
// the file holds both sides and the conflict markers, which the runtime
// would load as instructions, so the check takes neither.
func Unmerged(staged bool) *Rejection {
	r := &Rejection{Cause: CauseConflict,
		Reason: "Git's index holds it unmerged, and until the conflict is resolved the file holds both sides and the conflict markers, which Rivumi would load as instructions"}
	if staged {
		r.Reason = "Git's index holds it unmerged, with no staged text"
	}
	return r
}

// File is the engine's knowledge of one candidate file, gathered once per run.
type File struct {
	Path     string // relative slash path, or ~/… for the user layer
	Dir      string // the directory it sits in ("" for the root); "" for the user layer
	Name     string
	Scope    string
	Override bool
	Entry    Entry      // what the directory entry is
	Rej      *Rejection // nil when the file was read and accepted
	Content  []byte     // raw bytes of an accepted file
	Sum      [32]byte   // SHA-256 of Content, for an accepted file
	// raw is what was read of the file: Content when accepted, the first
	// bytes (at most MaxFileBytes+1) of one rejected for its size or its
	// encoding, which another agent profile reads as they are (A1: no
	// file read twice).
	raw []byte
	// Location is the user layer's UserFile.Location ("" for project
	// files, whose Path is their location).
	Location string
	read     bool // whether the file was chosen and loaded
}

// Accepted reports whether the file was read and passed C1–C5.
func (f *File) Accepted() bool { return f.read && f.Rej == nil }

// Bytes returns what the engine read of the file and whether that is
// the whole file; nil when it read nothing (not chosen, a link, not
// regular, unreadable).
func (f *File) Bytes() (data []byte, whole bool) {
	if f.raw == nil {
		return nil, false
	}
	size := f.Entry.Size
	if f.Rej != nil && f.Rej.Cause == CauseOversized {
		size = f.Rej.Size
	}
	return f.raw, f.Rej == nil || size == int64(len(f.raw))
}

// DirInfo is what one directory contributes to every chain through it.
type DirInfo struct {
	Path string // "" for the root
	// Files are the candidates that have an entry here, in priority order:
	// Files[0] is the directory's layer, the rest are shadowed (R2).
	Files []*File
	// Also are the entries here of Options.Also, in that order: names
	// other agent profiles look for, listed with the same listing and
	// never read by this engine.
	Also []Entry
	// NearMisses are entries whose name resembles a candidate (RL011).
	NearMisses []NearMiss
	// CaseFold, when not nil, is the layer a checkout on a
	// case-insensitive file system (macOS, Windows) gets here instead of
	// Files[0] (D1); it never changes this resolution.
	CaseFold *CaseFold
	// Linked is the first directory from the root down to this one that is
	// a symbolic link, "" when none is (C1).
	Linked   string
	children []child // subdirectory-like entries (Dir, Symlink, Submodule), sorted by name
	err      error
}

type child struct {
	name string
	kind Kind
}

// Lookup finds the entry called name in the directory's listing: one of
// the candidates or of the Also names.
func (d *DirInfo) Lookup(name string) (Entry, bool) {
	for _, f := range d.Files {
		if f.Name == name {
			return f.Entry, true
		}
	}
	for _, e := range d.Also {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// ChildKind is the kind of the subdirectory-like entry called name, or
// Missing.
func (d *DirInfo) ChildKind(name string) Kind {
	i := sort.Search(len(d.children), func(i int) bool { return d.children[i].name >= name })
	if i < len(d.children) && d.children[i].name == name {
		return d.children[i].kind
	}
	return Missing
}

// NearMiss is a file whose name is close to a candidate but not one.
type NearMiss struct {
	Path string
	Like string // the candidate name it resembles
}

// Layer is one file's place in one chain.
type Layer struct {
	*File
	State State
	By    string // the overriding (Suppressed) or shadowing (Shadowed) file
}

// Reason is the layer's reason code (R8): the fingerprint's code of a
// rejection's cause (FingerprintCode: the rule id), the path of the
// overriding or shadowing file, or "" for an active layer.
func (l Layer) Reason() string {
	switch l.State {
	case Rejected:
		return FingerprintCode(l.Rej.Cause)
	case Suppressed, Shadowed:
		return l.By
	}
	return ""
}

// Resolution is the chain of one directory. Resolutions are read-only: a
// directory without candidates shares its parent's Layers.
type Resolution struct {
	Dir         string // "" for the root
	Layers      []Layer
	Dirs        []*DirInfo // the root down to Dir
	Fingerprint string
}

// Active returns the layers that are rendered, in chain order.
func (r *Resolution) Active() []Layer {
	var out []Layer
	for _, l := range r.Layers {
		if l.State == Active {
			out = append(out, l)
		}
	}
	return out
}

// UserFile is the user-level instruction file, read from the local disk.
type UserFile struct {
	Path    string // OS path
	Display string // as shown: ~/… when under the home directory
	// Location is the file's slash path relative to the project root when
	// it lies inside the root ("" otherwise): findings about it then point
	// at that repository file, and are not reported twice when it is a
	// project layer too (F10).
	Location string
}

// Options configure the engine.
type Options struct {
	Overrides    []string // override candidate names, priority order
	Normals      []string // normal candidate names, priority order
	MaxFileBytes int64
	User         *UserFile // nil: no user layer
	// Also are names that are not candidates whose entries each
	// directory keeps (DirInfo.Also): what other agent profiles look for
	// (their candidates and root markers, A1), found in the same listing.
	Also []string
	// AnyCase are names whose entries each directory keeps in any letter
	// case, under their own names (DirInfo.Also): a profile whose agent
	// matches names so (Copilot takes agents.md where no AGENTS.md is).
	AnyCase []string
}

// Engine resolves chains over one source, memoising every directory so each
// file is read at most once per run (R7).
type Engine struct {
	src        Source
	opt        Options
	candidates []string
	candKeys   []string // nameKey of each candidate, for RL011
	alsoNames  []string // Options.Also that are not candidates
	dirs       map[string]*DirInfo
	chains     map[string]*Resolution
	user       *File
}

// New returns an engine over src.
func New(src Source, opt Options) *Engine {
	e := &Engine{src: src, opt: opt, dirs: map[string]*DirInfo{}, chains: map[string]*Resolution{}}
	e.candidates = append(append([]string{}, opt.Overrides...), opt.Normals...)
	e.candKeys = candidateKeys(e.candidates)
	for _, a := range opt.Also {
		if e.rank(a) < 0 && !slices.Contains(e.alsoNames, a) {
			e.alsoNames = append(e.alsoNames, a)
		}
	}
	if w, ok := src.(*Worktree); ok {
		w.useCandidates(e.candidates, opt.MaxFileBytes)
		w.also = opt.Also
	}
	if opt.User != nil {
		e.user = e.loadUser(opt.User)
	}
	return e
}

// Source returns the source the engine reads.
func (e *Engine) Source() Source { return e.src }

// foldsToCandidate reports whether name, not a candidate itself, is one
// in another case (D1). A name of another length cannot be (a folded
// ASCII letter is at most three bytes: the Kelvin sign); most others
// differ in their first byte, where EqualFold stops.
func (e *Engine) foldsToCandidate(name string) bool {
	for _, c := range e.candidates {
		if len(name) >= len(c) && len(name) <= 3*len(c) && strings.EqualFold(name, c) {
			return true
		}
	}
	return false
}

// Candidates returns the candidate names in priority order.
func (e *Engine) Candidates() []string { return e.candidates }

// Names returns every name a directory's listing keeps for the enabled
// agent profiles: the candidates, then Options.Also (A1). A change of an
// entry of one of them changes a chain (R7).
func (e *Engine) Names() []string {
	if len(e.alsoNames) == 0 {
		return e.candidates
	}
	return append(slices.Clone(e.candidates), e.alsoNames...)
}

// IsName reports whether name is one of Names.
func (e *Engine) IsName(name string) bool { return e.rank(name) >= 0 || e.isAlso(name) }

// IsCandidate reports whether name is an instruction candidate.
func (e *Engine) IsCandidate(name string) bool { return e.rank(name) >= 0 }

func (e *Engine) rank(name string) int {
	for i, c := range e.candidates {
		if c == name {
			return i
		}
	}
	return -1
}

func (e *Engine) isOverride(name string) bool {
	for _, c := range e.opt.Overrides {
		if c == name {
			return true
		}
	}
	return false
}

// Reserve sizes the engine's memo for about n directories before a
// caller resolves them (a whole worktree's 10,000), so that it is not
// grown entry by entry.
func (e *Engine) Reserve(n int) {
	if len(e.dirs) == 0 {
		e.dirs = make(map[string]*DirInfo, n)
	}
	if len(e.chains) == 0 {
		e.chains = make(map[string]*Resolution, n)
	}
}

// Chain resolves directory dir (slash path relative to the root, "" for the
// root). It returns fs.ErrNotExist when dir does not exist in the source.
func (e *Engine) Chain(dir string) (*Resolution, error) {
	dir = strings.Trim(dir, "/")
	if dir == "." {
		dir = ""
	}
	if r, ok := e.chains[dir]; ok {
		return r, nil
	}
	info, err := e.Dir(dir)
	if err != nil {
		return nil, err
	}
	if dir != "" && len(info.Files) == 0 {
		// No candidate here: the chain is the parent's, layer for layer
		// (R3), with the same fingerprint. It is shared, not rebuilt, so a
		// whole-worktree check hashes one chain per directory that has
		// instruction files, not one per directory.
		pr, err := e.Chain(ParentDir(dir))
		if err != nil {
			return nil, err
		}
		// Dirs of exactly its length: append to a full slice would
		// reserve twice that, for 9,000 chains of a whole worktree.
		dirs := make([]*DirInfo, len(pr.Dirs)+1)
		dirs[copy(dirs, pr.Dirs)] = info
		r := &Resolution{Dir: dir, Layers: pr.Layers[:len(pr.Layers):len(pr.Layers)],
			Dirs: dirs, Fingerprint: pr.Fingerprint}
		e.chains[dir] = r
		return r, nil
	}
	var infos []*DirInfo
	for d := info; ; {
		infos = append(infos, d)
		if d.Path == "" {
			break
		}
		d = e.dirs[ParentDir(d.Path)]
	}
	r := &Resolution{Dir: dir, Dirs: make([]*DirInfo, 0, len(infos))}
	for i := len(infos) - 1; i >= 0; i-- {
		r.Dirs = append(r.Dirs, infos[i])
	}
	if e.user != nil {
		r.Layers = append(r.Layers, Layer{File: e.user, State: stateOf(e.user)})
	}
	for _, d := range r.Dirs {
		for i, f := range d.Files {
			if i == 0 {
				r.Layers = append(r.Layers, Layer{File: f, State: stateOf(f)})
				continue
			}
			r.Layers = append(r.Layers, Layer{File: f, State: Shadowed, By: d.Files[0].Path})
		}
	}
	// R4: the deepest accepted override suppresses every project layer of a
	// shallower directory that would otherwise be active, earlier overrides
	// included. The user layer is never suppressed.
	deepest := -1
	for i, l := range r.Layers {
		if l.State == Active && l.Scope == ScopeProject && l.Override {
			deepest = i
		}
	}
	if deepest >= 0 {
		by := r.Layers[deepest]
		for i := 0; i < deepest; i++ {
			l := &r.Layers[i]
			if l.Scope == ScopeProject && l.State == Active && l.Dir != by.Dir {
				l.State, l.By = Suppressed, by.Path
			}
		}
	}
	r.Fingerprint = Fingerprint(r.Layers)
	e.chains[dir] = r
	return r, nil
}

func stateOf(f *File) State {
	if f.Rej != nil {
		return Rejected
	}
	return Active
}

// Dir returns what directory dir contributes, loading it once.
func (e *Engine) Dir(dir string) (*DirInfo, error) {
	if d, ok := e.dirs[dir]; ok {
		return d, d.err
	}
	d := &DirInfo{Path: dir}
	e.dirs[dir] = d
	d.err = e.fill(d)
	return d, d.err
}

func (e *Engine) fill(d *DirInfo) error {
	if d.Path != "" {
		parent, err := e.Dir(ParentDir(d.Path))
		if err != nil {
			return err
		}
		switch {
		case parent.Linked != "":
			d.Linked = parent.Linked
		default:
			switch parent.ChildKind(path.Base(d.Path)) {
			case Dir:
			case Symlink:
				d.Linked = d.Path
			case Submodule:
				return fmt.Errorf("%s is a submodule: %w", d.Path, fs.ErrNotExist)
			default:
				return fmt.Errorf("%s: %w", d.Path, fs.ErrNotExist)
			}
		}
	}
	if d.Linked != "" {
		// C1: report candidates behind a link (found by lstat), never open them.
		for _, name := range e.candidates {
			p := path.Join(d.Path, name)
			ent, err := e.src.Lstat(p)
			if IsFatal(err) {
				return err
			}
			if err != nil || ent.Kind == Missing {
				continue
			}
			f := e.newFile(d.Path, name, ent)
			f.read = true
			f.Rej = &Rejection{Cause: CauseBehindLink, Reason: "it sits below " + d.Linked + ", which is a symbolic link"}
			t, err := e.src.LinkTarget(d.Linked)
			if err != nil {
				return err
			}
			if t != "" {
				f.Rej.Reason += " to " + t
				f.Rej.Target = t
			}
			d.Files = append(d.Files, f)
		}
		for _, name := range e.also() {
			ent, err := e.src.Lstat(path.Join(d.Path, name))
			if IsFatal(err) {
				return err
			}
			if err == nil && ent.Kind != Missing {
				ent.Name = name
				d.Also = append(d.Also, ent)
			}
		}
		return nil
	}
	ents, err := e.src.List(d.Path)
	if err != nil {
		var le *LinkedDirError
		if errors.As(err, &le) {
			// The directory became a link after its parent was listed.
			d.Linked = le.Dir
			return e.fill(d)
		}
		return err
	}
	var ranks [8]*Entry
	var byRank []*Entry
	if len(e.candidates) <= len(ranks) {
		byRank = ranks[:len(e.candidates)]
	} else {
		byRank = make([]*Entry, len(e.candidates))
	}
	folded := false // an entry is a candidate in another case (D1)
	for i := range ents {
		ent := &ents[i]
		if r := e.rank(ent.Name); r >= 0 {
			byRank[r] = ent
		} else if e.isAlso(ent.Name) {
			d.Also = append(d.Also, *ent)
		} else {
			if e.anyCase(ent.Name) {
				d.Also = append(d.Also, *ent)
			}
			if ent.Kind != Dir && ent.Kind != Submodule {
				if like, ok := nearMissKeyed(ent.Name, e.candidates, e.candKeys); ok {
					d.NearMisses = append(d.NearMisses, NearMiss{Path: path.Join(d.Path, ent.Name), Like: like})
				}
			}
			folded = folded || e.foldsToCandidate(ent.Name)
		}
		switch ent.Kind {
		case Dir, Symlink, Submodule:
			d.children = append(d.children, child{ent.Name, ent.Kind})
		}
	}
	if !slices.IsSortedFunc(d.children, byName) {
		slices.SortFunc(d.children, byName)
	}
	if folded {
		d.CaseFold = caseFoldLayer(ents, e.candidates)
	}
	for _, ent := range byRank {
		if ent == nil {
			continue
		}
		f := e.newFile(d.Path, ent.Name, *ent)
		if len(d.Files) == 0 {
			if err := e.load(f); err != nil {
				return err
			}
		}
		d.Files = append(d.Files, f)
	}
	return nil
}

// anyCase reports whether name is one of Options.AnyCase in another
// letter case.
func (e *Engine) anyCase(name string) bool {
	for _, a := range e.opt.AnyCase {
		if len(name) == len(a) && name != a && strings.EqualFold(name, a) {
			return true
		}
	}
	return false
}

// also are Options.Also less the candidates (a name is one or the other).
func (e *Engine) also() []string { return e.alsoNames }

func (e *Engine) isAlso(name string) bool {
	for _, a := range e.alsoNames {
		if a == name {
			return true
		}
	}
	return false
}

func (e *Engine) newFile(dir, name string, ent Entry) *File {
	return &File{Path: path.Join(dir, name), Dir: dir, Name: name, Scope: ScopeProject,
		Override: e.isOverride(name), Entry: ent}
}

// load applies the read constraints C1–C5 to a chosen file. The error is
// the source's fatal error (F6): it stops the run, it rejects no layer.
func (e *Engine) load(f *File) error {
	f.read = true
	var err error
	switch f.Entry.Kind {
	case Regular:
	case Symlink:
		f.Rej, err = e.linkRejection(f)
		return err
	default:
		f.Rej = notRegular(f.Entry.Kind, f.Entry.Note)
		return nil
	}
	if w, ok := e.src.(*Worktree); ok && w.unmerged[f.Path] {
		f.Rej = Unmerged(false)
		return nil
	}
	data, kind, size, err := e.src.Read(f.Path, e.opt.MaxFileBytes)
	if IsFatal(err) {
		return fmt.Errorf("read %s: %w", f.Path, err)
	}
	if err == nil && kind == Symlink {
		f.Rej, err = e.linkRejection(f)
		return err
	}
	e.check(f, data, kind, size, err)
	return nil
}

func (e *Engine) linkRejection(f *File) (*Rejection, error) {
	if f.Entry.Note != "" {
		return &Rejection{Cause: CauseSymlink, Reason: "it is " + f.Entry.Note, Unstaged: f.Entry.Unstaged}, nil
	}
	r := &Rejection{Cause: CauseSymlink, Reason: "it is a symbolic link"}
	t, err := e.src.LinkTarget(f.Path)
	if err != nil {
		return nil, err
	}
	if t != "" {
		r.Target = t
		r.Reason += " to " + t
		if r.TargetIn, err = e.linkTargetInfo(f.Path, t); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// linkTargetInfo looks at the target t of the link at p when t names a
// path inside the root; nil otherwise, or when a directory on the way is
// a link (the path would then not be where its text says).
func (e *Engine) linkTargetInfo(p, t string) (*LinkTargetInfo, error) {
	if path.IsAbs(t) || strings.Contains(t, `\`) {
		return nil, nil
	}
	tp := path.Join(path.Dir(p), t)
	if tp == ".." || strings.HasPrefix(tp, "../") {
		return nil, nil
	}
	info := &LinkTargetInfo{Path: tp, Kind: Dir}
	if tp == "." {
		return info, nil
	}
	ent, err := e.src.Lstat(tp)
	switch {
	case IsFatal(err):
		return nil, err
	case errors.Is(err, fs.ErrNotExist):
		info.Kind = Missing
	case err != nil:
		return nil, nil
	default:
		info.Kind = ent.Kind
	}
	info.Candidate = slices.Contains(e.candidates, path.Base(tp))
	return info, nil
}

// notRegular is C2's rejection; note is the entry's Note (a noun phrase
// with its article), "" for the kind's name.
func notRegular(k Kind, note string) *Rejection {
	what := "a " + k.String()
	if note != "" {
		what = note
	}
	return &Rejection{Cause: CauseNotRegular, Reason: "it is " + what + ", not a regular file"}
}

// check turns the outcome of one read into an accepted file or a rejection.
func (e *Engine) check(f *File, data []byte, kind Kind, size int64, err error) {
	if re := (*RejectError)(nil); errors.As(err, &re) {
		f.Rej = re.Rej // F5: the source predicted the rejection
		return
	}
	switch {
	case err != nil:
		f.Rej = &Rejection{Cause: CauseUnreadable, Reason: err.Error()}
	case kind == Symlink:
		f.Rej = &Rejection{Cause: CauseSymlink, Reason: "it is a symbolic link"}
	case kind == Missing:
		f.Rej = &Rejection{Cause: CauseVanished, Reason: "it vanished while being read"}
	case kind != Regular:
		f.Rej = notRegular(kind, "")
	case size > e.opt.MaxFileBytes || int64(len(data)) > e.opt.MaxFileBytes:
		if size < int64(len(data)) {
			size = int64(len(data))
		}
		f.Rej = &Rejection{Cause: CauseOversized, Size: size, Limit: e.opt.MaxFileBytes,
			Reason: fmt.Sprintf("it is %d bytes, over the limit of %d (limits.max_file_bytes)", size, e.opt.MaxFileBytes)}
		if int64(len(data)) > e.opt.MaxFileBytes {
			f.Rej.Reason = fmt.Sprintf("it is over %d bytes, the limit (limits.max_file_bytes)", e.opt.MaxFileBytes)
		}
		f.raw = data
	default:
		if inv := content.CheckUTF8(data); inv != nil {
			r := &Rejection{Cause: CauseNotUTF8, Pos: inv.Pos, BOM: inv.BOM,
				Reason: fmt.Sprintf("it is not valid UTF-8: first invalid byte at line %d, column %d (offset %d)", inv.Line, inv.Column, inv.Offset)}
			if inv.BOM != "" {
				r.Reason = "it is encoded as " + inv.BOM + " (it starts with a " + inv.BOM + " byte-order mark), not UTF-8"
			}
			f.Rej = r
			f.raw = data
			return
		}
		f.Content, f.raw = data, data
		f.Sum = sha256.Sum256(data)
	}
}

func (e *Engine) loadUser(u *UserFile) *File {
	f := &File{Path: u.Display, Name: path.Base(u.Path), Scope: ScopeUser, Location: u.Location, read: true}
	data, kind, size, err := ReadFile(u.Path, e.opt.MaxFileBytes)
	if kind == Missing && errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	f.Entry = Entry{Name: f.Name, Kind: kind, Size: size}
	if kind == Symlink {
		f.Rej = &Rejection{Cause: CauseSymlink, Reason: "it is a symbolic link"}
		if t, err := os.Readlink(u.Path); err == nil {
			f.Rej.Target = t
			f.Rej.Reason += " to " + t
		}
		return f
	}
	e.check(f, data, kind, size, err)
	return f
}

// User returns the user layer's file, or nil when there is none.
func (e *Engine) User() *File { return e.user }

func byName(a, b child) int { return strings.Compare(a.name, b.name) }

// ParentDir is the parent of a slash path relative to the root ("" for
// the root's children): the one helper every package uses.
func ParentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// DisplayDir shows a directory relative to the root: "." for the root.
func DisplayDir(d string) string {
	if d == "" {
		return "."
	}
	return d
}

// Listed returns what the engine knows of directory dir, without listing
// it: false when it has not loaded it.
func (e *Engine) Listed(dir string) (*DirInfo, bool) {
	d, ok := e.dirs[dir]
	if !ok || d.err != nil {
		return nil, false
	}
	return d, true
}
