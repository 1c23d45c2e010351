// Package copilot is the copilot profile (#35): what GitHub Copilot CLI
// 1.0.102 loads, as docs/agent-profiles.md ("What GitHub Copilot CLI
// 1.0.102 does", rules 1–8) states it from runs of the binary (its loader
// is closed source: the fixed trees of TestCopilotHarnessTrees are the
// evidence).
package copilot

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
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// The names Copilot reads in each directory of its chain (rule 2), in
// its order, and the folders it reads at the Git root and the working
// directory (rule 4).
const (
	copilotName     = ".github/copilot-instructions.md"
	instructionsDir = ".github/instructions"
	instructionsExt = ".instructions.md"
	rulesDir        = ".claude/rules"
)

var chainNames = []string{"AGENTS.md", "CLAUDE.md", "GEMINI.md"}

// maxRead bounds a file read whole: Copilot has no cut for a repository
// file (rule 5); a larger one makes the view not exact.
const maxRead = 64 << 20

// Options are the copilot profile's settings: where the run finds what
// Copilot would find on the machine.
type Options struct {
	// RootAbs is the root's absolute, physical path: imports are named by
	// it.
	RootAbs string
	// Git says the root is the top of a Git working tree: the chain runs
	// from it (rule 1). Without Git the chain is the directory alone.
	Git bool
	// GitAbove says the root lies inside a Git working tree below its
	// top: Copilot's chain starts above the root, which is not read.
	GitAbove bool
	// User are the user's files under ~/.copilot (ReadUser); nil for none.
	User *User
	// CustomDirs is COPILOT_CUSTOM_INSTRUCTIONS_DIRS, not modelled: a
	// view is not exact when it is set.
	CustomDirs string
}

// User is what Copilot reads of ~/.copilot (rules 3, 4, 8).
type User struct {
	Instructions *agent.UserFile // copilot-instructions.md
	Folder       []folderFile    // instructions/**/*.instructions.md, sorted
	Inexact      string
}

// Resolver resolves Copilot's views over an engine's listings and reads.
type Resolver struct {
	e     agent.Engine
	o     Options
	files map[string]*file // by root-relative path
	views agent.ViewCache
	kept  []string                     // the names the engine's listings keep for it (Also)
	has   map[string]map[string]string // present's answers, by directory
	// caseInexact says why a chain file of a directory is not known
	// (by "dir\x00name"): several names that differ only in case.
	caseInexact map[string]string
	quiet       map[string]*agent.View // the views directories adding nothing share, by quietKey
	near        map[string]string      // nearest's answers
	texts       map[string]*chainText  // chainText's answers, by path
	// folders are the folder files of a directory's folder, listed once:
	// the root's are in every view.
	folders map[string]folderList
}

type folderList struct {
	files   []folderFile
	inexact []string
}

// New returns a resolver over e.
func New(e agent.Engine, o Options) *Resolver {
	return &Resolver{e: e, o: o, files: map[string]*file{}, views: agent.ViewCache{}, folders: map[string]folderList{}, kept: Also(), has: map[string]map[string]string{}, caseInexact: map[string]string{}, near: map[string]string{}, texts: map[string]*chainText{}, quiet: map[string]*agent.View{}}
}

// Also are the names the engine's listings must keep for this profile.
func Also() []string { return append(slices.Clone(chainNames), ".github", ".claude") }

// Profile implements agent.Resolver.
func (c *Resolver) Profile() *agent.Profile { return Profile }

// Names implements agent.Resolver: the names read in each directory.
func (c *Resolver) Names() []string { return slices.Clone(allNames) }

// file is one path as Copilot reads it.
type file struct {
	path    string // root-relative, as named
	real    string // where it leads once links are followed ("" none)
	linked  bool   // a link on the way
	kind    resolve.Kind
	data    []byte // BOM removed; nil when not a regular file
	bom     bool   // the bytes began with a BOM
	size    int64
	inexact string
}

