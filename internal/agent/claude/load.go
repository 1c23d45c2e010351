package claude

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/claude/jsstring"
	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// sim is one run of Claude Code's loading pass from one working
// directory.
type sim struct {
	c       *Resolver
	cwd     string // absolute, physical
	dir     string // root-relative
	main    *loadPass
	slots   []int // where each chain directory's items end in main.items, by its place in chain()
	agents  map[string][]item
	inexact string
	// within are the paths that got in because they lie in the working
	// directory: a deeper one may keep them out.
	within []string
	// chainDirs is chain(), once made.
	chainDirs []string
	// ex are the claudeMdExcludes of the working directory.
	ex *excludeSet
}

// in is withinOf(p, cwd), remembering p when it holds.
func (s *sim) in(p string) bool {
	if withinOf(p, s.cwd) {
		s.within = append(s.within, p)
		return true
	}
	return false
}

// loadPass is one loading pass (Zne and VHe with the set of paths they
// share): the main one, or one of the AGENTS.md plugin's.
type loadPass struct {
	s         *sim
	processed *pathSet
	items     []item
	external  bool // imports may leave the working directory
	// unordered counts rules files that loaded from a listing whose order
	// is not the system's, per rules tree.
	unordered int
}

// item is one candidate in the order Claude Code meets it; entry is
// set while it enters the message.
type item struct {
	c     agent.Candidate
	entry *loadEntry
}

// loadEntry is a file Claude Code loads (its instructionFiles entry).
type loadEntry struct {
	path   string // absolute, as shown
	kind   fileKind
	text   string // as loaded, untrimmed
	globs  []string
	parent string // the importing file's shown path ("" for none)
}

type importer struct {
	shown        string // the importing file's absolute path as shown
	raw          string // the import as written
	line, column int
}

func (s *sim) setInexact(why string) {
	if s.inexact == "" {
		s.inexact = why
	}
}

func (s *sim) newLoad(external bool) *loadPass {
	return s.loadOver(external, &pathSet{})
}

// loadOver is a load whose set of seen paths is processed.
func (s *sim) loadOver(external bool, processed *pathSet) *loadPass {
	return &loadPass{s: s, processed: processed, external: external}
}

// seeded is a load of the AGENTS.md plugin: its set of seen paths starts
// with the managed and the user's CLAUDE.md.
func (s *sim) seeded() *loadPass {
	l := s.newLoad(s.c.o.ExternalImports)
	l.processed.add(managedMD)
	if s.c.home != "" {
		l.processed.add(s.c.home + "/.claude/CLAUDE.md")
	}
	return l
}

const managedMD = "/etc/claude-code/CLAUDE.md"

// chain is the working directory and the directories above it inside the
// root, top down (made once a pass; read only).
func (s *sim) chain() []string {
	if s.chainDirs == nil {
		// agent.Ancestors(s.dir, ""), made at its size: each ParentDir
		// drops one "/", the last gives "".
		n := 1
		if s.dir != "" {
			n = strings.Count(s.dir, "/") + 2
		}
		out := make([]string, n)
		for i, d := n-1, s.dir; i >= 0; i, d = i-1, resolve.ParentDir(d) {
			out[i] = d
		}
		s.chainDirs = out
	}
	return s.chainDirs
}

func (s *sim) run() error {
	c := s.c
	mode := c.o.mode()
	env := c.environment()
	// An AGENTS.md above matters only where the plugin loads (loadAgents).
	if env.above != "" {
		s.setInexact("a directory above the repository's root holds " + env.above + ", and Claude Code's chain runs up to the file system's root; rivumi-lint reads only the repository")
	}
	if env.managed {
		s.setInexact("managed policy instructions exist in /etc/claude-code, which Claude Code loads first; rivumi-lint reads only the repository")
	}
	chain := s.chain()
	start := 0
	if st, at := prefixPass(c.mains, func(m *mainName) []string { return m.within }, func(m *mainName) bool { return m.ex == s.exKey() }, s.dir, s.cwd, chain); st != nil {
		// The passes agree on the chain above: start from a copy.
		s.main = s.loadOver(c.o.ExternalImports, st.processed.over())
		s.main.items = append([]item(nil), st.items...)
		s.main.unordered = st.unordered
		s.slots = append(make([]int, 0, len(chain)), st.slots...)
		s.within = append([]string(nil), st.within...)
		s.inexact = st.inexact
		start = at
	} else {
		s.main = s.newLoad(c.o.ExternalImports)
		s.slots = make([]int, 0, len(chain))
		if err := s.user(env); err != nil {
			return err
		}
	}
	if s.ex != nil && s.ex.inexact != "" {
		s.setInexact(s.ex.inexact) // a copied pass's key says it had the same
	}
	for _, d := range chain[start:] {
		if c.isSlash(d) {
			s.slots = append(s.slots, len(s.main.items))
			continue // "/" itself is not in the chain
		}
		if g, ok := c.gapFor(d, mainNames); ok {
			// No file, and no .claude for rules: the names only join the set.
			s.main.processed.addGap(g)
			s.slots = append(s.slots, len(s.main.items))
			continue
		}
		for _, name := range []string{nameMD, dotClaude + "/" + nameMD} {
			if _, err := s.main.chainFile(d, name, kindProject); err != nil {
				return err
			}
		}
		if ok, err := s.c.has(d, dotClaude); err != nil {
			return err
		} else if ok {
			if err := s.main.rulesTree(c.absName(d, dotClaude+"/rules"), kindProject); err != nil {
				return err
			}
		}
		if _, err := s.main.chainFile(d, nameLocalMD, kindLocal); err != nil {
			return err
		}
		s.slots = append(s.slots, len(s.main.items))
	}
	// Copies: the plugin may take items of this pass out of the message.
	frozen := s.main.processed
	s.main.processed = frozen.over()
	c.mains[s.dir] = &mainName{ex: s.exKey(), processed: frozen, items: append([]item(nil), s.main.items...), unordered: s.main.unordered,
		slots: slices.Clone(s.slots), within: append([]string(nil), s.within...), inexact: s.inexact}
	return s.plugin(mode)
}

