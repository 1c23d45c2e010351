package claude

// claudeMdExcludes from Claude Code's settings files (#33.4). Claude Code
// 2.1.328 merges the key's arrays from every settings file it loads and
// matches the union with picomatch ({dot: true}) against each file's
// absolute path. Settled by running the binary from small trees
// (TestClaudeExcludesSettings):
//
//   - the user's ~/.claude/settings.json;
//   - the working directory's .claude/settings.json and
//     .claude/settings.local.json (a parent's, up to the Git top, are not
//     read);
//   - the Git top's .claude/settings.local.json (not its settings.json):
//     the nearest directory at or above the working directory holding .git;
//     for a linked worktree the main worktree's (Claude Code's canonical
//     Git root), which rivumi-lint sees only by name (LocalAbove);
//   - a file that is not JSON, or whose claudeMdExcludes (or any other
//     key) has the wrong type, is dropped whole; an empty file is none;
//     a leading byte-order mark is allowed;
//   - the patterns apply to the user's, the project's and the local files,
//     their rules and their imports (an import of an excluded file goes
//     with it), never to managed ones.
//
// What cannot be pinned makes the view not exact: a pattern using
// picomatch features outside the subset doublestar shares with it, a
// settings file behind a symbolic link, one that sets other keys beside
// claudeMdExcludes (any of them invalid drops the file), an absolute
// pattern whose directory is a link (Claude Code also matches its target).

