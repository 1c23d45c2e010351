package gitattr

import (
	"strings"

	"github.com/rivumi/rivumi-lint/internal/wildmatch"
)

// Loader reads the attributes file of directory dir ("" for the root):
// ok is false when there is none (no entry, or one that is not a regular
// file: Git ignores a symbolic link).
type Loader func(dir string) (data []byte, ok bool, err error)

// builtin is Git's built-in macro, below every file.
var builtin = Parse("[builtin]", "", []byte("[attr]binary -diff -merge -text\n"), true)

// Checker answers attribute questions for the files of one tree or index,
// reading each directory's attributes file at most once.
type Checker struct {
	load   Loader
	info   *File // info/attributes: above every in-tree file; nil when absent
	dirs   map[string]*File
	chains map[string][]*File // per directory: its file and its ancestors', deepest first
	stacks map[string][]*File // per directory: what stack returns for its files
}

// NewChecker returns a checker over the attributes files load reads, with
// info (info/attributes of the Git directory, nil when there is none) on
// top, as Git stacks them.
func NewChecker(load Loader, info *File) *Checker {
	return &Checker{load: load, info: info, dirs: map[string]*File{},
		chains: map[string][]*File{}, stacks: map[string][]*File{}}
}

// dir returns the parsed attributes file of directory d, or nil.
func (c *Checker) dir(d string) (*File, error) {
	if f, ok := c.dirs[d]; ok {
		return f, nil
	}
	data, ok, err := c.load(d)
	if err != nil {
		return nil, err
	}
	var f *File
	if ok {
		name := FileName
		if d != "" {
			name = d + "/" + FileName
		}
		// Macros are allowed in the root file only.
		f = Parse(name, d, data, d == "")
	}
	c.dirs[d] = f
	return f, nil
}

// chain returns the attributes files of directory d and its ancestors,
// deepest first, computed once per directory: a directory without a file
// shares its parent's slice.
func (c *Checker) chain(d string) ([]*File, error) {
	if ch, ok := c.chains[d]; ok {
		return ch, nil
	}
	var up []*File
	if d != "" {
		parent := ""
		if i := strings.LastIndexByte(d, '/'); i >= 0 {
			parent = d[:i]
		}
		var err error
		if up, err = c.chain(parent); err != nil {
			return nil, err
		}
	}
	f, err := c.dir(d)
	if err != nil {
		return nil, err
	}
	ch := up
	if f != nil {
		ch = append([]*File{f}, up...)
	}
	c.chains[d] = ch
	return ch, nil
}

// stack returns the files that apply to path p, highest precedence first:
// info/attributes, the deepest directory's file up to the root's, then
// the built-in macros. Files of one directory share one stack.
func (c *Checker) stack(p string) ([]*File, error) {
	d := ""
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		d = p[:i]
	}
	if st, ok := c.stacks[d]; ok {
		return st, nil
	}
	ch, err := c.chain(d)
	if err != nil {
		return nil, err
	}
	out := make([]*File, 0, len(ch)+2)
	if c.info != nil {
		out = append(out, c.info)
	}
	out = append(append(out, ch...), builtin)
	c.stacks[d] = out
	return out, nil
}

// All returns every attribute of the file at path p (a slash path from
// the root) that is set, unset or has a value, as `git check-attr -a`
// lists them; attributes that end up unspecified are left out.
func (c *Checker) All(p string) (map[string]Value, error) {
	st, err := c.stack(p)
	if err != nil {
		return nil, err
	}
	if len(st) == 1 {
		return nil, nil // the built-in macro alone sets nothing
	}
	// The macro definition of each name: the highest-precedence file's,
	// its last line (attr.c determine_macros).
	macros := map[string]*line{}
	for _, f := range st {
		for i := len(f.lines) - 1; i >= 0; i-- {
			if l := &f.lines[i]; l.macro != "" {
				if _, ok := macros[l.macro]; !ok {
					macros[l.macro] = l
				}
			}
		}
	}
	// attr.c fill: the first value met, walking from the highest
	// precedence down and from the last line up, wins; an attribute that
	// is set and is a macro also sets what the macro says, where nothing
	// has yet (macroexpand_one).
	vals := map[string]Value{}
	var fill func(states []assign, from Origin)
	fill = func(states []assign, from Origin) {
		for i := len(states) - 1; i >= 0; i-- {
			a := states[i]
			if _, done := vals[a.name]; done {
				continue
			}
			vals[a.name] = Value{State: a.state, Text: a.text, From: from}
			if m := macros[a.name]; m != nil && a.state == Set {
				fill(m.states, Origin{File: from.File, Line: from.Line, Macro: a.name})
			}
		}
	}
	base := p[strings.LastIndexByte(p, '/')+1:]
	for _, f := range st {
		for i := len(f.lines) - 1; i >= 0; i-- {
			l := &f.lines[i]
			if l.macro != "" || !l.matches(p, base, f.Dir) {
				continue
			}
			fill(l.states, Origin{File: f.Name, Line: l.num})
		}
	}
	for k, v := range vals {
		if v.State == Unspecified {
			delete(vals, k)
		}
	}
	return vals, nil
}

// matches is attr.c path_matches for a file (never a directory): a
// pattern without a slash matches the basename; one with a slash matches
// the path relative to the directory of its file, with "/" stopping '*'.
func (l *line) matches(p, base, dir string) bool {
	if l.mustDir {
		return false
	}
	if l.noDir {
		return wildmatch.Match(l.pattern, base, 0)
	}
	name := p
	if dir != "" {
		if !strings.HasPrefix(p, dir+"/") {
			return false
		}
		name = p[len(dir)+1:]
	}
	return wildmatch.Match(strings.TrimPrefix(l.pattern, "/"), name, wildmatch.Pathname)
}