// user adds the user's pass to the main pass.
func (s *sim) user(env *envOf) error {
	c := s.c
	if c.home == "" {
		return nil
	}
	u, err := c.userPass(s.ex)
	if err != nil {
		return err
	}
	for _, p := range u.processed {
		s.main.processed.add(p)
	}
	s.main.items = append(s.main.items, u.items...)
	if u.inexact != "" {
		s.setInexact(u.inexact)
	}
	if env.memory {
		s.setInexact("the user's home holds Claude Code's auto memory (~/.claude/projects/*/memory/MEMORY.md), which this profile does not model")
	}
	return nil
}

// mainName is a main pass as it stood after its working directory's own
// files: a deeper directory's pass starts from a copy of it.
type mainName struct {
	ex        string // the excludes' key
	processed *pathSet
	items     []item
	unordered int
	slots     []int // by place in the chain, which a deeper pass's starts with
	within    []string
	inexact   string
}

// prefixPass is the pass of the nearest directory above dir that made
// one (main or plugin, from passes), and where dir's chain goes on from
// it; at is 0 when none may be used: every path that got into it because
// it lay in that directory's working directory must lie in dir's too
// (then every answer of the pass is the same from dir).
func prefixPass[T any](passes map[string]*T, within func(*T) []string, same func(*T) bool, dir, cwd string, chain []string) (st *T, at int) {
	if dir == "" {
		return nil, 0
	}
	for i := len(chain) - 2; i >= 0; i-- {
		st, ok := passes[chain[i]]
		if !ok {
			continue
		}
		if !inAll(within(st), cwd) || !same(st) {
			return nil, 0 // or it excluded other files
		}
		return st, i + 1
	}
	return nil, 0
}

// pluginMode is the AGENTS.md plugin's pass as it stood after its
// working directory's files, before the files the main pass has were
// taken out: a deeper directory's pass starts from a copy of it.
type pluginMode struct {
	ex        string // the excludes' key
	processed *pathSet
	items     []item
	spans     []span   // each chain file's items, in items
	within    []string // what got in because it lay in the working directory
	inexact   string   // the first reason the pass gave, "" for none
}

type span struct {
	dir      string
	from, to int
}

// userFiles is the pass over the user's files (~/.claude/CLAUDE.md and
// its imports, ~/.claude/rules), which does not depend on the working
// directory (the user's imports may go anywhere): made once a run.
type userFiles struct {
	items     []item
	processed []string
	inexact   string
	err       error
}

// exKey is the key of the pass's excludes.
func (s *sim) exKey() string {
	if s.ex == nil {
		return ""
	}
	return s.ex.key
}

// userPass runs the user's pass once per set of excludes, in a pass of
// its own.
func (c *Resolver) userPass(ex *excludeSet) (*userFiles, error) {
	key := ""
	if ex != nil {
		key = ex.key
	}
	if u, ok := c.users[key]; ok {
		return u, u.err
	}
	s := &sim{c: c, cwd: "/", dir: "", ex: ex}
	l := s.newLoad(true)
	u := &userFiles{}
	if _, err := l.loadFile(c.home+"/.claude/CLAUDE.md", kindUser, 0, nil); err != nil {
		u.err = err
	} else if err := l.rulesTree(c.home+"/.claude/rules", kindUser); err != nil {
		u.err = err
	}
	u.items, u.inexact = l.items, s.inexact
	u.processed = l.processed.all()
	c.users[key] = u
	return u, u.err
}

