package codex

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// The Codex CLI's fixed names (codex-rs/core/src/agents_md.rs).
const (
	overrideName = "AGENTS.override.md"
	normalName   = "AGENTS.md"
	// separator marks where the user's instructions end and the
	// project's begin.
	separator = "\n\n--- project-doc ---\n\n"
)

// DefaultMaxBytes is Codex's project_doc_max_bytes default.
const DefaultMaxBytes = 32768

// Options are the codex profile's settings: the config's codex:
// section, and where the run finds what Codex would find on the machine.
type Options struct {
	MaxBytes  int64    // project_doc_max_bytes
	Fallbacks []string // project_doc_fallback_filenames
	// RootMarkers is project_root_markers; nil is Codex's default, .git.
	RootMarkers []string
	// RootAbs is the root's absolute, physical path: a chain's directory
	// as Codex names it, and where an absolute link target is mapped back.
	RootAbs string
	// RootMarked says the root holds a .git entry on the disk (it is the
	// Git top), which a commit's tree or the index do not list.
	RootMarked bool
	// MarkerAbove returns the nearest directory above the root holding one
	// of markers, "" for none; nil looks nowhere. Codex walks up to the
	// file system's root; only names are looked at there, nothing is read.
	MarkerAbove func(markers []string) string
	// User is the user's instructions file Codex would read, from
	// CODEX_HOME; nil for none (CI, tests).
	User *agent.UserFile
}

// markers returns the root markers in force.
func (o *Options) markers() []string {
	if o.RootMarkers == nil {
		return []string{".git"}
	}
	return o.RootMarkers
}

// Names are the file names Codex tries in each directory, in order.
func (o *Options) Names() []string {
	names := []string{overrideName, normalName}
	for _, f := range o.Fallbacks {
		if f != "" && !slices.Contains(names, f) {
			names = append(names, f)
		}
	}
	return names
}

