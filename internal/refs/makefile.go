package refs

import (
	"bytes"
	"path"
	"strconv"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Bounds on what a Makefile can make the resolver do, whatever it holds.
const (
	maxIncludeDepth = 8    // include inside include
	maxMakefiles    = 64   // files read for one makefile
	maxExpand       = 4096 // bytes a variable expands to
	maxExpandDepth  = 16   // variables inside variables
)

// makefile is what one parse of a makefile's text found.
type makefile struct {
	targets  map[string]bool
	patterns []string // targets with a % (pattern rules)
	matchAll bool     // a "%:" rule or .DEFAULT: make accepts any goal
	unknown  string   // why some targets cannot be known ("" when all can)
}

// includeFunc reads the files an include directive names (words
// expanded, globs not), given the variables so far; it returns why one
// could not be read, or "".
type includeFunc func(words []string, optional bool, vars map[string]string) string

// parseMakefile reads the rules of a GNU makefile: explicit and
// double-colon rules, .PHONY, pattern rules, variable assignments (to
// expand target names and includes) and include directives, which it
// hands to include. Every branch of a conditional is read, so a target
// defined under any is known. A target name made by what cannot be
// expanded here ($(shell …), a variable from the environment, $(eval …))
// marks the file's targets as not all known.
func parseMakefile(data []byte, vars map[string]string, include includeFunc) *makefile {
	m := &makefile{targets: map[string]bool{}}
	inRule := false
	defineDepth := 0
	for _, line := range logicalLines(data) {
		if defineDepth > 0 {
			w := firstWord(strings.TrimSpace(line))
			switch {
			case w == "endef":
				defineDepth--
			case w == "define" || strings.Contains(line, " define "):
				defineDepth++
			}
			continue
		}
		if strings.HasPrefix(line, "\t") && inRule {
			continue // a recipe line
		}
		line = stripMakeComment(line)
		s := strings.TrimSpace(line)
		if s == "" {
			continue
		}
		w := firstWord(s)
		switch w {
		case "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif":
			continue
		case "define":
			defineDepth++
			continue
		case "include", "-include", "sinclude":
			inRule = false
			if why := include(strings.Fields(strings.TrimSpace(s[len(w):])), w != "include", vars); why != "" && m.unknown == "" {
				m.unknown = why
			}
			continue
		case "export", "unexport", "override", "private", "undefine", "vpath":
			rest := strings.TrimSpace(s[len(w):])
			if firstWord(rest) == "define" {
				defineDepth++
				continue
			}
			if w == "export" || w == "override" || w == "private" {
				if k, op, v, ok := assignment(rest); ok {
					assign(vars, k, op, v)
					inRule = false
				}
			}
			continue
		}
		if k, op, v, ok := assignment(s); ok {
			assign(vars, k, op, v)
			inRule = false
			continue
		}
		targets, prereqs, ok := ruleHead(s)
		if !ok {
			if strings.Contains(s, "$(eval") || strings.Contains(s, "${eval") {
				if m.unknown == "" {
					m.unknown = "it makes rules with $(eval …)"
				}
			}
			continue
		}
		inRule = true
		names, why := expandWords(targets, vars)
		if why != "" && m.unknown == "" {
			m.unknown = "a target name holds " + why
		}
		for _, n := range names {
			m.add(n)
			switch n {
			case ".PHONY":
				ps, why := expandWords(prereqs, vars)
				if why != "" && m.unknown == "" {
					m.unknown = "a .PHONY name holds " + why
				}
				for _, p := range ps {
					m.add(p)
				}
			case ".DEFAULT":
				m.matchAll = true
			}
		}
	}
	return m
}

func (m *makefile) add(name string) {
	name = strings.TrimPrefix(name, "./")
	switch {
	case name == "%":
		m.matchAll = true
	case strings.Contains(name, "%"):
		if len(m.patterns) < 4096 {
			m.patterns = append(m.patterns, name)
		}
	default:
		m.targets[name] = true
	}
}

// has reports whether make would accept goal by this makefile's rules.
func (m *makefile) has(goal string) bool {
	if m.matchAll || m.targets[goal] {
		return true
	}
	for _, p := range m.patterns {
		i := strings.IndexByte(p, '%')
		pre, suf := p[:i], p[i+1:]
		if len(goal) > len(pre)+len(suf) && strings.HasPrefix(goal, pre) && strings.HasSuffix(goal, suf) {
			return true
		}
	}
	return false
}

// logicalLines splits a makefile into lines, joining a line that ends in
// a backslash with the next.
func logicalLines(data []byte) []string {
	var out []string
	var cur strings.Builder
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		var line []byte
		if i < 0 {
			line, data = data, nil
		} else {
			line, data = data[:i], data[i+1:]
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if n := trailingBackslashes(line); n%2 == 1 {
			cur.Write(line[:len(line)-1])
			cur.WriteByte(' ')
			continue
		}
		cur.Write(line)
		out = append(out, cur.String())
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

func trailingBackslashes(b []byte) int {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '\\' {
		n++
	}
	return n
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

// stripMakeComment cuts a "#" comment (not "\#").
func stripMakeComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '#' {
			return s[:i]
		}
	}
	return s
}

// assignment reads "NAME op value" (=, :=, ::=, :::=, ?=, +=, !=) where
// the operator comes before any rule colon.
func assignment(s string) (name, op, value string, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case ':':
			if depth != 0 {
				continue
			}
			j := i
			for j < len(s) && s[j] == ':' {
				j++
			}
			if j < len(s) && s[j] == '=' && j-i <= 3 {
				return strings.TrimSpace(s[:i]), s[i : j+1], strings.TrimSpace(s[j+1:]), strings.TrimSpace(s[:i]) != ""
			}
			return "", "", "", false
		case '=':
			if depth != 0 {
				continue
			}
			k, op := s[:i], "="
			if i > 0 && strings.IndexByte("?+!", s[i-1]) >= 0 {
				k, op = s[:i-1], s[i-1:i+1]
			}
			k = strings.TrimSpace(k)
			if k == "" || strings.ContainsAny(k, " \t") {
				return "", "", "", false
			}
			return k, op, strings.TrimSpace(s[i+1:]), true
		}
	}
	return "", "", "", false
}