// has reports whether the chain directory d's listing holds name (for
// ".claude/…", whether it holds .claude).
func (c *Resolver) has(d, name string) (bool, error) {
	info, err := c.dirOf(d)
	if err != nil {
		return false, err
	}
	return holds(info, name), nil
}

// dirOf is the engine's listing of the chain directory d.
func (c *Resolver) dirOf(d string) (*resolve.DirInfo, error) {
	info, err := c.e.Dir(d)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", resolve.DisplayDir(d), err)
	}
	return info, nil
}

// holds is has over d's listing.
func holds(info *resolve.DirInfo, name string) bool {
	if i := strings.IndexByte(name, '/'); i >= 0 {
		name = name[:i]
	}
	_, ok := info.Lookup(name)
	return ok
}

// chainFile loads the chain directory d's file name as kind. A name the
// directory does not hold only joins the set of seen paths, as Claude
// Code's missing files do.
func (l *loadPass) chainFile(d, name string, kind fileKind) (int, error) {
	info, err := l.s.c.dirOf(d)
	if err != nil {
		l.processed.add(path.Clean(l.s.c.absName(d, name)))
		return 0, err
	}
	p, clean := l.s.c.chainPath(info, d, name)
	if !holds(info, name) {
		l.processed.add(clean)
		return 0, nil
	}
	return l.loadFile(p, kind, 0, nil)
}

// chainNames are the names a pass tries in a chain directory, in the
// order of chainPaths' slots.
var chainNames = [...]string{nameMD, dotClaude + "/" + nameMD, nameLocalMD, agentsMD, dotClaude + "/" + agentsMD}

// chainPaths are a chain directory's chainNames as absolute paths, as
// made and cleaned, each made when first asked for.
type chainPaths struct{ made, clean [len(chainNames)]string }

// chainPath is c.absName(d, name) and its path.Clean, made once a run for
// chainNames: the passes of the directories below d each try d's names,
// and most of them only to add the missing path to their sets.
func (c *Resolver) chainPath(info *resolve.DirInfo, d, name string) (made, clean string) {
	i := slices.Index(chainNames[:], name)
	if i < 0 {
		made = c.absName(d, name)
		return made, path.Clean(made)
	}
	ps := c.paths[info] // by the listing, d's: a pointer hashes faster than d
	if ps == nil {
		ps = &chainPaths{}
		c.paths[info] = ps
	}
	if ps.made[i] == "" {
		ps.made[i] = c.absName(d, name)
		ps.clean[i] = path.Clean(ps.made[i])
	}
	return ps.made[i], ps.clean[i]
}

// mainNames are the main pass's names of a chain directory.
var mainNames = chainNames[:3]

// gapFor is the gap of the chain directory d for names when its listing
// holds none of them (each as has takes it), so that each chainFile of
// them would only add its path to the set, and its paths are clean as
// made; false otherwise (a listing that fails is left to chainFile, which
// says so).
func (c *Resolver) gapFor(d string, names []string) (gap, bool) {
	info, err := c.dirOf(d)
	if err != nil || !c.rootClean || d == "." || d == ".." || strings.HasPrefix(d, "../") || d != "" && path.Clean(d) != d {
		return gap{}, false
	}
	for _, n := range names {
		if holds(info, n) {
			return gap{}, false
		}
	}
	return gap{root: c.o.RootAbs, dir: d, names: names}, true
}

// autoMemory reports whether home holds an auto-memory index.
func autoMemory(home string) bool {
	m, _ := filepath.Glob(filepath.Join(filepath.FromSlash(home), ".claude", "projects", "*", "memory", "MEMORY.md"))
	return len(m) > 0
}

