package refs

import (
	"bytes"
	"path"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// justfile is what one parse of a justfile's text found.
type justfile struct {
	recipes  map[string]bool // recipes and aliases
	imports  []justImport
	modules  map[string]justImport // mod NAME ['path']
	fallback bool                  // set fallback: a recipe not here is looked for above
}

type justImport struct {
	path     string // "" for a module without a path
	optional bool
}

// parseJustfile reads the recipes, aliases, imports, modules and the
// fallback setting of a justfile. Recipe bodies are indented; a
// top-level line is a recipe when a name and its parameters end in ":"
// that is not ":=".
func parseJustfile(data []byte) *justfile {
	j := &justfile{recipes: map[string]bool{}, modules: map[string]justImport{}}
	inString := "" // a ''' or """ string spanning lines
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		var line []byte
		if i < 0 {
			line, data = data, nil
		} else {
			line, data = data[:i], data[i+1:]
		}
		s := strings.TrimRight(string(line), "\r")
		if inString != "" {
			if strings.Count(s, inString)%2 == 1 {
				inString = ""
			}
			continue
		}
		if s == "" || s[0] == ' ' || s[0] == '\t' || s[0] == '#' {
			continue
		}
		for _, q := range []string{`"""`, `'''`, "```"} {
			if strings.Count(s, q)%2 == 1 {
				inString = q
			}
		}
		if s[0] == '[' {
			k := strings.IndexByte(s, ']')
			if k < 0 {
				continue
			}
			s = strings.TrimSpace(s[k+1:])
			if s == "" {
				continue
			}
		}
		w := firstWord(s)
		rest := strings.TrimSpace(s[len(w):])
		switch w {
		case "alias":
			if name := firstWord(rest); recipeName(name) && strings.Contains(rest, ":=") {
				j.recipes[name] = true
			}
			continue
		case "set":
			if firstWord(rest) == "fallback" {
				v := strings.TrimSpace(strings.TrimPrefix(rest, "fallback"))
				j.fallback = v == "" || strings.TrimSpace(strings.TrimPrefix(v, ":=")) == "true"
			}
			continue
		case "import", "import?":
			if p, ok := justString(rest); ok && len(j.imports) < maxMakefiles {
				j.imports = append(j.imports, justImport{path: p, optional: w == "import?"})
			}
			continue
		case "mod", "mod?":
			name := firstWord(rest)
			if !recipeName(name) {
				continue
			}
			p, _ := justString(strings.TrimSpace(rest[len(name):]))
			if len(j.modules) < maxMakefiles {
				j.modules[name] = justImport{path: p, optional: w == "mod?"}
			}
			continue
		case "export", "unexport":
			continue
		}
		if name, ok := recipeHead(s); ok {
			j.recipes[name] = true
		}
	}
	return j
}

// justString reads a quoted string: 'x' or "x".
func justString(s string) (string, bool) {
	if len(s) < 2 || (s[0] != '\'' && s[0] != '"') {
		return "", false
	}
	k := strings.IndexByte(s[1:], s[0])
	if k < 0 {
		return "", false
	}
	return s[1 : 1+k], true
}

// recipeHead reads "[@]name [params…]: [deps]" and returns the name.
func recipeHead(s string) (string, bool) {
	s = strings.TrimPrefix(s, "@")
	n := 0
	for n < len(s) && (isIdent(s[n]) || s[n] == '-') {
		n++
	}
	name := s[:n]
	if !recipeName(name) {
		return "", false
	}
	depth := 0
	for i := n; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"', '`':
			k := strings.IndexByte(s[i+1:], c)
			if k < 0 {
				return "", false
			}
			i += k + 1
		case '(':
			depth++
		case ')':
			depth--
		case ':':
			if depth > 0 {
				continue
			}
			if i+1 < len(s) && s[i+1] == '=' {
				return "", false // an assignment
			}
			return name, true
		case '=':
			if depth == 0 && (i+1 >= len(s) || s[i+1] != '=') && i == n+strings.IndexFunc(s[n:], func(r rune) bool { return r != ' ' }) {
				return "", false // "name = value" (a variable, old syntax)
			}
		}
	}
	return "", false
}

// justDB is a justfile with what it imports.
type justDB struct {
	file     string
	recipes  map[string]bool
	modules  map[string]justImport
	fallback bool
	why      string
	err      error
}

// justfileNames are the names just looks for; just matches them without
// case, as it does.
func isJustfileName(name string) bool {
	n := strings.ToLower(name)
	return n == "justfile" || n == ".justfile"
}