func assign(vars map[string]string, name, op, value string) {
	if strings.Contains(name, "$") {
		return
	}
	switch op {
	case "?=":
		if _, ok := vars[name]; ok {
			return
		}
	case "+=":
		if old, ok := vars[name]; ok {
			value = old + " " + value
		}
	case "!=":
		value = "$(shell " + value + ")" // a command's output: not known here
	}
	if len(value) > maxExpand {
		value = "$(shell too long)"
	}
	if len(vars) < 4096 {
		vars[name] = value
	}
}

// ruleHead splits "targets : prerequisites" (also "::" and "&:") at the
// first colon outside a variable reference.
func ruleHead(s string) (targets, prereqs string, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case ':':
			if depth != 0 {
				continue
			}
			t := strings.TrimSuffix(strings.TrimSpace(s[:i]), "&")
			rest := strings.TrimPrefix(s[i+1:], ":")
			if j := strings.IndexByte(rest, ';'); j >= 0 {
				rest = rest[:j]
			}
			if strings.TrimSpace(t) == "" {
				return "", "", false
			}
			return t, rest, true
		}
	}
	return "", "", false
}

// expandWords expands s and splits it into words; why names the first
// reference that cannot be expanded (its words are then left out).
func expandWords(s string, vars map[string]string) ([]string, string) {
	var out []string
	why := ""
	for _, w := range strings.Fields(s) {
		if !strings.Contains(w, "$") {
			out = append(out, w)
			continue
		}
		v, ok := expand(w, vars, 0)
		if !ok {
			if why == "" {
				why = w
			}
			continue
		}
		out = append(out, strings.Fields(v)...)
	}
	return out, why
}

// expand expands the variable references of s: $(NAME), ${NAME}, $X and
// $$. A function call, a substitution reference or a variable this file
// does not set (the environment's, the command line's) cannot be known.
func expand(s string, vars map[string]string, depth int) (string, bool) {
	if depth > maxExpandDepth {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if b.Len() > maxExpand {
			return "", false
		}
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			return "", false
		}
		var name string
		switch c := s[i+1]; c {
		case '$':
			b.WriteByte('$')
			i++
			continue
		case '(', '{':
			closer := byte(')')
			if c == '{' {
				closer = '}'
			}
			j := strings.IndexByte(s[i+2:], closer)
			if j < 0 {
				return "", false
			}
			name = s[i+2 : i+2+j]
			i += 2 + j
		default:
			name = s[i+1 : i+2]
			i++
		}
		if name == "" || strings.ContainsAny(name, " \t:$,=(){}") {
			return "", false
		}
		v, ok := vars[name]
		if !ok {
			return "", false
		}
		e, ok := expand(v, vars, depth+1)
		if !ok {
			return "", false
		}
		b.WriteString(e)
	}
	return b.String(), true
}

// makeDB is a makefile with everything it includes.
type makeDB struct {
	file  string
	rules []*makefile
	why   string // the makefile itself cannot be read
	err   error
}

func (d *makeDB) has(goal string) bool {
	for _, m := range d.rules {
		if m.has(goal) {
			return true
		}
	}
	return false
}

func (d *makeDB) unknown() string {
	for _, m := range d.rules {
		if m.unknown != "" {
			return m.unknown
		}
	}
	return ""
}

// makefileNames are the names make looks for, in its order.
var makefileNames = []string{"GNUmakefile", "makefile", "Makefile"}