// loadFile loads the file at p (absolute) as kind, then its imports depth
// first (the original's Zne); it returns how many files entered the
// message.
func (l *loadPass) loadFile(p string, kind fileKind, depth int, imp *importer) (int, error) {
	c := l.s.c
	p = path.Clean(p)
	cand := agent.Candidate{Size: -1}
	shownRel, inside := c.shownRel(p)
	cand.Path = shownRel
	by := ""
	if imp != nil {
		cand.Line, cand.Column = imp.line, imp.column
		cand.ImportedBy = c.display(imp.shown)
		by = "; imported by " + cand.ImportedBy
		if !inside {
			cand.Path = imp.raw
			cand.Shown = p
		}
	}
	note := func(st agent.State, why string) (int, error) {
		cand.State, cand.Reason = st, why+by
		l.items = append(l.items, item{c: cand})
		return 0, nil
	}
	ext := l.external || kind == kindUser
	if l.processed.has(p) {
		if imp == nil {
			return 0, nil // a chain file already loaded (by an import): Claude Code passes it silently
		}
		return note(agent.Shadowed, "already loaded: Claude Code loads each path once")
	}
	if depth >= 5 {
		return note(agent.Dropped, "more than four levels of imports below the file that starts them: Claude Code drops it")
	}
	if why := l.s.excluded(p, kind); why != "" {
		if imp == nil {
			if ok, err := c.exists(p); err != nil || !ok {
				return 0, err
			}
		}
		return note(agent.Excluded, why)
	}
	real, err := c.realpath(p)
	if err != nil {
		return 0, err
	}
	if depth > 0 && !ext && (real.out != "" || !l.s.in(real.path)) {
		return note(agent.Outside, "it leads out of the working directory, from which Claude Code loads no import")
	}
	xe := ""
	if real.linked && real.out == "" {
		xe = real.path
		if l.processed.has(xe) {
			if imp == nil {
				return note(agent.Shadowed, "it links to "+c.display(xe)+", already loaded")
			}
			return note(agent.Shadowed, "it links to "+c.display(xe)+", already loaded: Claude Code loads each file once")
		}
	}
	l.processed.add(p)
	rd, err := c.read(p)
	if err != nil {
		return 0, err
	}
	if xe != "" {
		l.processed.add(xe)
	}
	if rd.inexact != "" {
		l.s.setInexact(c.display(p) + ": " + rd.inexact)
		if rd.data == nil {
			return note(agent.Outside, rd.inexact)
		}
	}
	if xe != "" {
		if rel, ok := agent.UnderRoot(c.o.RootAbs, xe); ok {
			cand.Link = rel
		}
	}
	switch {
	case rd.kind == resolve.Missing:
		if imp == nil {
			if ok, err := c.exists(p); err != nil || !ok {
				return 0, err // no such file: nothing to say
			}
			return note(agent.NotAFile, "a dangling symbolic link (or one that loops): Claude Code skips it")
		}
		return note(agent.NotAFile, "no such file: Claude Code skips the import")
	case rd.kind != resolve.Regular:
		return note(agent.NotAFile, "it is "+kindPhrase(rd.kind)+", not a file: Claude Code skips it")
	case rd.err != "":
		return note(agent.Failed, "Claude Code cannot read it and skips it: "+rd.err)
	case rd.data == nil && rd.size > maxBytes:
		cand.Size = rd.size
		return note(agent.Oversized, fmt.Sprintf("it is %d bytes, over the %d bytes Claude Code reads", rd.size, maxBytes))
	}
	cand.Size = rd.size
	if !textFile(p) {
		return note(agent.Ignored, "its extension ("+nodeExtname(p)+") is not one of the text files Claude Code loads")
	}
	t := c.text(rd.key, rd.data)
	if t.lexErr != "" {
		return note(agent.Failed, "Claude Code's Markdown lexer gives up on it, and the file is skipped")
	}
	if len(t.trimmed) == 0 {
		why := "its text is whitespace only: Claude Code skips it"
		switch {
		case rd.size == 0:
			why = "it is empty: Claude Code skips it"
		case t.front || t.comments:
			why = "nothing is left once its front matter and HTML comments are removed: Claude Code skips it"
		}
		if len(t.imports) > 0 {
			why += ", and its imports with it"
		}
		return note(agent.Empty, why)
	}
	entry := &loadEntry{path: p, kind: kind, text: t.text, globs: t.globs}
	cand.State = agent.Loaded
	if imp != nil {
		cand.State = agent.Imported
		entry.parent = imp.shown
	}
	cand.Text = t.trimmed
	cand.Kept = int64(len(t.trimmed))
	cand.CommentsRemoved, cand.FrontMatterRemoved, cand.Replaced = t.comments, t.front, t.lossy
	cand.Label = labels[kind]
	if !inside && imp == nil {
		cand.Shown = p
	}
	if imp != nil {
		cand.Reason = strings.Join(t.reasons("imported by "+cand.ImportedBy), "; ")
	} else {
		cand.Reason = t.loaded
	}
	l.items = append(l.items, item{c: cand, entry: entry})
	n := 1
	base := path.Dir(real.path)
	if real.out != "" {
		base = path.Dir(p)
	}
	if len(t.imports) == 0 {
		return n, nil
	}
	seen := map[string]bool{}
	from := 0
	at := lineCursor{data: rd.data}
	for _, m := range t.imports {
		target := resolveImport(m.Path, base, c.home)
		if seen[target] {
			continue
		}
		seen[target] = true
		line, col := 0, 0
		if off := find(rd.data, m.Raw, &from); off >= 0 {
			line, col = at.pos(off)
		}
		sub := &importer{shown: p, raw: m.Path, line: line, column: col}
		if target == "" {
			if ext {
				l.s.setInexact(c.display(p) + " imports " + m.Path + ", in the user's home, which this run does not know")
			}
			l.items = append(l.items, item{c: agent.Candidate{Path: m.Path, State: agent.Outside, Size: -1, Line: line, Column: col, ImportedBy: c.display(p),
				Reason: "it is in the user's home, outside the working directory, from which Claude Code loads no import; imported by " + c.display(p)}})
			continue
		}
		if !ext && !l.s.in(target) {
			ic := agent.Candidate{State: agent.Outside, Size: -1, Line: line, Column: col, ImportedBy: c.display(p),
				Reason: "it is outside the working directory, from which Claude Code loads no import; imported by " + c.display(p)}
			if r, ok := agent.UnderRoot(c.o.RootAbs, target); ok {
				ic.Path = r
			} else {
				ic.Path, ic.Shown = m.Path, target
			}
			l.items = append(l.items, item{c: ic})
			continue
		}
		k, err := l.loadFile(target, kind, depth+1, sub)
		if err != nil {
			return n, err
		}
		n += k
	}
	return n, nil
}