import (
	"bytes"
	"encoding/json"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// settingsMax bounds a settings file read: a larger one is not
// modelled (the view says so).
const settingsMax = 1 << 20

// excludeSet are the claudeMdExcludes in force for one working
// directory.
type excludeSet struct {
	// key is inexact and the globs with where each is from, sorted and
	// joined: passes whose keys agree exclude the same files, for the same
	// reasons, and are as exact.
	key   string
	globs []excludeGlob
	// inexact says why the patterns may not be Claude Code's.
	inexact string
}

// excludeGlob is one claudeMdExcludes pattern and the file that sets it.
type excludeGlob struct{ glob, from string }

// match is the first glob that matches the absolute path p, as picomatch's
// list matches: any pattern; a leading "!" negates one.
func (x *excludeSet) match(p string) (excludeGlob, bool) {
	for _, cg := range x.globs {
		g, neg := cg.glob, false
		if rest, ok := strings.CutPrefix(g, "!"); ok {
			g, neg = rest, true
		}
		if ok, err := doublestar.Match(g, p); err == nil && ok != neg {
			return cg, true
		}
	}
	return excludeGlob{}, false
}

// settingsRead is one settings file's part.
type settingsRead struct {
	globs   []excludeGlob
	inexact string
}

// excludesOf is the claudeMdExcludes of the working directory dir, once.
func (c *Resolver) excludesOf(dir string) (*excludeSet, error) {
	info, err := c.dirOf(dir)
	if err != nil {
		return nil, err
	}
	return c.excludesIn(dir, info)
}

// excludesIn is excludesOf(dir), info its listing. A directory whose
// listing has no .claude reads no settings file of its own: its set is
// the one every such directory with the same Git top has (most
// directories of a large tree), made once for them all.
func (c *Resolver) excludesIn(dir string, info *resolve.DirInfo) (*excludeSet, error) {
	if holds(info, dotClaude) {
		if x, ok := c.excls[dir]; ok {
			return x, nil
		}
		x, err := c.makeExcludes(dir)
		if err != nil {
			return nil, err
		}
		c.excls[dir] = x
		return x, nil
	}
	top, found, err := c.gitTopIn(dir, info)
	if err != nil {
		return nil, err
	}
	k := topKey{top: top, found: found, self: top == dir}
	if x, ok := c.exclTops[k]; ok {
		return x, nil
	}
	x, err := c.makeExcludes(dir)
	if err != nil {
		return nil, err
	}
	c.exclTops[k] = x
	return x, nil
}

// topKey is all that a directory without .claude of its own has its
// claudeMdExcludes by: its gitTop answer, and whether it is that top.
type topKey struct {
	top         string
	found, self bool
}

// makeExcludes reads the claudeMdExcludes of the working directory dir.
func (c *Resolver) makeExcludes(dir string) (*excludeSet, error) {
	x := &excludeSet{}
	add := func(r settingsRead) {
		x.globs = append(x.globs, r.globs...)
		if x.inexact == "" {
			x.inexact = r.inexact
		}
	}
	add(checkGlobs("the config's claude.md_excludes", c.o.Excludes))
	if c.home != "" {
		if c.userSettings == nil {
			r := parseClaudeSettings("~/.claude/settings.json", readHomeFile(c.home+"/.claude/settings.json"))
			c.userSettings = &r
		}
		add(*c.userSettings)
	}
	for _, name := range []string{"settings.json", "settings.local.json"} {
		r, err := c.projectSettings(dir, name)
		if err != nil {
			return nil, err
		}
		add(r)
	}
	top, found, err := c.gitTop(dir)
	if err != nil {
		return nil, err
	}
	switch {
	case !found && top != "":
		if x.inexact == "" {
			x.inexact = c.display(c.abs(top)) + "/.git is a file (a submodule or a linked worktree): Claude Code reads the .claude/settings.local.json of its canonical Git root, which rivumi-lint does not follow"
		}
	case found && top != dir:
		r, err := c.projectSettings(top, "settings.local.json")
		if err != nil {
			return nil, err
		}
		add(r)
	case !found && c.o.LocalAbove != nil: // top is the root
		if why := c.o.LocalAbove(); why != "" && x.inexact == "" {
			x.inexact = why
		}
	}
	if x.inexact == "" {
		x.inexact = c.linkedPatternDirs(x.globs)
	}
	if x.inexact == "" && c.environment().managedSettings {
		x.inexact = "managed settings exist in /etc/claude-code (managed-settings.json or managed-settings.d), whose claudeMdExcludes Claude Code applies; rivumi-lint reads only the repository"
	}
	keys := make([]string, len(x.globs))
	for i, g := range x.globs {
		keys[i] = g.glob + "\x00" + g.from
	}
	// The reason is part of the key: a pass copied from another must
	// inherit no reason of that pass's settings, nor lose its own.
	x.key = x.inexact + "\x01" + strings.Join(slices.Compact(slices.Sorted(slices.Values(keys))), "\x00")
	return x, nil
}

// gitTop is the nearest directory at or above dir inside the root that
// holds a .git directory, as Claude Code finds its Git root; a .git file
// (a linked worktree, a submodule) there stops the walk unfound, top set
// (its canonical root is elsewhere; LocalAbove answers for the root's own,
// top ""), and so does no .git at all.
func (c *Resolver) gitTop(dir string) (top string, found bool, err error) {
	if t, ok := c.tops[dir]; ok {
		return t.top, t.found, nil
	}
	t := gitTopAt{}
	var ent resolve.Entry
	if info, ok := c.e.Listed(dir); ok {
		// The engine lists the directory keeping .git (Also): no stat.
		ent, _ = info.Lookup(".git")
	} else {
		ent, err = c.e.Source().Lstat(path.Join(dir, ".git"))
	}
	switch {
	case err != nil && resolve.IsFatal(err): // IsFatal(nil) costs an allocation
		return "", false, err
	case dir == "" && c.o.RootGit:
		t.found = true
	case err == nil && ent.Kind != resolve.Missing:
		t.top, t.found = dir, ent.Kind == resolve.Dir
	case dir != "":
		if t.top, t.found, err = c.gitTop(resolve.ParentDir(dir)); err != nil {
			return "", false, err
		}
	}
	c.tops[dir] = t
	return t.top, t.found, nil
}

// gitTopIn is gitTop(dir), info its listing, not kept for a directory
// without a .git entry, whose answer is its parent's: most directories
// are such, and keeping each answer cost more than asking the parent's
// again.
func (c *Resolver) gitTopIn(dir string, info *resolve.DirInfo) (top string, found bool, err error) {
	if ent, _ := info.Lookup(".git"); dir != "" && ent.Kind == resolve.Missing {
		return c.gitTop(resolve.ParentDir(dir))
	}
	return c.gitTop(dir)
}

// gitTopAt is gitTop's answer for one directory.
type gitTopAt struct {
	top   string
	found bool
}

// projectSettings reads the settings file name in the .claude of the
// root-relative directory dir through the engine's source, never behind a
// link.
func (c *Resolver) projectSettings(dir, name string) (settingsRead, error) {
	if ok, err := c.has(dir, dotClaude); err != nil || !ok {
		return settingsRead{}, err // the listing has no .claude: nothing to look at
	}
	p := path.Join(dir, dotClaude, name)
	f, err := c.follow(p)
	if err != nil {
		return settingsRead{}, err
	}
	shown := c.display(c.abs(p))
	switch f.Walk {
	case agent.WalkNotFound, agent.WalkNotDir:
		return settingsRead{}, nil
	case agent.WalkFound:
		if f.Path == p {
			break
		}
		fallthrough
	default:
		return settingsRead{inexact: shown + " is reached through a symbolic link, which Claude Code follows and rivumi-lint does not follow for a settings file"}, nil
	}
	if f.Ent.Kind != resolve.Regular {
		return settingsRead{inexact: shown + " is a " + f.Ent.Kind.String() + ", not a file; what Claude Code makes of it is not modelled"}, nil
	}
	data, kind, size, err := c.e.Source().Read(p, settingsMax)
	if resolve.IsFatal(err) {
		return settingsRead{}, err
	}
	switch {
	case err != nil:
		return settingsRead{inexact: shown + " cannot be read (" + err.Error() + ")"}, nil
	case kind != resolve.Regular:
		return settingsRead{inexact: shown + " is not a regular file when read"}, nil
	case size > settingsMax || int64(len(data)) > settingsMax:
		return settingsRead{inexact: shown + " is over 1 MiB, which rivumi-lint does not read"}, nil
	}
	return parseClaudeSettings(shown, fileRead{kind: resolve.Regular, data: data}), nil
}

// parseClaudeSettings takes claudeMdExcludes out of a settings file's
// bytes as Claude Code 2.1.328 would load them.
func parseClaudeSettings(shown string, r fileRead) settingsRead {
	switch {
	case r.kind == resolve.Missing:
		return settingsRead{}
	case r.kind != resolve.Regular:
		return settingsRead{inexact: shown + " is not a file; what Claude Code makes of it is not modelled"}
	case r.err != "" || r.data == nil && r.size > 0:
		return settingsRead{inexact: shown + " cannot be read whole here"}
	}
	globs, why := settingsExcludes(r.data)
	if why != "" {
		return settingsRead{inexact: shown + " " + why}
	}
	return checkGlobs(shown, globs)
}

// settingsExcludes is claudeMdExcludes of the settings bytes data,
// or why Claude Code's reading of them is not known here.
func settingsExcludes(data []byte) (globs []string, why string) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(data) == 0 {
		return nil, "" // Claude Code: no settings
	}
	if !utf8.Valid(data) {
		return nil, "is not UTF-8; Claude Code drops a file it cannot parse, and whether it can is not modelled"
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil || doc == nil {
		why := "is not a JSON object"
		if err != nil {
			why = "is not valid JSON (" + err.Error() + ")"
		}
		return nil, why + "; Claude Code drops such a file whole (\"Invalid or malformed JSON\"), and its parser's edge cases are not modelled: fix the file"
	}
	raw, ok := doc["claudeMdExcludes"]
	if !ok {
		return nil, "" // nothing of this file matters to the view
	}
	var elems []json.RawMessage
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &elems) != nil {
		return nil, "sets claudeMdExcludes to something other than a list of strings: Claude Code 2.1.328 drops the whole file (\"Expected array\"); fix the value"
	}
	for _, e := range elems {
		var s string
		if t := bytes.TrimSpace(e); len(t) == 0 || t[0] != '"' || json.Unmarshal(t, &s) != nil {
			return nil, "lists a claudeMdExcludes entry that is not a string: Claude Code 2.1.328 drops the whole file (\"Expected string\"); fix the value"
		}
		globs = append(globs, s)
	}
	for k := range doc {
		if k != "claudeMdExcludes" && k != "$schema" {
			return nil, "sets " + strconvQuote(k) + " beside claudeMdExcludes, and Claude Code drops the whole file when any key's value is invalid, which rivumi-lint does not check (put claudeMdExcludes in a settings file of its own, or in the config's claude.md_excludes)"
		}
	}
	return globs, ""
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// checkGlobs keeps the globs as Claude Code reads them (a backslash
// is a "/", empty ones dropped) and says why the view is not exact when
// one uses what this matcher does not share with picomatch.
func checkGlobs(shown string, in []string) settingsRead {
	var r settingsRead
	for _, g := range in {
		g = strings.ReplaceAll(g, `\`, "/")
		if g == "" {
			continue
		}
		r.globs = append(r.globs, excludeGlob{glob: g, from: shown})
		if why := globUnmodelled(g); why != "" && r.inexact == "" {
			r.inexact = shown + ": the claudeMdExcludes pattern " + strconvQuote(g) + " " + why + ", which rivumi-lint does not model"
		}
	}
	return r
}

// globUnmodelled says which picomatch feature g uses that
// doublestar does not match the same way, "" for none: extglobs and
// regular-expression groups, POSIX classes, brace ranges, a brace group
// without a comma (literal for picomatch), nested braces, a negation of a
// negation.
func globUnmodelled(g string) string {
	body := strings.TrimPrefix(g, "!")
	switch {
	case body == "" || strings.HasPrefix(body, "!") || strings.HasPrefix(body, "("):
		return "is a bare negation, a double one or a negated group"
	case strings.ContainsAny(body, "()|"):
		return "holds an extglob or a group (( ) |)"
	case strings.Contains(body, "[["):
		return "holds a POSIX character class"
	case !doublestar.ValidatePattern(body):
		return "is not a valid glob"
	}
	depth, commas := 0, 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '{':
			depth++
			if depth > 1 {
				return "nests brace groups"
			}
			commas = 0
		case ',':
			if depth > 0 {
				commas++
			}
		case '}':
			if depth > 0 && commas == 0 {
				return "holds a brace group without a comma"
			}
			depth--
		case '.':
			if depth > 0 && strings.HasPrefix(body[i:], "..") {
				return "holds a brace range ({a..b})"
			}
		}
	}
	return ""
}

// linkedPatternDirs says why the view is not exact when an absolute
// pattern's literal directory is reached through a link: Claude Code then
// adds the pattern with that directory resolved (zZr), which is not
// modelled. Inside the root the engine answers; elsewhere RealDir does.
func (c *Resolver) linkedPatternDirs(globs []excludeGlob) string {
	for _, cg := range globs {
		g := strings.TrimPrefix(cg.glob, "!")
		if !strings.HasPrefix(g, "/") {
			continue
		}
		lit := g
		if i := strings.IndexAny(g, "*?{["); i >= 0 {
			lit = g[:i]
		}
		k := path.Dir(lit) // node's dirname: "/a/b/" is "/a"
		if strings.HasSuffix(lit, "/") && len(lit) > 1 {
			k = path.Dir(strings.TrimSuffix(lit, "/"))
		}
		linked := false
		if _, ok := agent.UnderRoot(c.o.RootAbs, k); ok {
			r, err := c.realpath(k)
			linked = err == nil && r.linked
		} else if !withinOf(c.o.RootAbs, k) && c.o.RealDir != nil {
			linked = c.o.RealDir(k) != k
		}
		if linked {
			return "the claudeMdExcludes pattern " + strconvQuote(g) + " names its directory through a symbolic link, and Claude Code also matches the pattern with that link resolved, which rivumi-lint does not model"
		}
	}
	return ""
}