// loadMake parses the makefile p, run from directory cwd (includes are
// relative to it, as make reads them).
func (rv *Resolver) loadMake(cwd, p string) *makeDB {
	key := cwd + "\x00" + p
	if d, ok := rv.makes[key]; ok {
		return d
	}
	d := &makeDB{file: p}
	rv.makes[key] = d
	f := rv.read(p)
	if f.data == nil {
		d.why, d.err = f.why, f.err
		return d
	}
	count := 1
	vars := map[string]string{}
	var parse func(data []byte, depth int)
	parse = func(data []byte, depth int) {
		inc := func(words []string, optional bool, vars map[string]string) string {
			if depth >= maxIncludeDepth {
				return "its includes nest deeper than " + itoa(maxIncludeDepth)
			}
			for _, w := range words {
				name, ok := expand(w, vars, 0)
				if !ok {
					return "it includes " + w
				}
				for _, n := range strings.Fields(name) {
					paths, why := rv.glob(cwd, n)
					if why != "" {
						return why
					}
					if len(paths) == 0 && !optional {
						return "it includes " + n + ", which is not in this snapshot (it may be generated)"
					}
					for _, ip := range paths {
						if count >= maxMakefiles {
							return "it includes more than " + itoa(maxMakefiles) + " files"
						}
						count++
						g := rv.read(ip)
						if g.err != nil && d.err == nil {
							d.err = g.err
						}
						if g.data == nil {
							if optional {
								continue
							}
							return g.why
						}
						parse(g.data, depth+1)
					}
				}
			}
			return ""
		}
		d.rules = append(d.rules, parseMakefile(data, vars, inc))
	}
	parse(f.data, 0)
	return d
}

// glob returns the regular files matching the relative pattern pat from
// cwd (make's include accepts shell globs).
func (rv *Resolver) glob(cwd, pat string) ([]string, string) {
	if strings.HasPrefix(pat, "/") || strings.HasPrefix(pat, "~") {
		return nil, "it includes " + pat + ", outside the root"
	}
	p, ok := join(cwd, pat)
	if !ok {
		return nil, "it includes " + pat + ", outside the root"
	}
	if !strings.ContainsAny(pat, "*?[") {
		kind, _, err := rv.lookup(p)
		if err != nil {
			return nil, "it includes " + pat + ": " + err.Error()
		}
		if kind == resolve.Missing {
			return nil, ""
		}
		return []string{p}, ""
	}
	dirs := []string{""}
	for _, seg := range strings.Split(p, "/") {
		var next []string
		for _, d := range dirs {
			l := rv.list(d)
			if l.err != nil {
				continue
			}
			if !strings.ContainsAny(seg, "*?[") {
				if _, ok := l.ents[seg]; ok {
					next = append(next, path.Join(d, seg))
				}
				continue
			}
			for name := range l.ents {
				if ok, _ := path.Match(seg, name); ok {
					next = append(next, path.Join(d, name))
				}
			}
		}
		if len(next) > maxMakefiles {
			return nil, "it includes " + pat + ", which matches too many files"
		}
		dirs = next
	}
	return dirs, ""
}

func itoa(n int) string { return strconv.Itoa(n) }

// makeTarget resolves a make goal: the makefile of each directory it may
// run in (with -C, that one) defines it, or a file or directory of that
// name makes it "nothing to be done".
func (rv *Resolver) makeTarget(dir string, r Ref) Result {
	cwds, stop, err := rv.cwds(dir, r.Dir)
	if err != nil {
		return Result{Status: NotChecked, Why: err.Error(), Err: err}
	}
	if len(cwds) == 0 {
		if stop != "" {
			return Result{Status: NotChecked, Why: stop}
		}
		return Result{Status: Unresolved, Why: "no directory " + r.Dir + " for make -C"}
	}
	unknown := stop
	var seen []string
	for _, cwd := range cwds {
		var file string
		if r.File != "" {
			p, ok := join(cwd, r.File)
			if !ok {
				continue
			}
			kind, _, err := rv.lookup(p)
			if err != nil {
				if resolve.IsFatal(err) {
					return Result{Status: NotChecked, Why: err.Error(), Err: err}
				}
				unknown = err.Error()
				continue
			}
			if kind == resolve.Missing {
				continue
			}
			file = p
		} else {
			for _, n := range makefileNames {
				e, ok, err := rv.entry(cwd, n)
				if err != nil {
					return Result{Status: NotChecked, Why: err.Error(), Err: err}
				}
				if ok {
					file = path.Join(cwd, e.Name)
					break
				}
			}
		}
		if file == "" {
			continue
		}
		d := rv.loadMake(cwd, file)
		if d.err != nil {
			return Result{Status: NotChecked, Why: d.err.Error(), Err: d.err}
		}
		if d.why != "" {
			unknown = d.why
			continue
		}
		seen = append(seen, file)
		if d.has(r.Target) {
			return Result{Status: Resolved, Path: file}
		}
		if p, ok := join(cwd, r.Target); ok {
			if kind, _, err := rv.lookup(p); err == nil && kind != resolve.Missing {
				return Result{Status: Resolved, Path: p}
			}
		}
		if u := d.unknown(); u != "" && unknown == "" {
			unknown = file + ": " + u
		}
	}
	if unknown != "" {
		return Result{Status: NotChecked, Why: unknown}
	}
	if len(seen) == 0 {
		where := dirName(dir) + " or a directory above it"
		if r.Dir != "" {
			where = r.Dir
		}
		return Result{Status: Unresolved, Why: "no Makefile in " + where}
	}
	return Result{Status: Unresolved, Why: "no target " + r.Target + " in " + strings.Join(seen, ", ")}
}