// unload takes an item out of the message, as st, why.
func (it *item) unload(st agent.State, why string) {
	it.entry = nil
	it.c.State, it.c.Reason = st, why
	it.c.Text, it.c.Label, it.c.Kept = nil, "", 0
}

// find finds "@"+raw in data at or after *from, preceded by the
// start or whitespace, and moves *from past it; -1 when not found.
func find(data []byte, raw string, from *int) int {
	needle := []byte("@" + raw)
	for i := *from; i <= len(data); {
		j := bytes.Index(data[i:], needle)
		if j < 0 {
			break
		}
		j += i
		if j == 0 || bytes.IndexByte([]byte(" \t\n\r\f\v"), data[j-1]) >= 0 {
			*from = j + len(needle)
			return j
		}
		i = j + 1
	}
	if j := bytes.Index(data, needle); j >= 0 {
		return j
	}
	return -1
}

// lineCursor is content.PosAt's line and byte column for offsets that
// mostly grow: it counts from the last offset asked for, so the imports of
// one long line cost linear time, not quadratic (#38.5).
type lineCursor struct {
	data            []byte
	off, line, from int // the last offset, its line, where that line starts
}

func (c *lineCursor) pos(off int) (line, col int) {
	if c.line == 0 || off < c.off {
		p := content.PosAt(c.data, off)
		c.off, c.line, c.from = p.Offset, p.Line, p.Offset-p.Column+1
		return p.Line, p.Column
	}
	off = min(off, len(c.data))
	seg := c.data[c.off:off]
	if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
		c.line += n
		c.from = c.off + bytes.LastIndexByte(seg, '\n') + 1
	}
	c.off = off
	return c.line, off - c.from + 1
}

func kindPhrase(k resolve.Kind) string {
	switch k {
	case resolve.Dir:
		return "a directory"
	case resolve.Special:
		return "a special file (a FIFO, a socket or a device)"
	case resolve.Submodule:
		return "a submodule"
	}
	return "a " + k.String()
}

// display names an absolute path for a reason: root-relative inside the
// root.
func (c *Resolver) display(p string) string {
	r, _ := c.shownRel(p)
	if r == "" {
		return "."
	}
	return r
}

// rulesTree walks a .claude/rules directory as the main pass does (VHe,
// unconditional rules only) and says when its order cannot be known.
func (l *loadPass) rulesTree(dir string, kind fileKind) error {
	l.unordered = 0
	if err := l.rules(dir, kind, map[string]bool{}, "", ""); err != nil {
		return err
	}
	if l.unordered >= 2 {
		l.s.setInexact(l.s.c.display(dir) + " holds several rules files that load, and this snapshot (a Git tree or the index) does not keep the order in which the file system lists them, which is the order Claude Code loads them in")
	}
	return nil
}

