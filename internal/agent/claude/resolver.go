package claude

// The claude profile: what Claude Code 2.1.328 puts into its first request
// as instructions from a directory, settled by experiment against the
// binary (docs/agent-profiles.md has the rules and their evidence).
//
// Claude Code loads in one pass, in this order: the managed policy file,
// the user's file and rules, then for each directory from just below "/"
// down to the working directory its CLAUDE.md, .claude/CLAUDE.md, the
// unconditional .claude/rules files and CLAUDE.local.md, each followed by
// its @-imports depth first; one set of paths already seen is shared by
// the whole pass. Its built-in AGENTS.md plugin then adds AGENTS.md and
// .claude/AGENTS.md files by its instructionFiles mode. The resolver runs
// that pass over the engine's listings and reads, per directory, and keeps
// every file it read and every text it made for the next view.

import (
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/claude/jsstring"
	"github.com/rivumi/rivumi-lint/internal/agent/claude/marked"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// The AGENTS.md plugin's modes (its instructionFiles option).
const (
	ModeDefault = "claude-md-or-agents-md" // AGENTS.md where no CLAUDE.md-family file loads
	ModeClaude  = "claude-md"              // no AGENTS.md
	ModeBoth    = "claude-md-and-agents-md"
	ModeManaged = "managed-only" // the project's and the user's files dropped
)

// Modes are the modes in the plugin's order.
var Modes = []string{ModeClaude, ModeDefault, ModeBoth, ModeManaged}

// Options are the claude profile's settings: the config's claude:
// section, and where the run finds what Claude Code would find.
type Options struct {
	// Mode is the AGENTS.md plugin's instructionFiles (a user setting);
	// "" or an unknown value is its default, ModeDefault.
	Mode string
	// RootAbs is the root's absolute, physical path: Claude Code names
	// files by the physical working directory.
	RootAbs string
	// Home is the user's home directory, whose .claude/CLAUDE.md and
	// .claude/rules Claude Code loads and where "~/" imports point; ""
	// for none (CI, tests): no user files, and a "~/" import is taken to
	// lie outside the repository.
	Home string
	// Excludes are claudeMdExcludes globs besides those of the settings
	// files the resolver reads (claude_settings.go): the config's
	// claude.md_excludes, for settings it cannot see (--settings, managed).
	Excludes []string
	// RootGit says the root holds a .git directory (it is a Git top whose
	// .claude/settings.local.json Claude Code reads from every directory
	// below it).
	RootGit bool
	// LocalAbove says why the view is not exact when no Git top is found
	// inside the root, yet Claude Code's canonical Git root (the top above
	// a --root below it, or a linked worktree's main worktree) holds a
	// .claude/settings.local.json, looked at by name only; nil or "": none.
	LocalAbove func() string
	// RealDir is realpath(3) of an absolute directory outside the root (a
	// name lookup, nothing read), for an absolute claudeMdExcludes
	// pattern; nil takes every such directory as physical.
	RealDir func(abs string) string
	// ExternalImports is the project's hasClaudeMdExternalIncludesApproved
	// in ~/.claude.json: imports may then leave the working directory.
	ExternalImports bool
	// Above reports whether a directory above the root (below "/") holds
	// an entry called name (CLAUDE.md, CLAUDE.local.md, AGENTS.md,
	// .claude): Claude Code's chain runs up to "/", and rivumi-lint looks
	// only at names there. nil looks nowhere.
	Above func(name string) bool
	// Managed reports whether the managed policy files exist
	// (/etc/claude-code/CLAUDE.md or /etc/claude-code/.claude/rules), which
	// rivumi-lint never reads; nil: none.
	Managed func() bool
	// ManagedSettings reports whether managed settings exist
	// (/etc/claude-code/managed-settings.json or managed-settings.d), whose
	// claudeMdExcludes Claude Code applies and rivumi-lint never reads;
	// nil: none.
	ManagedSettings func() bool
}

func (o *Options) mode() string {
	if slices.Contains(Modes, o.Mode) {
		return o.Mode
	}
	return ModeDefault
}

// Names implements agent.Resolver: the files tried in each directory.
func (c *Resolver) Names() []string {
	return []string{nameMD, dotClaude + "/" + nameMD, nameLocalMD, agentsMD}
}

// Also are the names the engine's listings must keep for this profile.
func (o *Options) Also() []string {
	// .git: where the Git top is, for the settings (gitTop), read from
	// the listing rather than by a stat of every directory.
	return []string{nameMD, nameLocalMD, dotClaude, agentsMD, ".git"}
}

const (
	nameMD      = "CLAUDE.md"
	nameLocalMD = "CLAUDE.local.md"
	agentsMD    = "AGENTS.md"
	dotClaude   = ".claude"
)

// fileKind is whose a loaded file is: it decides the label.
type fileKind string

const (
	kindManaged fileKind = "Managed"
	kindUser    fileKind = "User"
	kindProject fileKind = "Project"
	kindLocal   fileKind = "Local"
)

var labels = map[fileKind]string{
	kindManaged: " (organization-managed policy instructions)",
	kindUser:    " (user's private global instructions for all projects)",
	kindProject: " (project instructions, checked into the codebase)",
	kindLocal:   " (user's private project instructions, not checked in)",
}

// preamble starts the instruction block.
const preamble = "<system-reminder>\nCodebase and user instructions are shown below. Be sure to adhere to these instructions. " +
	"IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.\n\n"

// Resolver resolves what Claude Code loads from each directory over
// an engine's listings and reads.
type Resolver struct {
	e       agent.Engine
	o       Options
	home    string
	views   agent.ViewCache
	follows map[string]agent.Followed
	lstats  map[string]bool
	reads   map[string]fileRead
	texts   map[string]*loadedText
	lists   map[string]dirListing
	// within are, per view made by a pass, the paths that got in because
	// they lay in its working directory.
	within map[*agent.View][]string
	// mains and plugins are the main and the AGENTS.md plugin's passes
	// made, by working directory.
	mains   map[string]*mainName
	plugins map[string]*pluginMode
	// users are the user's passes, by the excludes' key: the same for
	// every directory whose settings exclude the same.
	users map[string]*userFiles
	// excls are the claudeMdExcludes by working directory, userSettings
	// the user's settings file's part, read once.
	excls        map[string]*excludeSet
	userSettings *settingsRead
	// exclTops are the claudeMdExcludes of the directories without a
	// .claude of their own, by their Git top.
	exclTops map[topKey]*excludeSet
	// rootClean says the root's path is clean and not "/": a chain
	// directory's paths are then clean as made (gapFor).
	rootClean bool
	// paths are the chain directories' chainPaths.
	paths map[*resolve.DirInfo]*chainPaths
	// tops are gitTop's answers by directory.
	tops map[string]gitTopAt
	// names is, per chain directory, whether it or a directory
	// above it lists CLAUDE.md, .claude or CLAUDE.local.md.
	names map[string]bool
	// lstatSrc is the engine's source with its Lstat memoised, for follow.
	lstatSrc *lstatMemo
	// env is what every pass asks of the machine outside the repository
	// (names above the root, managed files, auto memory), asked once a
	// run: each costs system calls, and a run makes a pass per directory
	// that holds a Claude file.
	env *envOf
}

// envOf is the resolver's answers about the machine, the same for
// every directory of a run.
type envOf struct {
	above           string // the first of CLAUDE.md, CLAUDE.local.md, .claude above the root, "" for none
	agentsAbove     bool   // an AGENTS.md above the root
	managed, memory bool
	managedSettings bool
}

// environment asks the options' functions once.
func (c *Resolver) environment() *envOf {
	if c.env != nil {
		return c.env
	}
	e := &envOf{}
	if c.o.mode() != ModeManaged && c.o.Above != nil {
		for _, n := range []string{nameMD, nameLocalMD, dotClaude} {
			if c.o.Above(n) {
				e.above = n
				break
			}
		}
	}
	e.agentsAbove = c.o.Above != nil && c.o.Above(agentsMD)
	e.managed = c.o.Managed != nil && c.o.Managed()
	e.managedSettings = c.o.ManagedSettings != nil && c.o.ManagedSettings()
	e.memory = c.home != "" && autoMemory(c.home)
	c.env = e
	return e
}

type dirListing struct {
	ents    []dirent
	ordered bool
}

// loadedText is what Claude Code's file pipeline makes of one file's
// bytes, whatever path it is loaded by.
type loadedText struct {
	text     string // decoded, front matter gone, comment pass done
	globs    []string
	imports  []marked.Import
	front    bool // a front matter block was removed
	comments bool // the comment pass removed a block comment
	newlines bool // the comment pass made CR and CRLF line ends "\n"
	lossy    bool // invalid UTF-8 was replaced
	lexErr   string
	// trimmed is text as JavaScript's trim leaves it, the bytes a view
	// renders: made once, shared read-only by every view that loads it.
	trimmed []byte
	// loaded is the reason of a chain file that loads it ("loaded; front
	// matter removed; …"), the same for every view.
	loaded string
}

// New returns a resolver over e, whose listings must keep o.Also().
func New(e agent.Engine, o Options) *Resolver {
	o.RootAbs = strings.TrimSuffix(o.RootAbs, "/")
	if o.RootAbs == "" {
		o.RootAbs = "/"
	}
	home := strings.TrimSuffix(o.Home, "/")
	return &Resolver{e: e, o: o, home: home, rootClean: o.RootAbs != "/" && path.Clean(o.RootAbs) == o.RootAbs, views: agent.ViewCache{}, follows: map[string]agent.Followed{},
		lstats: map[string]bool{}, reads: map[string]fileRead{}, texts: map[string]*loadedText{}, lists: map[string]dirListing{},
		within: map[*agent.View][]string{}, mains: map[string]*mainName{}, plugins: map[string]*pluginMode{}, names: map[string]bool{},
		users: map[string]*userFiles{}, excls: map[string]*excludeSet{}, exclTops: map[topKey]*excludeSet{}, tops: map[string]gitTopAt{}, paths: map[*resolve.DirInfo]*chainPaths{}}
}

// Profile implements Resolver.
func (c *Resolver) Profile() *agent.Profile { return Profile }

// Options returns the resolver's options.
func (c *Resolver) Options() *Options { return &c.o }

// View resolves what Claude Code started in dir loads, once per
// directory. The view is the resolver's: read-only.
func (c *Resolver) View(dir string) (*agent.View, error) { return c.views.Get(dir, c.resolveView) }

// FileState is what Claude Code started in the file's own directory does
// with the file at p (for a file below .claude, the directory holding
// that .claude); false when it is none of its files there.
func (c *Resolver) FileState(p string) (agent.Candidate, bool) {
	dir := projectDir("/" + p)
	dir = strings.TrimPrefix(dir, "/")
	v, err := c.View(dir)
	if err != nil {
		return agent.Candidate{}, false
	}
	for _, cand := range v.Candidates {
		if cand.Path == p {
			return cand, true
		}
	}
	return agent.Candidate{}, false
}

// renderClaude is the instruction block: the preamble, then each file
// that loads as "Contents of PATH LABEL:", a blank line and its trimmed
// text, joined by blank lines. No file: no block.
func renderClaude(v *agent.View) []byte {
	var parts []string
	for i := range v.Candidates {
		cand := &v.Candidates[i]
		if cand.Text == nil || cand.State != agent.Loaded && cand.State != agent.Imported {
			continue
		}
		shown := cand.Shown
		if shown == "" {
			shown = v.RootAbs
			if cand.Path != "" {
				shown = strings.TrimSuffix(v.RootAbs, "/") + "/" + cand.Path
			}
		}
		parts = append(parts, "Contents of "+shown+cand.Label+":\n\n"+string(cand.Text))
	}
	if len(parts) == 0 {
		return nil
	}
	return []byte(preamble + strings.Join(parts, "\n\n") + "\n</system-reminder>")
}

// text processes the bytes of the physical file key once.
func (c *Resolver) text(key string, data []byte) *loadedText {
	if t, ok := c.texts[key]; ok {
		return t
	}
	s := decode(data)
	t := &loadedText{lossy: s != string(data)}
	fm := frontMatter(s)
	t.front = fm.removed
	t.globs = fm.paths
	out, imps, stripped, err := marked.Scan(fm.content)
	if err != nil {
		t.lexErr = err.Error()
	}
	t.text, t.imports, t.comments = out, imps, stripped
	t.newlines = err == nil && !stripped && out != fm.content
	t.trimmed = []byte(jsstring.TrimString(t.text))
	t.loaded = strings.Join(t.reasons("loaded"), "; ")
	c.texts[key] = t
	return t
}

// reasons are what the file pipeline did to the text, after first.
func (t *loadedText) reasons(first string) []string {
	why := []string{first}
	if t.front {
		why = append(why, "front matter removed")
	}
	if t.comments {
		why = append(why, "HTML comments removed")
	}
	if t.newlines {
		why = append(why, "line ends made \"\\n\" (the comment pass)")
	}
	if t.lossy {
		why = append(why, "invalid UTF-8 replaced with U+FFFD")
	}
	return why
}

// excluded says why the pass's claudeMdExcludes match the absolute p,
// "" when they do not; managed files are never excluded.
func (s *sim) excluded(p string, k fileKind) string {
	if k == kindManaged || s.ex == nil {
		return ""
	}
	g, ok := s.ex.match(p)
	if !ok {
		return ""
	}
	return "claudeMdExcludes matches it (" + strconvQuote(g.glob) + ", from " + g.from + ")"
}

// listing lists the physical directory abs once.
func (c *Resolver) listing(abs string) (dirListing, error) {
	if l, ok := c.lists[abs]; ok {
		return l, nil
	}
	ents, ordered, err := c.list(abs)
	if err != nil {
		return dirListing{}, err
	}
	l := dirListing{ents: ents, ordered: ordered}
	c.lists[abs] = l
	return l, nil
}

// exists reports whether abs has an entry of its own (lstat): what makes a
// candidate of a name Claude Code tries in every directory.
func (c *Resolver) exists(abs string) (bool, error) {
	dir, name := path.Dir(abs), path.Base(abs)
	r, err := c.realpath(dir)
	if err != nil {
		return false, err
	}
	if r.out != "" {
		return true, nil // not known here: say it exists, the read says why not
	}
	w, rel := c.where(r.path)
	switch w {
	case inRoot:
		p := path.Join(rel, name)
		if ok, seen := c.lstats[p]; seen {
			return ok, nil
		}
		ent, err := c.e.Source().Lstat(p)
		if resolve.IsFatal(err) {
			return false, err
		}
		ok := err == nil && ent.Kind != resolve.Missing
		c.lstats[p] = ok
		return ok, nil
	case inHome:
		k, _, _ := c.statKind(abs)
		return k != resolve.Missing || c.isLink(abs), nil
	}
	return false, nil
}

// shownRel is how a candidate names the absolute path p: relative to the
// root inside it, "~/…" below the home, else p itself.
func (c *Resolver) shownRel(p string) (rel string, inside bool) {
	if r, ok := agent.UnderRoot(c.o.RootAbs, p); ok {
		return r, true
	}
	if c.home != "" && withinOf(p, c.home) {
		return "~" + strings.TrimPrefix(p, c.home), false
	}
	return p, false
}

// noStart is the view's Lost where Claude Code does not start.
const noStart = "it does not start here: the directory's path is not UTF-8, and Claude Code 2.1.328 exits with \"Can't access working directory\""

// resolveView runs the loading pass from dir. A directory that holds
// none of Claude Code's names has its parent's view, candidates shared,
// unless something of the parent's pass got in because it lay in the
// parent's working directory and does not lie in dir (an import, a linked
// rule): the working directory is the only thing that changes.
func (c *Resolver) resolveView(dir string) (*agent.View, error) {
	info, err := c.e.Dir(dir)
	if err != nil {
		return nil, err
	}
	if info.Linked != "" {
		return &agent.View{Dir: dir, RootAbs: c.o.RootAbs, Render: renderClaude,
			Inexact: "the directory is below a symbolic link: Claude Code, started there, runs in the link's target and loads that directory's files"}, nil
	}
	// c.abs(dir) is valid UTF-8 just when both its parts are (they are
	// joined by "/"): the path itself is made only where it is used.
	if !utf8.ValidString(dir) || !utf8.ValidString(c.o.RootAbs) {
		// Claude Code 2.1.328 exits at once there ("Can't access working
		// directory"), before it reads a file (#33.5); no parent's view is
		// shared, and no path with the raw bytes reaches a message.
		return &agent.View{Dir: dir, RootAbs: c.o.RootAbs, Render: renderClaude, Lost: noStart}, nil
	}
	ex, err := c.excludesIn(dir, info)
	if err != nil {
		return nil, err
	}
	if dir != "" && !holdsName(info) {
		pv, err := c.View(resolve.ParentDir(dir))
		if err != nil {
			return nil, err
		}
		// The parent's own settings (or its Git top's) need not be dir's.
		same := c.sameExcludes(dir, info)
		if !same {
			pex, err := c.excludesOf(resolve.ParentDir(dir))
			if err != nil {
				return nil, err
			}
			same = pex.key == ex.key
		}
		if origin := pv.Origin(); same && (origin.Inexact == "" || !strings.HasPrefix(origin.Inexact, "the directory is below")) {
			if w := c.within[origin]; len(w) == 0 || inAll(w, c.abs(dir)) {
				cp := *pv
				cp.Dir = dir
				cp.Shares = origin
				return &cp, nil
			}
		}
	}
	v := &agent.View{Dir: dir, RootAbs: c.o.RootAbs, Render: renderClaude}
	s := &sim{c: c, cwd: c.abs(dir), dir: dir, ex: ex}
	if err := s.run(); err != nil {
		return nil, err
	}
	v.Candidates = s.candidates()
	v.Inexact = s.inexact
	c.within[v] = s.within
	return v, nil
}

// sameExcludes reports, without asking for them, that dir (no .claude in
// its listing, info) has its parent's claudeMdExcludes: neither lists
// .git, nor the parent .claude, so both have those of the Git top above
// the parent (excludesIn); false says nothing.
func (c *Resolver) sameExcludes(dir string, info *resolve.DirInfo) bool {
	parent := resolve.ParentDir(dir)
	if dir == "" || parent == "" || holds(info, dotClaude) || !noGit(info) {
		return false
	}
	pinfo, ok := c.e.Listed(parent)
	return ok && !holds(pinfo, dotClaude) && noGit(pinfo)
}

// noGit reports whether a listing has no .git entry.
func noGit(info *resolve.DirInfo) bool {
	ent, _ := info.Lookup(".git")
	return ent.Kind == resolve.Missing
}

// holdsName reports whether a directory's listing has one of the names
// Claude Code looks for in a chain directory.
func holdsName(info *resolve.DirInfo) bool {
	for _, n := range []string{nameMD, nameLocalMD, dotClaude, agentsMD} {
		if _, ok := info.Lookup(n); ok {
			return true
		}
	}
	return false
}

// inAll reports whether every path of ps lies in dir.
func inAll(ps []string, dir string) bool {
	for _, p := range ps {
		if !withinOf(p, dir) {
			return false
		}
	}
	return true
}