// read reads p (root-relative) as Copilot opens it: links followed, inside
// the root only.
func (c *Resolver) read(p string) (*file, error) {
	if f, ok := c.files[p]; ok {
		return f, nil
	}
	f := &file{path: p, size: -1, kind: resolve.Missing}
	c.files[p] = f
	var fo agent.Followed
	var err error
	if ent, ok := c.known(p); ok {
		// The engine's listings say it: no lstat of each element.
		if ent.Kind == resolve.Missing {
			return f, nil
		}
		fo = agent.Followed{Walk: agent.WalkFound, Path: p, Ent: ent}
	} else if fo, err = agent.Follow(c.e.Source(), c.o.RootAbs, p); err != nil {
		return nil, fmt.Errorf("follow %s: %w", p, err)
	}
	switch fo.Walk {
	case agent.WalkNotFound:
		return f, nil
	case agent.WalkOutside:
		f.kind = resolve.Symlink
		f.inexact = p + " is a symbolic link out of the repository (to " + fo.Target + "), which Copilot follows; rivumi-lint reads nothing outside the root"
		return f, nil
	case agent.WalkFound:
	default:
		// A loop or a file on the way: Copilot cannot open it.
		f.kind = resolve.Symlink
		return f, nil
	}
	f.real, f.kind, f.linked = fo.Path, fo.Ent.Kind, fo.Path != p
	if f.kind != resolve.Regular {
		return f, nil
	}
	data, kind, size, err := c.readBytes(fo.Path)
	if resolve.IsFatal(err) {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	var re *resolve.RejectError
	switch {
	case errors.As(err, &re):
		f.inexact = p + ": " + re.Rej.Reason
		return f, nil
	case err != nil && errors.Is(err, fs.ErrNotExist):
		f.kind = resolve.Missing
		return f, nil
	case err != nil:
		f.inexact = p + ": " + err.Error()
		return f, nil
	case kind != resolve.Regular:
		f.kind = kind
		return f, nil
	case size > maxRead || int64(len(data)) > maxRead:
		f.inexact = fmt.Sprintf("%s is %d bytes, more than this tool reads whole", p, size)
		return f, nil
	}
	if conv, ok := c.e.Source().(interface{ Converts(p string) string }); ok {
		if why := conv.Converts(fo.Path); why != "" {
			f.inexact = p + ": " + why
		}
	}
	f.data, f.size = bytes.TrimPrefix(data, []byte("\ufeff")), size
	f.bom = len(f.data) < len(data)
	return f, nil
}

// readBytes reads the regular file at p: the bytes the engine read of it
// for Rivumi when it has them whole, else the source's.
func (c *Resolver) readBytes(p string) ([]byte, resolve.Kind, int64, error) {
	if info, ok := c.e.Listed(resolve.ParentDir(p)); ok && info.Linked == "" {
		for _, f := range info.Files {
			if data, whole := f.Bytes(); f.Path == p && data != nil && whole {
				return data, resolve.Regular, int64(len(data)), nil
			}
		}
	}
	return c.e.Source().Read(p, maxRead)
}

// allNames are the chain's names in a directory between the root and the
// working directory, in Copilot's order: there, and only there, it also
// reads .claude/CLAUDE.md (rule 2).
var allNames = []string{copilotName, "AGENTS.md", "CLAUDE.md", dotClaudeName, "GEMINI.md"}

const dotClaudeName = ".claude/CLAUDE.md"

// AnyCase are the names the engine's listings must keep in any letter
// case: Copilot reads agents.md or Agents.md as AGENTS.md (rule 2).
func AnyCase() []string { return slices.Clone(chainNames) }

// present are the chain's names that are there in d (not missing), each
// with the name it has there, found once per directory: every view below
// d reads the answer. Copilot takes the first entry of the directory, in
// its order on disk, that is the name in any letter case and a file
// (rule 2): where there are several, the order decides, which no listing
// keeps, and the view is not exact.
func (c *Resolver) present(d string) (map[string]string, error) {
	if has, ok := c.has[d]; ok {
		return has, nil
	}
	var has map[string]string // most directories: none, and no map
	add := func(n, name string) {
		if has == nil {
			has = map[string]string{}
		}
		has[n] = name
	}
	info, err := c.e.Dir(d)
	listed := err == nil && info.Linked == ""
	for _, n := range allNames {
		if !listed {
			f, err := c.read(path.Join(d, n))
			if err != nil {
				return nil, err
			}
			if f.kind != resolve.Missing {
				add(n, n)
			}
			continue
		}
		names, err := c.caseNames(d, info, n)
		if err != nil {
			return nil, err
		}
		switch len(names) {
		case 0:
			continue
		case 1:
			add(n, names[0])
			continue
		}
		c.caseInexact[d+"\x00"+n] = resolve.DisplayDir(d) + " has " + strings.Join(names, " and ") + ", names that differ only in case: Copilot reads the first in the directory's order on disk, which rivumi-lint does not know"
		if slices.Contains(names, n) {
			add(n, n)
		} else {
			add(n, names[0])
		}
	}
	c.has[d] = has
	return has, nil
}

// caseNames are the entries of d (listed as info) that are the name n in
// any letter case and lead to a file (or out of the root), sorted, as
// paths below d.
func (c *Resolver) caseNames(d string, info *resolve.DirInfo, n string) ([]string, error) {
	var names []string
	if sub, base, nested := strings.Cut(n, "/"); nested {
		// copilot-instructions.md in .github, CLAUDE.md in .claude: the
		// folder's name only as it is.
		if _, ok := info.Lookup(sub); !ok {
			return nil, nil
		}
		ents, err := c.e.Source().List(path.Join(d, sub))
		if err != nil {
			return nil, nil // not a directory it can list: nothing loads
		}
		for _, e := range ents {
			if len(e.Name) == len(base) && strings.EqualFold(e.Name, base) {
				names = append(names, sub+"/"+e.Name)
			}
		}
	} else {
		if _, ok := info.Lookup(n); ok {
			names = append(names, n)
		}
		for _, e := range info.Also {
			if e.Name != n && len(e.Name) == len(n) && strings.EqualFold(e.Name, n) {
				names = append(names, e.Name)
			}
		}
	}
	files := names[:0]
	for _, name := range names {
		f, err := c.read(path.Join(d, name))
		if err != nil {
			return nil, err
		}
		if f.kind == resolve.Regular || f.inexact != "" || len(names) == 1 {
			files = append(files, name)
		}
	}
	slices.Sort(files)
	return files, nil
}

// known is what the engine's listings already say of p, with no system
// call: missing, or a regular file with no link on the way; false when
// they do not say (a directory not listed, a link, a name not kept).
func (c *Resolver) known(p string) (resolve.Entry, bool) {
	dir, name := resolve.ParentDir(p), path.Base(p)
	info, ok := c.e.Listed(dir)
	if !ok {
		// The directory's own parent may show it missing.
		if dir == "" || dir == p {
			return resolve.Entry{}, false
		}
		if pe, ok := c.known(dir); ok && pe.Kind == resolve.Missing {
			return pe, true
		}
		return resolve.Entry{}, false
	}
	if info.Linked != "" {
		return resolve.Entry{}, false
	}
	ent, ok := info.Lookup(name)
	switch {
	case !ok && slices.Contains(c.kept, name):
		return resolve.Entry{Kind: resolve.Missing}, true // a kept name not listed: not there
	case ok && ent.Kind == resolve.Regular:
		return ent, true
	}
	return resolve.Entry{}, false
}

// View implements agent.Resolver: what Copilot loads when started in dir.
func (c *Resolver) View(dir string) (*agent.View, error) { return c.views.Get(dir, c.resolveView) }

// view is the state of one view being resolved.
type view struct {
	v      *agent.View
	blocks [][]byte
	seen   map[string]bool // texts of the blocks loaded
	real   map[string]bool // "dir\x00real path" of the files loaded
	folder [][]byte
	rows   []string
}

func (w *view) inexact(why string) {
	if w.v.Inexact == "" && why != "" {
		w.v.Inexact = why
	}
}

func (c *Resolver) resolveView(dir string) (*agent.View, error) {
	// A directory that adds nothing (no chain file, no folder of its
	// own) has the view of every such directory below the same nearest
	// directory that does: computed once, shared (the lint rules then see
	// one origin).
	key, quiet, err := c.quietKey(dir)
	if err != nil {
		return nil, err
	}
	if v, ok := c.quiet[key]; quiet && ok {
		cp := *v
		cp.Dir = dir
		cp.Shares = v.Origin()
		return &cp, nil
	}
	v, err := c.ownView(dir)
	if err == nil && quiet {
		c.quiet[key] = v
	}
	return v, err
}

// quietKey says whether dir adds nothing to its chain and, if so, which
// views it shares: those of the directories below the same nearest one
// between it and the root that has a chain file (Copilot's order puts the
// root's first, then the working directory's, then the ones between from
// the bottom up, so a directory adding nothing only moves that start).
func (c *Resolver) quietKey(dir string) (string, bool, error) {
	if dir == "" {
		return "", false, nil
	}
	info, err := c.e.Dir(dir) // the view lists it anyway
	if err != nil {
		return "", false, err
	}
	for _, n := range []string{".github", ".claude"} {
		if _, has := info.Lookup(n); has {
			return "", false, nil
		}
	}
	has, err := c.present(dir)
	if err != nil || len(has) > 0 {
		return "", false, err
	}
	key := "\x00nogit"
	if c.o.Git || c.o.GitAbove {
		near, err := c.nearest(resolve.ParentDir(dir))
		if err != nil {
			return "", false, err
		}
		key = near
	}
	if info.Linked != "" {
		key += "\x00linked"
	}
	return key, true, nil
}

// nearest is the nearest directory at or above d, below the root, that
// has a chain file ("\x00top" when none has), once per directory.
func (c *Resolver) nearest(d string) (string, error) {
	if d == "" {
		return "\x00top", nil
	}
	if n, ok := c.near[d]; ok {
		return n, nil
	}
	h, err := c.present(d)
	if err != nil {
		return "", err
	}
	n := d
	if len(h) == 0 {
		if n, err = c.nearest(resolve.ParentDir(d)); err != nil {
			return "", err
		}
	}
	c.near[d] = n
	return n, nil
}

// ownView resolves dir's view.
func (c *Resolver) ownView(dir string) (*agent.View, error) {
	w := &view{v: &agent.View{Dir: dir, RootAbs: c.o.RootAbs}, seen: map[string]bool{}, real: map[string]bool{}}
	info, err := c.e.Dir(dir)
	if err != nil {
		return nil, err
	}
	if info.Linked != "" {
		w.inexact("the directory is below a symbolic link: Copilot, started there, runs in the link's target")
	}
	if c.o.GitAbove {
		w.inexact("the root lies inside a Git working tree below its top: Copilot's chain starts at the top, above the root, which rivumi-lint does not read")
	}
	if c.o.CustomDirs != "" {
		w.inexact("COPILOT_CUSTOM_INSTRUCTIONS_DIRS is set (" + c.o.CustomDirs + "): the files Copilot reads from those directories are not modelled")
	}
	// Rule 1: the Git root, the working directory, the directories between
	// from the working directory's parent upward; no Git, dir alone.
	first := []string{dir}
	var between []string
	folders := []string{dir}
	// Below the Git top the chain is modelled from the root, as far as
	// the repository goes (the view says it is not exact).
	if (c.o.Git || c.o.GitAbove) && dir != "" {
		first = []string{"", dir}
		folders = first
		for d := resolve.ParentDir(dir); d != ""; d = resolve.ParentDir(d) {
			between = append(between, d)
		}
	}
	if u := c.o.User; u != nil {
		w.inexact(u.Inexact)
		if u.Instructions != nil {
			w.v.User = u.Instructions
			w.add(u.Instructions.Text, nil)
		}
	}
	// Rule 3: the copilot-instructions.md of the root and the working
	// directory, then their AGENTS/CLAUDE/GEMINI, then the directories
	// between, each with its names (allNames).
	load := func(d string, names []string) error {
		has, err := c.present(d)
		if err != nil {
			return err
		}
		for _, n := range names {
			if why := c.caseInexact[d+"\x00"+n]; why != "" {
				w.inexact(why)
			}
			if name, ok := has[n]; ok {
				if err := c.chainFile(w, d, name); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, names := range [][]string{{copilotName}, chainNames} {
		for _, d := range first {
			if err := load(d, names); err != nil {
				return nil, err
			}
		}
	}
	for _, d := range between {
		if err := load(d, allNames); err != nil {
			return nil, err
		}
	}
	// Rule 4: the folder files, the user's first.
	if u := c.o.User; u != nil {
		for _, f := range u.Folder {
			w.folderFile(f, f.abs)
		}
	}
	for _, d := range folders {
		for _, spec := range []struct {
			dir, ext string
			key      string
		}{{instructionsDir, instructionsExt, "applyTo"}, {rulesDir, ".md", "paths"}} {
			files, err := c.folder(w, d, spec.dir, spec.ext, spec.key)
			if err != nil {
				return nil, err
			}
			for _, f := range files {
				shown := f.path
				if d != "" {
					shown = strings.TrimPrefix(f.path, d+"/")
				}
				w.folderFile(f, shown)
				t := agent.Candidate{Path: f.path, Size: int64(len(f.text)), State: agent.Loaded, Reason: "a folder file Copilot inlines", Text: f.text}
				if f.pattern != "" {
					t.State, t.Reason, t.Text = agent.Conditional, "a folder file Copilot lists in its table for "+f.pattern, nil
				}
				w.v.Candidates = append(w.v.Candidates, t)
			}
		}
	}
	// The folders of the directories between are never read: their files
	// are candidates Copilot ignores, for a rule to name.
	for _, d := range between {
		if err := c.unreadFolder(w, d); err != nil {
			return nil, err
		}
	}
	w.v.Render = render(w.blocks, w.folder, w.rows)
	return w.v, nil
}

// unreadFolder adds the files of d's .github/instructions, which Copilot
// reads only at the Git root and in its working directory (rule 4), as
// candidates it ignores from this view.
func (c *Resolver) unreadFolder(w *view, d string) error {
	info, err := c.e.Dir(d)
	if err != nil {
		return err
	}
	if _, ok := info.Lookup(".github"); !ok {
		return nil // most directories: no listing to make
	}
	l, err := c.listed(d, instructionsDir, instructionsExt, "applyTo")
	if err != nil {
		return err
	}
	for _, f := range l.files {
		w.v.Candidates = append(w.v.Candidates, agent.Candidate{Path: f.path, Size: int64(len(f.text)), State: agent.Ignored,
			Reason: "a folder file of " + resolve.DisplayDir(d) + ", which Copilot reads only when started there"})
	}
	return nil
}

// add appends a block unless its text was loaded already (rule 7).
func (w *view) add(text []byte, t *agent.Candidate) bool {
	if w.seen[string(text)] {
		if t != nil {
			// Its text is in the span, once: the state stays loaded (a
			// rule comparing agents sees the same bytes), the reason says
			// the block is not repeated.
			t.Reason = "its text equals a block Copilot loaded before it: the block is sent once"
		}
		return false
	}
	w.seen[string(text)] = true
	w.blocks = append(w.blocks, text)
	return true
}

// chainFile loads d's file called name, if any.
func (c *Resolver) chainFile(w *view, d, name string) error {
	p := path.Join(d, name)
	f, err := c.read(p)
	if err != nil {
		return err
	}
	if f.kind == resolve.Missing {
		return nil
	}
	t := agent.Candidate{Path: p, Size: f.size, Link: f.real}
	if !f.linked {
		t.Link = ""
	}
	defer func() { w.v.Candidates = append(w.v.Candidates, t) }()
	if f.inexact != "" {
		w.inexact(f.inexact)
		t.State, t.Reason = agent.Outside, f.inexact
		return nil
	}
	if f.kind != resolve.Regular {
		t.State, t.Reason = agent.NotAFile, "it is not a file: Copilot skips it"
		return nil
	}
	// A file another name of this directory led to already, a link or
	// the link's target, is not loaded again (rule 7).
	key := d + "\x00" + f.real
	if w.real[key] {
		t.State, t.Reason = agent.Shadowed, "the same file as another name of this directory Copilot loaded already"
		return nil
	}
	w.real[key] = true
	ct, err := c.chainText(p, name, f, w.v.Dir)
	if err != nil {
		return err
	}
	text := ct.text
	t.Replaced, t.FrontMatter = ct.replaced, ct.frontMatter
	w.inexact(ct.inexact)
	imports := len(w.v.Candidates)
	w.v.Candidates = append(w.v.Candidates, ct.imports...)
	t.Text = text
	t.Kept = int64(len(text))
	t.State, t.Reason = agent.Loaded, "loaded whole"
	if !w.add(text, &t) {
		// Not sent again: neither are the files it imports.
		t.Kept = 0
		for i := imports; i < len(w.v.Candidates); i++ {
			w.v.Candidates[i].Kept = 0
		}
	}
	return nil
}

// chainText is a chain file's text as Copilot sends it, with what its
// imports add to a view.
type chainText struct {
	text                  []byte
	replaced, frontMatter bool
	imports               []agent.Candidate // the imports' candidates, in order
	inexact               string
}

// chainText makes p's text (name its base as found, f its read) for a
// view of wd. Without an @ there is nothing to expand: the text is as
// read. A GEMINI.md has its imports never expanded; the others, links too,
// resolve theirs beside the path as named (rule 6). The file itself counts
// as loaded: a self-import is skipped. Within Git the text is the same in
// every view, made once (a file high in the tree is in most views).
func (c *Resolver) chainText(p, name string, f *file, wd string) (*chainText, error) {
	cache := c.o.Git || c.o.GitAbove // outside Git the working directory bounds imports
	if ct, ok := c.texts[p]; ok && cache {
		return ct, nil
	}
	ct := &chainText{text: content.Lossy(f.data), replaced: !utf8.Valid(f.data)}
	_, ct.frontMatter = frontMatter(ct.text)
	if !strings.EqualFold(name, "GEMINI.md") && bytes.IndexByte(ct.text, '@') >= 0 {
		scratch := &view{v: &agent.View{Dir: wd, RootAbs: c.o.RootAbs}}
		self := p
		if f.real != "" {
			self = f.real
		}
		ex := &expander{c: c, w: scratch, seen: map[string]bool{self: true}}
		var err error
		if ct.text, err = ex.expand(ct.text, p, f.bom); err != nil {
			return nil, err
		}
		ct.imports, ct.inexact = scratch.v.Candidates, scratch.v.Inexact
	}
	if cache {
		c.texts[p] = ct
	}
	return ct, nil
}

// folderFile adds one folder file: inlined, or a row of the table.
func (w *view) folderFile(f folderFile, shown string) {
	if f.pattern == "" {
		w.folder = append(w.folder, f.text)
		return
	}
	w.rows = append(w.rows, "| "+f.pattern+" | '"+shown+"' | "+f.description+" |")
}

// folderFile is one file of .github/instructions or .claude/rules.
type folderFile struct {
	path, abs   string // root-relative (abs for the user's)
	text        []byte // BOM removed, invalid UTF-8 replaced
	pattern     string // "" when inlined
	description string
}

// folder lists d/sub's files ending in ext, recursively, sorted by path,
// once per resolver.
func (c *Resolver) folder(w *view, d, sub, ext, key string) ([]folderFile, error) {
	l, err := c.listed(d, sub, ext, key)
	if err != nil {
		return nil, err
	}
	for _, why := range l.inexact {
		w.inexact(why)
	}
	return l.files, nil
}

// listed is d/sub's listing, made once per resolver.
func (c *Resolver) listed(d, sub, ext, key string) (folderList, error) {
	k := d + "\x00" + sub
	l, ok := c.folders[k]
	if !ok {
		var err error
		if l, err = c.listFolder(d, sub, ext, key); err != nil {
			return l, err
		}
		c.folders[k] = l
	}
	return l, nil
}

// listFolder is folder's listing.
func (c *Resolver) listFolder(d, sub, ext, key string) (folderList, error) {
	var l folderList
	if ent, ok := c.known(path.Join(d, sub)); ok && ent.Kind == resolve.Missing {
		return l, nil // the listings show no such folder: nothing to list
	}
	w := &l // inexact reasons, kept for every view
	var out []folderFile
	var walk func(dir string) error
	walk = func(dir string) error {
		ents, err := c.e.Source().List(dir)
		if resolve.IsFatal(err) {
			return fmt.Errorf("list %s: %w", dir, err)
		}
		if err != nil {
			var le *resolve.LinkedDirError
			if errors.As(err, &le) {
				w.inexactf(dir + " lies below a symbolic link: whether Copilot reads the folder through it is not established")
			}
			return nil
		}
		for _, e := range ents {
			p := path.Join(dir, e.Name)
			switch e.Kind {
			case resolve.Dir:
				if err := walk(p); err != nil {
					return err
				}
			case resolve.Symlink:
				if strings.HasSuffix(e.Name, ext) {
					w.inexactf(p + " is a symbolic link: whether Copilot reads a link in its folders is not established")
				}
			case resolve.Regular:
				if !strings.HasSuffix(e.Name, ext) {
					continue
				}
				f, err := c.read(p)
				if err != nil {
					return err
				}
				if f.inexact != "" {
					w.inexactf(f.inexact)
					continue
				}
				if f.data == nil {
					continue
				}
				out = append(out, classify(p, f.data, key))
			}
		}
		return nil
	}
	if err := walk(path.Join(d, sub)); err != nil {
		return l, err
	}
	slices.SortFunc(out, func(a, b folderFile) int { return strings.Compare(a.path, b.path) })
	l.files = out
	return l, nil
}

func (l *folderList) inexactf(why string) { l.inexact = append(l.inexact, why) }

// classify reads a folder file's front matter (rule 4).
func classify(p string, data []byte, key string) folderFile {
	f := folderFile{path: p, text: content.Lossy(data)}
	fm, ok := frontMatter(f.text)
	if !ok {
		return f
	}
	v, ok := fm[key]
	if !ok {
		return f
	}
	f.description = fm["description"].scalar
	pats := v.list
	if pats == nil {
		for _, s := range strings.Split(v.scalar, ",") {
			if s = strings.TrimSpace(s); s != "" {
				pats = append(pats, s)
			}
		}
	}
	if len(pats) == 1 && (pats[0] == "**" || pats[0] == "**/*") {
		return f
	}
	if len(pats) == 0 {
		return f
	}
	f.pattern = strings.Join(pats, ", ")
	return f
}

// ReadUser reads what Copilot reads of dir (~/.copilot): its
// copilot-instructions.md and instructions/**/*.instructions.md, links
// followed (the user's own files). nil when dir is "".
func ReadUser(dir string) (*User, error) {
	if dir == "" {
		return nil, nil
	}
	u := &User{}
	p := filepath.Join(dir, "copilot-instructions.md")
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		data, err := readUserFile(p, st)
		if err != nil {
			return nil, err
		}
		u.Instructions = &agent.UserFile{Path: filepath.ToSlash(p), Text: content.Lossy(bytes.TrimPrefix(data, []byte("\ufeff")))}
	}
	root := filepath.Join(dir, "instructions")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), instructionsExt) {
			return nil
		}
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			return nil
		}
		data, err := readUserFile(p, st)
		if err != nil {
			return err
		}
		abs := filepath.ToSlash(p)
		f := classify(abs, bytes.TrimPrefix(data, []byte("\ufeff")), "applyTo")
		f.abs = abs
		u.Folder = append(u.Folder, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(u.Folder, func(a, b folderFile) int { return strings.Compare(a.path, b.path) })
	if u.Instructions == nil && len(u.Folder) == 0 {
		return nil, nil
	}
	// The binary names a byte limit for the user's files, whose value is
	// not known (docs/agent-profiles.md, "Open").
	return u, nil
}

func readUserFile(p string, st os.FileInfo) ([]byte, error) {
	if st.Size() > maxUser {
		return nil, fmt.Errorf("read %s: it is %d bytes, more than the %d this tool reads of a user file", p, st.Size(), maxUser)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	return data, nil
}

const maxUser = 16 << 20

// FileState implements agent.Resolver: a file of Copilot's names is
// loaded wherever it lies on a chain.
func (c *Resolver) FileState(p string) (agent.Candidate, bool) {
	if !slices.Contains(chainNames, path.Base(p)) && p != copilotName && !strings.HasSuffix(p, "/"+copilotName) {
		return agent.Candidate{}, false
	}
	f, err := c.read(p)
	if err != nil || f.kind == resolve.Missing {
		return agent.Candidate{}, false
	}
	t := agent.Candidate{Path: p, Size: f.size, State: agent.Loaded, Reason: "loaded"}
	if f.linked {
		t.Link = f.real
	}
	switch {
	case f.inexact != "":
		t.State, t.Reason = agent.Outside, f.inexact
	case f.kind != resolve.Regular:
		t.State, t.Reason = agent.NotAFile, "it is not a file: Copilot skips it"
	case !utf8.Valid(f.data):
		t.Replaced, t.Reason = true, "loaded with its invalid UTF-8 bytes replaced"
	}
	return t, true
}