// rules is VHe: the .md files of dir and of its subdirectories, in the
// order the system lists them, links followed only where they stay in
// the working directory.
func (l *loadPass) rules(dir string, kind fileKind, visited map[string]bool, discovered, linkedFrom string) error {
	c := l.s.c
	if visited[dir] {
		return nil
	}
	real, err := c.realpath(dir)
	if err != nil {
		return err
	}
	ext := l.external || kind == kindUser
	if real.out != "" {
		if ext {
			l.s.setInexact(c.display(dir) + " is reached through a symbolic link out of the repository, which Claude Code follows; rivumi-lint reads nothing outside the root")
		}
		return nil // its real path lies outside the working directory: skipped
	}
	visited[dir] = true
	if real.linked {
		visited[real.path] = true
	}
	kindAt, _, err := c.statKind(real.path)
	if err != nil {
		return err
	}
	if kindAt != resolve.Dir {
		return nil // readdir fails: nothing
	}
	canonical := true
	userRules := ""
	if c.home != "" {
		userRules = c.home + "/.claude/rules"
	}
	at := dir
	if discovered != "" {
		at = discovered
	}
	notUser := kind != kindUser && (userRules == "" || !withinOf(at, userRules))
	tt := !ext || linkedFrom == "" && notUser && canonical && real.linked
	ot := tt && c.isLink(dir) && !l.s.in(real.path)
	ut := tt && !ot && kind == kindProject && notUser && real.linked && !l.s.in(real.path) &&
		withinOf(l.s.cwd, path.Dir(path.Dir(dir))) && c.isLink(path.Dir(dir))
	if !ext && (ot || ut) {
		return nil // a linked rules directory whose files lie outside the working directory
	}
	et := linkedFrom
	if et == "" {
		switch {
		case ot:
			et = dir
		case ut:
			et = path.Dir(dir)
		}
	}
	lst, err := c.listing(real.path)
	if err != nil {
		return err
	}
	for _, ent := range lst.ents {
		en := dir + "/" + ent.name
		jt, err := c.realpath(en)
		if err != nil {
			return err
		}
		zt := jt.path
		pn := at + "/" + ent.name
		if pn != zt && l.s.excluded(pn, kind) != "" {
			continue
		}
		isDir, isFile := ent.kind == resolve.Dir, ent.kind == resolve.Regular
		if jt.linked {
			if jt.out != "" {
				if ext {
					l.s.setInexact(c.display(en) + " is a symbolic link out of the repository, which Claude Code follows; rivumi-lint reads nothing outside the root")
				} else if strings.HasSuffix(ent.name, ".md") {
					rel, _ := c.shownRel(en)
					l.items = append(l.items, item{c: agent.Candidate{Path: rel, State: agent.Outside, Size: -1,
						Reason: "a symbolic link out of the working directory: Claude Code skips it"}})
				}
				continue
			}
			k, out, err := c.statKind(zt)
			if err != nil {
				return err
			}
			if out != "" {
				continue
			}
			isDir, isFile = k == resolve.Dir, k == resolve.Regular
		}
		io := canonical && zt != real.path+"/"+ent.name && !l.s.in(zt)
		in := et
		if in == "" && io && notUser {
			in = pn
		}
		switch {
		case isDir:
			if io && !ext {
				continue
			}
			d := ""
			if pn != zt {
				d = pn
			}
			if err := l.rules(zt, kind, visited, d, in); err != nil {
				return err
			}
		case isFile && strings.HasSuffix(ent.name, ".md"):
			if io && !ext {
				rel, _ := c.shownRel(en)
				l.items = append(l.items, item{c: agent.Candidate{Path: rel, State: agent.Outside, Size: -1,
					Reason: "it links out of the working directory: Claude Code skips it"}})
				continue
			}
			start := len(l.items)
			n, err := l.loadFile(zt, kind, 0, nil)
			if err != nil {
				return err
			}
			// Only the files without paths: load at start, the rule's
			// imports included (and its own, when it has none).
			for i := start; i < len(l.items); i++ {
				it := &l.items[i]
				if it.entry == nil || it.entry.globs == nil {
					continue
				}
				globs := it.entry.globs
				it.unload(agent.Conditional, "its paths: ("+strings.Join(globs, ", ")+") make Claude Code load it only when a matching file is read"+importedSuffix(it.c.Reason))
				n--
			}
			if n > 0 && !lst.ordered {
				l.unordered++
			}
		}
	}
	return nil
}

// importedSuffix is the part of an import's reason from "imported by" on,
// kept when the reason changes.
func importedSuffix(reason string) string {
	if i := strings.Index(reason, "imported by "); i >= 0 {
		return "; " + reason[i:]
	}
	return ""
}

// plugin is the built-in AGENTS.md plugin, by its mode.
func (s *sim) plugin(mode string) error {
	switch mode {
	case ModeManaged:
		for i := range s.main.items {
			it := &s.main.items[i]
			if it.entry != nil {
				it.unload(agent.Disabled, "instruction_files is managed-only: Claude Code drops the project's and the user's instruction files")
			}
		}
		return s.ignoreAgents("instruction_files is managed-only: Claude Code reads no AGENTS.md")
	case ModeClaude:
		return s.ignoreAgents("instruction_files is claude-md: Claude Code reads no AGENTS.md")
	case ModeDefault:
		by, err := s.fileOf()
		if err != nil {
			return err
		}
		if by != "" {
			return s.ignoreAgents("turned off by " + by + ": Claude Code reads AGENTS.md only where no CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md loads on the path")
		}
	}
	return s.loadAgents()
}