func (rv *Resolver) loadJust(p string) *justDB {
	if d, ok := rv.justs[p]; ok {
		return d
	}
	d := &justDB{file: p, recipes: map[string]bool{}, modules: map[string]justImport{}}
	rv.justs[p] = d
	count := 0
	var load func(p string, depth int, top bool)
	load = func(p string, depth int, top bool) {
		count++
		f := rv.read(p)
		if f.err != nil && d.err == nil {
			d.err = f.err
		}
		if f.data == nil {
			if d.why == "" {
				d.why = f.why
			}
			return
		}
		j := parseJustfile(f.data)
		for k := range j.recipes {
			d.recipes[k] = true
		}
		if top {
			d.fallback = j.fallback
			for k, v := range j.modules {
				d.modules[k] = v
			}
		}
		for _, im := range j.imports {
			if depth >= maxIncludeDepth || count >= maxMakefiles {
				if d.why == "" {
					d.why = p + " imports too deep or too many files"
				}
				return
			}
			ip, ok := join(path.Dir(p), im.path)
			if !ok || strings.HasPrefix(im.path, "/") || strings.HasPrefix(im.path, "~") {
				if d.why == "" {
					d.why = p + " imports " + im.path + ", outside the root"
				}
				continue
			}
			kind, _, err := rv.lookup(ip)
			if err != nil {
				if resolve.IsFatal(err) {
					d.err = err
					return
				}
				if d.why == "" {
					d.why = p + " imports " + im.path + ": " + err.Error()
				}
				continue
			}
			if kind == resolve.Missing {
				if !im.optional && d.why == "" {
					d.why = p + " imports " + im.path + ", which is not in this snapshot"
				}
				continue
			}
			load(ip, depth+1, false)
		}
	}
	load(p, 0, true)
	return d
}

// justfileAt returns the justfile just would read in dir: file (-f)
// joined to dir when given, else the one of just's names; "" when none.
func (rv *Resolver) justfileAt(dir, file string) (string, error) {
	if file != "" {
		p, ok := join(dir, file)
		if !ok {
			return "", nil
		}
		kind, _, err := rv.lookup(p)
		if err != nil || kind == resolve.Missing {
			return "", err
		}
		return p, nil
	}
	l := rv.list(dir)
	if l.err != nil {
		if resolve.IsFatal(l.err) {
			return "", l.err
		}
		return "", nil
	}
	best := ""
	for name := range l.ents {
		if isJustfileName(name) && (best == "" || name < best) {
			best = name
		}
	}
	if best == "" {
		return "", nil
	}
	return path.Join(dir, best), nil
}

// just resolves a recipe: just looks for a justfile from the directory it
// runs in upward, and in the one it finds (and the ones above it when
// that one sets fallback) the recipe, an alias, or a module of that name.
func (rv *Resolver) just(dir string, r Ref) Result {
	cwds, stop, err := rv.cwds(dir, r.Dir)
	if err != nil {
		return Result{Status: NotChecked, Why: err.Error(), Err: err}
	}
	if r.Dir == "" {
		cwds = cwds[:1]
	}
	mod, recipe := "", r.Target
	if i := strings.Index(r.Target, "::"); i >= 0 {
		mod, recipe = r.Target[:i], r.Target[i+2:]
	}
	unknown := stop
	var seen []string
	for _, c := range cwds {
		for d := c; ; {
			file, err := rv.justfileAt(d, r.File)
			if err != nil {
				if resolve.IsFatal(err) {
					return Result{Status: NotChecked, Why: err.Error(), Err: err}
				}
				unknown = err.Error()
				break
			}
			if file != "" {
				db := rv.loadJust(file)
				if db.err != nil {
					return Result{Status: NotChecked, Why: db.err.Error(), Err: db.err}
				}
				seen = append(seen, file)
				switch {
				case mod == "" && (db.recipes[recipe] || hasModule(db, recipe)):
					return Result{Status: Resolved, Path: file}
				case mod != "" && hasModule(db, mod):
					return Result{Status: NotChecked, Why: "a recipe of module " + mod + ", whose file is not read"}
				case db.why != "" && unknown == "":
					unknown = db.why
				}
				if r.File != "" || !db.fallback {
					break
				}
			}
			if d == "" {
				break
			}
			d = path.Dir(d)
			if d == "." {
				d = ""
			}
		}
	}
	if unknown != "" {
		return Result{Status: NotChecked, Why: unknown}
	}
	if len(seen) == 0 {
		return Result{Status: Unresolved, Why: "no justfile in " + dirName(path.Join(dir, r.Dir)) + " or a directory above it"}
	}
	return Result{Status: Unresolved, Why: "no recipe " + r.Target + " in " + strings.Join(seen, ", ")}
}

func hasModule(db *justDB, name string) bool {
	_, ok := db.modules[name]
	return ok
}
