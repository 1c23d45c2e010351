package refs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Source is what resolution reads: a tree of slash paths relative to the
// root ("" is the root). resolve.Source, and so every resolve.Snapshot
// (the worktree, the index, a commit's tree, their checkouts), has these
// methods. Names are compared exactly, so a case-insensitive disk cannot
// make "Docs/a.md" resolve to "docs/a.md"; a symbolic link is an entry,
// never followed.
type Source interface {
	List(dir string) ([]resolve.Entry, error)
	Read(p string, limit int64) (data []byte, kind resolve.Kind, size int64, err error)
}

// Status is what resolution found.
type Status uint8

const (
	// Resolved: the target exists in the snapshot.
	Resolved Status = iota + 1
	// Unresolved: the snapshot shows the target is not there.
	Unresolved
	// NotChecked: the snapshot cannot say (outside the root, through a
	// symbolic link, a name made by a variable, a file that cannot be
	// read); never reported as broken.
	NotChecked
)

func (s Status) String() string {
	switch s {
	case Resolved:
		return "resolved"
	case Unresolved:
		return "unresolved"
	case NotChecked:
		return "not checked"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Result is the answer for one reference in one snapshot.
type Result struct {
	Status Status
	// Path is, when Resolved, the entry that answers: the file or
	// directory a path names, or the Makefile, package.json or justfile
	// that defines the target.
	Path string
	// Why says, when not Resolved, what was looked for or what stopped
	// the check, as a phrase ("no target lint in Makefile").
	Why string
	// Near is, for a link or path, the deepest directory on the way
	// that exists ("docs" for a missing "docs/setup.md"); Found is how
	// many of the target's leading names exist (0: not even the first).
	// The worktree mode's precise class is an unresolved path whose
	// first name exists (docs/references.md).
	Near  string
	Found int
	// Outside is, when NotChecked, that only the sibling-checkout rule
	// stopped the check: no directory inside the root has the target and
	// some directory above joins it outside the root. A diff whose base
	// resolved it inside the root knows the change broke it (#33.2).
	Outside bool
	// Err is a *resolve.FatalError from the source: the snapshot itself
	// cannot be read (Status is NotChecked); the caller ends the run.
	Err error
}

// readLimit caps what is read of a Makefile, package.json or justfile.
const readLimit = 1 << 20

// Resolver resolves references in one snapshot, reading each directory
// listing and each build file once. It is not safe for concurrent use.
type Resolver struct {
	src   Source
	lists map[string]listing
	files map[string]fileRead
	makes map[string]*makeDB
	pkgs  map[string]*pkgInfo
	justs map[string]*justDB
}

type listing struct {
	ents map[string]resolve.Entry
	err  error
}

type fileRead struct {
	data []byte
	why  string // not read: why
	err  error  // fatal
}

// NewResolver returns a Resolver over src.
func NewResolver(src Source) *Resolver {
	return &Resolver{
		src:   src,
		lists: map[string]listing{},
		files: map[string]fileRead{},
		makes: map[string]*makeDB{},
		pkgs:  map[string]*pkgInfo{},
		justs: map[string]*justDB{},
	}
}

// Resolve resolves r, made by the instruction file at file (a slash path
// relative to src's root), in src.
func Resolve(src Source, file string, r Ref) Result { return NewResolver(src).Resolve(file, r) }

// Resolve resolves r, made by the instruction file at file, in the
// Resolver's snapshot.
func (rv *Resolver) Resolve(file string, r Ref) Result {
	dir := path.Dir(file)
	if dir == "." {
		dir = ""
	}
	switch r.Kind {
	case Link, Path:
		return rv.path(dir, r.Target)
	case Make:
		return rv.makeTarget(dir, r)
	case Script:
		return rv.script(dir, r)
	case Just:
		return rv.just(dir, r)
	}
	return Result{Status: NotChecked, Why: "unknown kind " + r.Kind.String()}
}

// ancestors returns dir and every directory above it, deepest first,
// ending with the root "".
func ancestors(dir string) []string {
	out := []string{dir}
	for dir != "" {
		dir = path.Dir(dir)
		if dir == "." || dir == "/" {
			dir = ""
		}
		out = append(out, dir)
	}
	return out
}

// join joins a base directory and a relative target, lexically (as a
// Markdown renderer reads a link); ok is false when it leaves the root.
func join(base, rel string) (string, bool) {
	p := path.Join(base, rel)
	if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return "", false
	}
	if p == "." {
		p = ""
	}
	return p, true
}

func (rv *Resolver) list(dir string) listing {
	if l, ok := rv.lists[dir]; ok {
		return l
	}
	ents, err := rv.src.List(dir)
	l := listing{err: err}
	if err == nil {
		l.ents = make(map[string]resolve.Entry, len(ents))
		for _, e := range ents {
			l.ents[e.Name] = e
		}
	}
	rv.lists[dir] = l
	return l
}

// errStop is why a lookup could not say: a link or a submodule on the
// way, or a directory that could not be listed.
type errStop struct{ why string }

func (e *errStop) Error() string { return e.why }

// lookup returns the kind of the entry at p, walking from the root with
// exact names; found is how many leading names of p exist. It never goes
// through a link or a submodule (errStop) and returns a source's fatal
// error as it is.
func (rv *Resolver) lookup(p string) (kind resolve.Kind, found int, err error) {
	if p == "" {
		return resolve.Dir, 0, nil
	}
	names := strings.Split(p, "/")
	dir := ""
	for i, name := range names {
		l := rv.list(dir)
		if l.err != nil {
			if resolve.IsFatal(l.err) {
				return 0, i, l.err
			}
			if errors.Is(l.err, fs.ErrNotExist) {
				return resolve.Missing, i, nil
			}
			return 0, i, &errStop{fmt.Sprintf("%s cannot be listed: %v", dirName(dir), l.err)}
		}
		e, ok := l.ents[name]
		if !ok {
			return resolve.Missing, i, nil
		}
		if i == len(names)-1 {
			return e.Kind, i + 1, nil
		}
		switch e.Kind {
		case resolve.Dir:
		case resolve.Symlink:
			return 0, i + 1, &errStop{path.Join(dir, name) + " is a symbolic link, which is not followed"}
		case resolve.Submodule:
			return 0, i + 1, &errStop{path.Join(dir, name) + " is a submodule, whose files are not in this snapshot"}
		default:
			return resolve.Missing, i + 1, nil
		}
		dir = path.Join(dir, name)
	}
	return resolve.Missing, len(names), nil
}

func dirName(dir string) string {
	if dir == "" {
		return "the root"
	}
	return dir
}

// path resolves a link or path target from the file's directory or any
// directory above it.
func (rv *Resolver) path(dir, target string) Result {
	bases := ancestors(dir)
	if strings.HasPrefix(target, "/") {
		bases = []string{""} // a root-relative link, as GitHub renders it
		target = strings.TrimLeft(target, "/")
	}
	wantDir := strings.HasSuffix(target, "/")
	t := strings.TrimSuffix(target, "/")
	var stop string
	outside := 0
	best := Result{Status: Unresolved, Found: -1}
	for _, b := range bases {
		p, ok := join(b, t)
		if !ok {
			outside++
			continue
		}
		if p == ".git" || strings.HasPrefix(p, ".git/") {
			stop = "it is inside .git"
			continue
		}
		kind, found, err := rv.lookup(p)
		if err != nil {
			var es *errStop
			if errors.As(err, &es) {
				stop = es.why
				continue
			}
			return Result{Status: NotChecked, Why: err.Error(), Err: err}
		}
		switch kind {
		case resolve.Symlink:
			// whether a link leads anywhere is behind it, which is never
			// read (C1): a reference to one is not checked
			stop = p + " is a symbolic link, which is not followed"
			continue
		case resolve.Dir, resolve.Submodule:
			return Result{Status: Resolved, Path: p, Near: path.Dir(p), Found: max(found-depth(b), 1)}
		case resolve.Missing:
		default:
			if !wantDir {
				return Result{Status: Resolved, Path: p, Near: path.Dir(p), Found: max(found-depth(b), 1)}
			}
		}
		if rel := found - depth(b); rel > best.Found {
			best.Found = rel
			best.Near = nearDir(p, found)
		}
	}
	if stop != "" {
		return Result{Status: NotChecked, Why: stop}
	}
	if outside > 0 {
		// "../x" read from the root (authors write paths from there) is a
		// sibling checkout: not in this snapshot, so not known missing
		return Result{Status: NotChecked, Why: "it is outside the root", Outside: true}
	}
	if best.Found < 0 {
		best.Found = 0
	}
	best.Why = "no " + target + " in " + dirName(dir) + " or a directory above it"
	return best
}

func depth(dir string) int {
	if dir == "" {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

// nearDir returns the first found names of p.
func nearDir(p string, found int) string {
	if found <= 0 {
		return ""
	}
	names := strings.Split(p, "/")
	return strings.Join(names[:min(found, len(names))], "/")
}

// read returns a build file's bytes, at most readLimit; why says why not.
func (rv *Resolver) read(p string) fileRead {
	if f, ok := rv.files[p]; ok {
		return f
	}
	var f fileRead
	data, kind, size, err := rv.src.Read(p, readLimit)
	switch {
	case err != nil && resolve.IsFatal(err):
		f.err = err
		f.why = err.Error()
	case err != nil:
		f.why = fmt.Sprintf("%s cannot be read: %v", p, err)
	case kind != resolve.Regular:
		f.why = fmt.Sprintf("%s is a %s", p, kind)
	case size > readLimit || int64(len(data)) > readLimit:
		f.why = fmt.Sprintf("%s is over %d bytes", p, readLimit)
	default:
		f.data = data
	}
	rv.files[p] = f
	return f
}

// entry returns the entry called name in dir, exactly; ok is false when
// dir cannot be listed or has none.
func (rv *Resolver) entry(dir, name string) (resolve.Entry, bool, error) {
	l := rv.list(dir)
	if l.err != nil {
		if resolve.IsFatal(l.err) {
			return resolve.Entry{}, false, l.err
		}
		return resolve.Entry{}, false, nil
	}
	e, ok := l.ents[name]
	return e, ok, nil
}

// cwds returns the directories a command with Dir d may run in: d joined
// to the file's directory or one above it, where that is a directory.
// Without d, the file's directory and every one above it.
func (rv *Resolver) cwds(dir, d string) ([]string, string, error) {
	if d == "" {
		return ancestors(dir), "", nil
	}
	var out []string
	stop := ""
	for _, b := range ancestors(dir) {
		p, ok := join(b, d)
		if !ok {
			continue
		}
		kind, _, err := rv.lookup(p)
		if err != nil {
			var es *errStop
			if errors.As(err, &es) {
				stop = es.why
				continue
			}
			return nil, "", err
		}
		if kind == resolve.Dir {
			out = append(out, p)
		}
	}
	return out, stop, nil
}