// fileOf is the CLAUDE.md-family file that makes the default mode add
// no AGENTS.md (root-relative), "" for none: a loaded CLAUDE.md,
// .claude/CLAUDE.md or CLAUDE.local.md of the chain, or any such file of
// a chain directory that loads with text on its own.
func (s *sim) fileOf() (string, error) {
	for _, it := range s.main.items {
		e := it.entry
		if e == nil || e.parent != "" || e.kind != kindProject && e.kind != kindLocal {
			continue
		}
		if !strings.HasSuffix(e.path, "/"+nameMD) && !strings.HasSuffix(e.path, "/"+nameLocalMD) {
			continue
		}
		if d := projectDir(e.path); withinOf(s.cwd, d) {
			return s.c.display(e.path), nil
		}
	}
	// Where no chain directory lists one of the names, the loads below
	// would each find nothing.
	if listed, err := s.c.namesAt(s.dir); err != nil || !listed {
		return "", err
	}
	l := s.seeded()
	for _, d := range s.chain() {
		x := s.c.abs(d)
		if x == "/" {
			continue
		}
		for _, name := range familyNames {
			n, err := l.chainFile(d, name, kindProject)
			if err != nil {
				return "", err
			}
			if n > 0 {
				return s.c.display(x + "/" + name), nil
			}
		}
	}
	return "", nil
}

// familyNames are the names whose loading turns the AGENTS.md plugin off.
var familyNames = []string{nameMD, dotClaude + "/" + nameMD, nameLocalMD}

// namesAt reports whether dir or a directory above it lists one of
// familyNames (for .claude/CLAUDE.md, .claude), once a directory.
func (c *Resolver) namesAt(dir string) (bool, error) {
	if listed, ok := c.names[dir]; ok {
		return listed, nil
	}
	listed := false
	if dir != "" {
		var err error
		if listed, err = c.namesAt(resolve.ParentDir(dir)); err != nil {
			return false, err
		}
	}
	for _, name := range familyNames {
		if listed {
			break
		}
		ok, err := c.has(dir, name)
		if err != nil {
			return false, err
		}
		listed = ok
	}
	c.names[dir] = listed
	return listed, nil
}

// agentsNames are the plugin's names in each directory.
var agentsNames = []string{agentsMD, dotClaude + "/" + agentsMD}

// ignoreAgents lists the chain's AGENTS.md files as not read, why.
func (s *sim) ignoreAgents(why string) error {
	s.agents = map[string][]item{}
	for _, d := range s.chain() {
		x := s.c.abs(d)
		for _, name := range agentsNames {
			ok, err := s.c.has(d, name)
			if err == nil && ok {
				ok, err = s.c.exists(x + "/" + name)
			}
			if err != nil {
				return err
			}
			if ok {
				rel, _ := s.c.shownRel(x + "/" + name)
				s.agents[d] = append(s.agents[d], item{c: agent.Candidate{Path: rel, State: agent.Ignored, Size: -1, Reason: why}})
			}
		}
	}
	return nil
}

// loadAgents loads the chain's AGENTS.md files as the plugin does (one
// pass of its own), drops those whose path or text the main pass already
// has, and places each directory's after that directory's files.
func (s *sim) loadAgents() error {
	if s.c.environment().agentsAbove {
		s.setInexact("a directory above the repository's root holds AGENTS.md, which Claude Code's AGENTS.md plugin loads (its chain runs up to the file system's root); rivumi-lint reads only the repository")
	}
	c := s.c
	var l *loadPass
	s.agents = map[string][]item{}
	chain := s.chain()
	first := 0
	var spans []span
	w0, was := len(s.within), s.inexact
	if st, at := prefixPass(c.plugins, func(p *pluginMode) []string { return p.within }, func(p *pluginMode) bool { return p.ex == s.exKey() }, s.dir, s.cwd, chain); st != nil {
		// The plugin's pass agrees on the chain above: start from a copy
		// (its set is seeded already).
		l = s.loadOver(s.c.o.ExternalImports, st.processed.over())
		l.items = append([]item(nil), st.items...)
		spans = append(spans, st.spans...)
		s.within = append(s.within, st.within...)
		if st.inexact != "" {
			s.setInexact(st.inexact)
		}
		first = at
	} else {
		l = s.seeded()
	}
	for _, d := range chain[first:] {
		if c.isSlash(d) {
			continue
		}
		if g, ok := c.gapFor(d, agentsNames); ok {
			l.processed.addGap(g)
			continue // no items, no span
		}
		for _, name := range agentsNames {
			start := len(l.items)
			if _, err := l.chainFile(d, name, kindProject); err != nil {
				return err
			}
			items := l.items[start:]
			top := ""
			for i := range items {
				if items[i].entry != nil && items[i].entry.parent != "" {
					if top == "" {
						top = c.absName(d, name)
					}
					items[i].entry.parent = top // the plugin's parts all hang from the file
				}
			}
			if len(items) > 0 {
				spans = append(spans, span{dir: d, from: start, to: len(l.items)})
			}
		}
	}
	// Copies, before the items below are taken out of the message.
	frozen := l.processed
	l.processed = frozen.over()
	st := &pluginMode{ex: s.exKey(), processed: frozen, items: append([]item(nil), l.items...),
		spans: append([]span(nil), spans...), within: append([]string(nil), s.within[w0:]...)}
	if was == "" {
		st.inexact = s.inexact
	}
	c.plugins[s.dir] = st
	type group struct {
		dir   string
		items []item
	}
	groups := make([]group, 0, len(spans))
	for _, sp := range spans {
		// Capped: a directory's second group is appended to its first.
		groups = append(groups, group{dir: sp.dir, items: l.items[sp.from:sp.to:sp.to]})
	}
	// fKn: what the main pass has by path or by text is not added again.
	paths := map[string]bool{}
	texts := map[string]string{}
	for _, it := range s.main.items {
		if e := it.entry; e != nil {
			paths[e.path] = true
			if e.kind == kindProject || e.kind == kindLocal {
				if t := jsstring.TrimString(e.text); t != "" {
					if _, ok := texts[t]; !ok {
						texts[t] = e.path
					}
				}
			}
		}
	}
	for gi := range groups {
		for i := range groups[gi].items {
			it := &groups[gi].items[i]
			e := it.entry
			if e == nil {
				continue
			}
			t := jsstring.TrimString(e.text)
			switch same, ok := texts[t]; {
			case paths[e.path]:
				it.unload(agent.Shadowed, "Claude Code already loads it by this path"+importedSuffix(it.c.Reason))
			case t != "" && ok:
				it.unload(agent.Shadowed, "its text is the text of "+s.c.display(same)+", which Claude Code already loads"+importedSuffix(it.c.Reason))
			default:
				paths[e.path] = true
			}
		}
	}
	for _, g := range groups {
		if prev, ok := s.agents[g.dir]; ok {
			s.agents[g.dir] = append(prev, g.items...)
		} else {
			s.agents[g.dir] = g.items // l's items are not changed after
		}
	}
	return nil
}