// Also are the names the engine's listings must keep for this profile:
// its file names and its one-element root markers.
func (o *Options) Also() []string {
	out := o.Names()
	for _, m := range o.markers() {
		if m != "" && !strings.Contains(m, "/") && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// Resolver resolves Codex chains over an engine's listings and reads:
// every directory is listed once, by the engine, and each file read once,
// reusing what the engine read.
type Resolver struct {
	e     agent.Engine
	o     Options
	names []string
	// slots are the directories' slots, each with where its chain
	// starts: one map, not a second one for the starts (a whole
	// worktree's 10,000 directories grew both).
	slots map[string]*slot
	above *string
	// slab and views are where the next slot and the next shared view
	// are taken from: made in blocks, one allocation for many, as nearly
	// every directory of a worktree has a slot and a shared view.
	slab  []slot
	views []agent.View
}

// slabSize is the number of slots, and of views, made at once.
const slabSize = 256

// newSlot returns a new slot, from the slab.
func (c *Resolver) newSlot() *slot {
	if len(c.slab) == 0 {
		c.slab = make([]slot, slabSize)
	}
	s := &c.slab[0]
	c.slab = c.slab[1:]
	s.chosen = -1
	return s
}

// newView returns a copy of v, from the block of views.
func (c *Resolver) newView(v *agent.View) *agent.View {
	if len(c.views) == 0 {
		c.views = make([]agent.View, slabSize)
	}
	cp := &c.views[0]
	c.views = c.views[1:]
	*cp = *v
	return cp
}

// slot is what one directory holds for Codex, independent of any chain.
type slot struct {
	tried  []agent.Candidate // in name order: those skipped, then the chosen, then the shadowed
	chosen int               // index in tried; -1 for none
	data   []byte            // the chosen file's first MaxBytes bytes
	size   int64
	lost   string // an error Codex meets here ("" none)
	// readErr is an error reading the chosen file: Codex meets it only
	// when the budget reaches the file.
	readErr string
	// inexact says why the chosen file's bytes as Codex reads them are
	// not known here: a checkout converts them (F5).
	inexact string
	marked  bool        // the directory holds a root marker
	linked  bool        // the directory is below a link (Codex's cwd never is)
	view    *agent.View // the chain from here, once resolved
	st      startAt     // where the chain from here starts, once stKnown
	stKnown bool
	// markerOutside is a root marker here that is a link out of the
	// root: Codex counts it if its target exists, which is not known.
	markerOutside string
	// whole is the chosen file's text as Codex loads it when the budget
	// takes all of data, worked out once: every view below the directory
	// holds it, and most hold it whole.
	whole *loadedText
}

type loadedText struct {
	text    []byte // invalid bytes replaced
	blank   bool   // whitespace only
	invalid bool   // some bytes were replaced
}

// textOf is how Codex loads kept, a prefix of s.data.
func (s *slot) textOf(kept []byte) loadedText {
	if len(kept) == len(s.data) && s.whole != nil {
		return *s.whole
	}
	text := content.Lossy(kept)
	t := loadedText{text: text, blank: len(bytes.TrimFunc(text, unicode.IsSpace)) == 0, invalid: !utf8.Valid(kept)}
	if len(kept) == len(s.data) {
		s.whole = &t
	}
	return t
}

type startAt struct {
	// inexact says why where the chain starts is not known here.
	inexact string
	dir     string // the chain's first directory
	none    bool   // no marker anywhere: the chain is the directory alone
	above   string // the marker lies above the root: its directory
	lost    string
}

// New returns a resolver over e, whose listings must keep o.Also().
func New(e agent.Engine, o Options) *Resolver {
	return &Resolver{e: e, o: o, names: o.Names(), slots: map[string]*slot{}}
}

// Options returns the resolver's options.
func (c *Resolver) Options() *Options { return &c.o }

// Names implements agent.Resolver: the names tried in each directory.
func (c *Resolver) Names() []string { return c.names }

// Profile implements agent.Resolver.
func (c *Resolver) Profile() *agent.Profile { return Profile }

// View resolves Codex's chain from dir (relative to the root), once per
// directory. The view is the resolver's, its candidates shared with other
// directories' views: read-only.
func (c *Resolver) View(dir string) (*agent.View, error) {
	s, err := c.slot(dir)
	if err != nil {
		return nil, err
	}
	return c.viewOf(dir, s)
}

// viewOf is View with dir's slot s at hand: no second lookup of it.
func (c *Resolver) viewOf(dir string, s *slot) (*agent.View, error) {
	if s.view != nil {
		return s.view, nil
	}
	v, err := c.resolveView(dir, s)
	if err != nil {
		return nil, err
	}
	s.view = v
	return v, nil
}

// resolveView resolves dir's chain, d its slot. A directory holding none
// of Codex's names and no root marker adds nothing to its parent's chain:
// its view is the parent's, candidates shared. Most directories of a
// large repository hold none, and building each of their chains again
// made 43% of the views' allocations on the benchmark's worktree (A8).
func (c *Resolver) resolveView(dir string, d *slot) (*agent.View, error) {
	// A directory that adds nothing (no name of Codex's, no marker, no
	// marker it cannot judge) has its parent's chain, when there is a
	// chain from a marker: with none anywhere each directory is a chain
	// of its own.
	share := dir != "" && len(c.o.markers()) > 0 && len(d.tried) == 0 && !d.marked && !d.linked && d.lost == "" && d.markerOutside == ""
	if share {
		st, err := c.startFrom(dir, d)
		if err != nil {
			return nil, err
		}
		share = !st.none
	}
	if share {
		parent := resolve.ParentDir(dir)
		ps, err := c.slot(parent)
		if err != nil {
			return nil, err
		}
		if !ps.linked {
			pv, err := c.viewOf(parent, ps)
			if err != nil {
				return nil, err
			}
			cp := c.newView(pv)
			cp.Dir = dir
			cp.Shares = pv.Origin()
			return cp, nil
		}
	}
	// Made only here: a shared view is its parent's, copied.
	v := &agent.View{Dir: dir, User: c.o.User, RootAbs: c.o.RootAbs, Render: render}
	if d.linked {
		v.Inexact = "the directory is below a symbolic link: Codex, started there, runs in the link's target and resolves that directory's chain"
		return v, nil
	}
	st, err := c.startFrom(dir, d)
	if err != nil {
		return nil, err
	}
	v.Inexact = st.inexact
	first := "" // the chain's first directory
	switch {
	case st.none:
		first = dir
	case st.above != "":
		v.Inexact = "Codex's chain starts at " + st.above + ", above the repository's root (a root marker there); rivumi-lint reads only the repository"
	default:
		first = st.dir
		v.Start = st.dir
	}
	v.Lost = st.lost
	slots, err := c.chain(dir, first)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, s := range slots {
		if v.Lost == "" && s.lost != "" {
			v.Lost = s.lost
		}
		n += len(s.tried)
	}
	if c.o.MaxBytes == 0 {
		v.Lost = ""
		for _, s := range slots {
			for _, t := range s.tried {
				if t.State == agent.NotAFile {
					continue
				}
				t.State, t.Reason = agent.Disabled, "project_doc_max_bytes is 0: Codex reads no project file"
				v.Candidates = append(v.Candidates, t)
			}
		}
		return v, nil
	}
	if n > 0 {
		// One candidate per name tried: made at that size, not grown
		// (nil stays nil for a chain with none).
		v.Candidates = make([]agent.Candidate, 0, n)
	}
	remaining := c.o.MaxBytes
	for _, s := range slots {
		for i, t := range s.tried {
			if i != s.chosen {
				v.Candidates = append(v.Candidates, t)
				continue
			}
			if v.Lost != "" {
				t.State, t.Reason = agent.Failed, "Codex met an error on the chain and loads no project file: "+v.Lost
				v.Candidates = append(v.Candidates, t)
				continue
			}
			if t.State == agent.Outside {
				if v.Inexact == "" {
					v.Inexact = t.Path + " " + t.Reason
				}
				v.Candidates = append(v.Candidates, t)
				continue
			}
			if remaining == 0 {
				t.State, t.Reason = agent.Dropped, fmt.Sprintf("the files before it use up project_doc_max_bytes (%d); Codex stops there", c.o.MaxBytes)
				t.Budget = c.o.MaxBytes
				v.Candidates = append(v.Candidates, t)
				continue
			}
			if s.inexact != "" && v.Inexact == "" {
				v.Inexact = t.Path + ": " + s.inexact
			}
			if s.readErr != "" {
				v.Lost = s.readErr
				t.State, t.Reason = agent.Failed, "Codex cannot read it and loads no project file: "+s.readErr
				v.Candidates = append(v.Candidates, t)
				continue
			}
			kept := s.data
			cut := s.size > remaining
			if s.data == nil && s.size > 0 {
				// Its bytes are not known here (s.inexact): counted, not shown.
				t.Kept = min(s.size, remaining)
				t.State, t.Reason = agent.Loaded, "its bytes are not known here: "+s.inexact
				if cut {
					t.State = agent.Truncated
				}
				remaining -= t.Kept
				v.Candidates = append(v.Candidates, t)
				continue
			}
			if cut && int64(len(kept)) > remaining {
				kept = kept[:remaining] // fewer bytes than its size: it shrank while read
			}
			loaded := s.textOf(kept)
			if loaded.blank {
				t.State, t.Reason = agent.Empty, "its text is whitespace only: Codex adds nothing for it and counts none of its bytes"
				if cut {
					t.Reason = fmt.Sprintf("the %d bytes of it that fit the budget are whitespace only: Codex adds nothing for it", len(kept))
				}
				if s.size == 0 {
					t.Reason = "it is empty: Codex adds nothing for it"
				}
				v.Candidates = append(v.Candidates, t)
				continue
			}
			t.Text = loaded.text
			t.Kept = int64(len(kept))
			t.State, t.Reason = agent.Loaded, "loaded whole"
			if cut {
				pos := content.PosAt(s.data, len(kept))
				t.State, t.Line, t.Column, t.Budget = agent.Truncated, pos.Line, pos.Column, c.o.MaxBytes
				t.Reason = fmt.Sprintf("cut after %d of its %d bytes (line %d, column %d): project_doc_max_bytes (%d) is used up there", len(kept), s.size, pos.Line, pos.Column, c.o.MaxBytes)
			}
			if loaded.invalid {
				t.Replaced = true
				t.Reason += "; its invalid UTF-8 bytes are replaced with U+FFFD"
			}
			remaining -= int64(len(kept))
			v.Candidates = append(v.Candidates, t)
		}
	}
	if v.Lost != "" {
		for i := range v.Candidates {
			switch v.Candidates[i].State {
			case agent.Loaded, agent.Truncated, agent.Empty, agent.Dropped:
				v.Candidates[i].State = agent.Failed
				v.Candidates[i].Reason = "Codex met an error on the chain and loads no project file: " + v.Lost
				v.Candidates[i].Text = nil
			}
		}
	}
	return v, nil
}

// chain returns the slots of the directories from first down to dir,
// first an ancestor of dir (agent.Ancestors), made at their number: no
// list of the directories' names is built for it.
func (c *Resolver) chain(dir, first string) ([]*slot, error) {
	n := 1
	for d := dir; d != first && d != ""; d = resolve.ParentDir(d) {
		n++
	}
	slots := make([]*slot, n)
	d := dir
	for i := n - 1; i >= 0; i-- {
		s, err := c.slot(d)
		if err != nil {
			return nil, err
		}
		slots[i], d = s, resolve.ParentDir(d)
	}
	return slots, nil
}

// startOf finds where dir's chain starts: the nearest directory at or
// above it holding a root marker.
func (c *Resolver) startOf(dir string) (startAt, error) {
	var st startAt
	if len(c.o.markers()) == 0 {
		st.none = true
		return st, nil
	}
	s, err := c.slot(dir)
	if err != nil {
		return st, err
	}
	return c.startFrom(dir, s)
}

// startFrom is startOf with dir's slot s at hand.
func (c *Resolver) startFrom(dir string, s *slot) (startAt, error) {
	var st startAt
	if len(c.o.markers()) == 0 {
		st.none = true
		return st, nil
	}
	if s.stKnown {
		return s.st, nil
	}
	var err error
	switch {
	case s.lost != "" && s.marked:
		st.dir, st.lost = dir, s.lost
	case s.marked:
		st.dir = dir
	case dir == "":
		if c.above == nil {
			a := ""
			if c.o.MarkerAbove != nil {
				a = c.o.MarkerAbove(c.o.markers())
			}
			c.above = &a
		}
		if *c.above != "" {
			st.above = *c.above
		} else {
			st.none = true
		}
	default:
		if st, err = c.startOf(resolve.ParentDir(dir)); err != nil {
			return st, err
		}
		if st.none {
			st.dir = "" // the chain is dir alone, not the parent alone
		}
	}
	if !s.marked && s.markerOutside != "" && st.inexact == "" {
		st.inexact = "the root marker " + s.markerOutside + " leads out of the repository: whether Codex's chain starts there is not known here"
	}
	s.st, s.stKnown = st, true
	return st, nil
}

// slot reads what directory dir holds for Codex, once.
func (c *Resolver) slot(dir string) (*slot, error) {
	if s, ok := c.slots[dir]; ok {
		return s, nil
	}
	s := c.newSlot()
	c.slots[dir] = s
	info, err := c.e.Dir(dir)
	if err != nil {
		delete(c.slots, dir)
		return nil, err
	}
	if info.Linked != "" {
		s.linked = true
		return s, nil
	}
	if err := c.markers(s, dir, info); err != nil {
		return nil, err
	}
	for _, name := range c.names {
		ent, ok := info.Lookup(name)
		if !ok {
			continue
		}
		p := path.Join(dir, name)
		t := agent.Candidate{Path: p, Size: -1}
		if s.chosen >= 0 {
			t.State, t.Reason = agent.Shadowed, "Codex takes "+s.tried[s.chosen].Path+" for this directory, the first name that is a file"
			s.tried = append(s.tried, t)
			continue
		}
		target := p
		if ent.Kind == resolve.Symlink {
			f, err := agent.Follow(c.e.Source(), c.o.RootAbs, p)
			if err != nil {
				return nil, fmt.Errorf("follow %s: %w", p, err)
			}
			switch f.Walk {
			case agent.WalkNotFound:
				t.State, t.Reason = agent.NotAFile, "a dangling symbolic link: Codex skips it"
				s.tried = append(s.tried, t)
				continue
			case agent.WalkLooped:
				s.lost = "following " + p + " loops through links (too many levels of symbolic links)"
				t.State, t.Reason = agent.Failed, s.lost
				s.tried = append(s.tried, t)
				return s, nil
			case agent.WalkNotDir:
				s.lost = "the link " + p + " leads through " + f.Target + ", which is not a directory"
				t.State, t.Reason = agent.Failed, s.lost
				s.tried = append(s.tried, t)
				return s, nil
			case agent.WalkOutside:
				t.State, t.Reason = agent.Outside, "is a symbolic link out of the repository (to "+f.Target+"), which Codex follows; rivumi-lint reads nothing outside the root, so what Codex loads from here on is not known"
				s.chosen = len(s.tried)
				s.tried = append(s.tried, t)
				continue
			}
			target, ent = f.Path, f.Ent
			t.Link = target
		}
		if ent.Kind != resolve.Regular {
			what := ent.Kind.String()
			if t.Link != "" {
				what = "a symbolic link to a " + what
			} else {
				what = "a " + what
			}
			t.State, t.Reason = agent.NotAFile, "it is "+what+", not a file: Codex tries the next name"
			s.tried = append(s.tried, t)
			continue
		}
		s.chosen = len(s.tried)
		if err := c.read(s, target); err != nil {
			return nil, err
		}
		t.Size = s.size
		s.tried = append(s.tried, t)
	}
	return s, nil
}

// markers records whether dir holds one of the root markers.
func (c *Resolver) markers(s *slot, dir string, info *resolve.DirInfo) error {
	for _, m := range c.o.markers() {
		if m == "" {
			continue
		}
		if dir == "" && m == ".git" && c.o.RootMarked {
			s.marked = true
			return nil
		}
		if !strings.Contains(m, "/") {
			ent, ok := info.Lookup(m)
			if !ok {
				continue
			}
			if ent.Kind != resolve.Symlink {
				s.marked = true
				return nil
			}
		}
		f, err := agent.Follow(c.e.Source(), c.o.RootAbs, path.Join(dir, m))
		if err != nil {
			return fmt.Errorf("follow %s: %w", path.Join(dir, m), err)
		}
		// A marker Codex cannot stat (a loop, a file on the way, a
		// dangling link) is no marker: it looks on upwards.
		switch f.Walk {
		case agent.WalkFound:
			s.marked = true
			return nil
		case agent.WalkOutside:
			// Whether it leads to something is not known here.
			if s.markerOutside == "" {
				s.markerOutside = path.Join(dir, m) + " (a link to " + f.Target + ")"
			}
		}
	}
	return nil
}

// read fills s with the first MaxBytes bytes of the file at p (a path
// with no link on the way): what the engine read of it when that is
// enough, else one read of the source.
func (c *Resolver) read(s *slot, p string) error {
	limit := c.o.MaxBytes
	if info, ok := c.e.Listed(resolve.ParentDir(p)); ok {
		for _, f := range info.Files {
			if f.Path != p {
				continue
			}
			data, whole := f.Bytes()
			size := int64(len(data))
			if !whole && f.Rej != nil && f.Rej.Cause == resolve.CauseOversized && f.Rej.Size > size {
				size = f.Rej.Size // the size the engine stat'ed: a prefix of known length
				whole = int64(len(data)) >= limit
			}
			if data != nil && whole {
				if int64(len(data)) > limit {
					data = data[:limit]
				}
				s.data, s.size = data, size
				return nil
			}
		}
	}
	src := c.e.Source()
	data, kind, size, err := src.Read(p, limit)
	if err == nil && data == nil && kind == resolve.Regular && size > limit {
		// A source reads nothing of a file over the limit (C3: the size
		// decides first); Codex reads its first bytes, so the file is
		// read whole once.
		if size > maxWholeBlob {
			s.inexact = fmt.Sprintf("it is %d bytes, more than this tool reads whole to take its first %d", size, limit)
			s.size = size
			return nil
		}
		data, kind, size, err = src.Read(p, size)
	}
	if resolve.IsFatal(err) {
		return fmt.Errorf("read %s: %w", p, err)
	}
	var re *resolve.RejectError
	switch {
	case errors.As(err, &re):
		// The checkout holds other bytes than the object (F5): Codex reads
		// those, which this snapshot does not have.
		s.inexact = re.Rej.Reason
		s.size = size
		return nil
	case err != nil && errors.Is(err, fs.ErrNotExist):
		s.readErr = p + " vanished while being read"
	case err != nil:
		s.readErr = err.Error()
	case kind != resolve.Regular:
		s.readErr = p + " is no longer a regular file"
	}
	if conv, ok := src.(interface{ Converts(p string) string }); ok && err == nil {
		if why := conv.Converts(p); why != "" {
			s.inexact = why
		}
	}
	if size < int64(len(data)) {
		size = int64(len(data))
	}
	if int64(len(data)) > limit {
		data = data[:limit]
	}
	s.data, s.size = data, size
	return nil
}

// maxWholeBlob bounds the Git object read whole for its first bytes.
const maxWholeBlob = 256 << 20

func utf8Valid(b []byte) bool { return bytes.Equal(content.Lossy(b), b) }

// ReadUser reads the user-level file Codex would read from home
// ($CODEX_HOME, or ~/.codex): AGENTS.override.md, else AGENTS.md, the
// first that is a file whose text is not whitespace only; nil for none.
// Links are followed (the user's own files, as Codex reads them).
func ReadUser(home string) (*agent.UserFile, error) {
	if home == "" {
		return nil, nil
	}
	for _, name := range []string{overrideName, normalName} {
		p := filepath.Join(home, name)
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if st.Size() > maxUserBytes {
			return nil, fmt.Errorf("read %s: it is %d bytes, more than the %d this tool reads of a user file", p, st.Size(), maxUserBytes)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		// Codex trims the user's text at both ends (Unicode White_Space).
		text := bytes.TrimFunc(content.Lossy(data), unicode.IsSpace)
		if len(text) == 0 {
			continue
		}
		return &agent.UserFile{Path: p, Text: text}, nil
	}
	return nil, nil
}

// maxUserBytes bounds the user file read whole (Codex has no limit; a
// user file of this size is a mistake worth an error).
const maxUserBytes = 16 << 20

// FileState is what Codex does with the file at p as a candidate of its
// directory, whatever chain it is in: the directory's chosen file is
// Loaded (Outside when it leads out of the root, Failed on an error),
// the others as Codex passes them. ok is false when p is not one of
// Codex's names, or its directory cannot be resolved.
func (c *Resolver) FileState(p string) (agent.Candidate, bool) {
	s, err := c.slot(resolve.ParentDir(p))
	if err != nil || s.linked {
		return agent.Candidate{}, false
	}
	for i, t := range s.tried {
		if t.Path != p {
			continue
		}
		if i == s.chosen && t.State == "" {
			t.State, t.Reason = agent.Loaded, "loaded"
			switch {
			case c.o.MaxBytes == 0:
				t.State, t.Reason = agent.Disabled, "project_doc_max_bytes is 0: Codex reads no project file"
			case s.readErr != "":
				t.State, t.Reason = agent.Failed, "Codex cannot read it and loads no project file: "+s.readErr
			case !utf8Valid(s.data):
				t.Replaced, t.Reason = true, "loaded with its invalid UTF-8 bytes replaced"
			}
		}
		return t, true
	}
	return agent.Candidate{}, false
}