// candidates is the view's list: the main pass's items with each
// directory's AGENTS.md items where the plugin puts them (SOo).
func (s *sim) candidates() []agent.Candidate {
	items := append([]item(nil), s.main.items...)
	// Each chain directory's slot, shifted as blocks go in.
	slot := slices.Clone(s.slots)
	for di, d := range s.chain() {
		block := s.agents[d]
		if len(block) == 0 {
			continue
		}
		loads := false
		for _, it := range block {
			loads = loads || it.entry != nil
		}
		at := slot[di]
		if loads {
			at = s.placement(items, s.c.abs(d), slot[di])
		}
		items = slices.Insert(items, at, block...)
		for j, i := range slot {
			if i >= at && j != di {
				slot[j] = i + len(block)
			}
		}
		slot[di] = at + len(block)
	}
	out := make([]agent.Candidate, len(items))
	for i, it := range items {
		out[i] = it.c
		if it.entry == nil {
			out[i].Text = nil
		}
	}
	return out
}

// placement is R0s over items: before the first project or local file
// whose directory (that of the file its import chain starts at) is below
// x; else after the last project or local file. Between the two loaded
// files around that place, the directory's own slot is taken when it lies
// there (the message is the same; the candidates stay in directory order).
func (s *sim) placement(items []item, x string, own int) int {
	var byPath map[string]*loadEntry // made for the first import met
	root := func(e *loadEntry) string {
		if e.parent == "" {
			return e.path
		}
		if byPath == nil {
			byPath = map[string]*loadEntry{}
			for _, it := range items {
				if it.entry != nil {
					byPath[it.entry.path] = it.entry
				}
			}
		}
		seen := map[string]bool{e.path: true}
		n, r := e.path, e.parent
		for r != "" && !seen[r] {
			seen[r] = true
			n = r
			if p := byPath[r]; p != nil {
				r = p.parent
			} else {
				r = ""
			}
		}
		return n
	}
	at, last := -1, -1
	for i, it := range items {
		e := it.entry
		if e == nil || e.kind != kindProject && e.kind != kindLocal {
			continue
		}
		if d := projectDir(root(e)); strings.HasPrefix(d, strings.TrimSuffix(x, "/")+"/") {
			at = i
			break
		}
		last = i
	}
	if at == -1 {
		if last == -1 {
			at = len(items)
		} else {
			at = last + 1
		}
	}
	// The loaded files before and after at bound where the block may go.
	lo, hi := 0, len(items)
	for i := at - 1; i >= 0; i-- {
		if items[i].entry != nil {
			lo = i + 1
			break
		}
	}
	for i := at; i < len(items); i++ {
		if items[i].entry != nil {
			hi = i
			break
		}
	}
	if own >= lo && own <= hi {
		return own
	}
	return at
}
