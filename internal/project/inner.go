package project

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
	"github.com/rivumi/rivumi-lint/internal/rootpath"
	"github.com/rivumi/rivumi-lint/internal/shell"
)

// A target that lies in another repository inside the project — a
// submodule's checkout or a nested repository — belongs to that
// repository (R1): the run moves its root there, as `cd` there would, or
// stops with the command to run there. Git never looks past such a
// directory from outside, and neither may the check: without this a PATH
// there resolved nothing and passed.

// innerRepoError says the targets lie in another repository than the
// root's (or in several) where the run cannot move its root there: --root
// was given, GIT_DIR decides the repository, the command writes (fix), or
// the targets span repositories.
type innerRepoError struct {
	Groups []repoGroup
	Why    string // why the root was not moved
}

// repoGroup is the targets of one repository: Dir is its top relative to
// the working directory ("." for the root's own repository), Kind says
// what it is to the root's repository, Paths are the targets relative to
// Dir, and Command runs the same command there.
type repoGroup struct {
	Dir, Kind string
	Paths     []string
	Command   string
}

func (e *innerRepoError) Error() string {
	var b strings.Builder
	for _, g := range e.Groups {
		if g.Kind == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s lies in the %s %s, another Git repository", quoteList(inDir(g.Dir, g.Paths), 3), g.Kind, g.Dir)
	}
	b.WriteString(", and " + e.Why)
	if len(e.Groups) > 1 {
		b.WriteString(": run rivumi-lint once in each: ")
	} else {
		b.WriteString(": run it there: ")
	}
	for i, g := range e.Groups {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(g.Command)
	}
	return b.String()
}

func inDir(dir string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if dir == "." {
			out[i] = p
		} else {
			out[i] = filepath.ToSlash(filepath.Join(dir, p))
		}
	}
	return out
}

// quoteList is ps quoted, the first max of them, and how many more: names
// in a message are quoted, so that a message is one line whatever a file
// name holds.
func quoteList(ps []string, max int) string {
	q := make([]string, 0, min(len(ps), max))
	for _, p := range ps[:min(len(ps), max)] {
		q = append(q, strconv.Quote(p))
	}
	more := ""
	if len(ps) > max {
		more = fmt.Sprintf(" and %d more", len(ps)-max)
	}
	return strings.Join(q, ", ") + more
}

// enterInner moves the root into the repository holding every target
// (Options.Targets), when that is another repository inside the root.
func (p *Project) enterInner(o Options) error {
	if len(o.Targets) == 0 || p.GitTop == "" || p.noWorktree != nil {
		return nil
	}
	type group struct {
		inner string
		rels  []string // relative to the inner repository's top
	}
	byInner := map[string]*group{}
	var order []string
	inners := repo.NewInners(p.Root)
	for _, t := range o.Targets {
		abs, err := p.abs(t)
		if err != nil {
			return err
		}
		rel, ok := rootpath.Within(p.Root, abs)
		if !ok || strings.Contains("/"+filepath.ToSlash(t)+"/", "/../") {
			return nil // refused later by Rel, with its own message
		}
		start := resolve.ParentDir(rel)
		if o.Enter && rel != "" {
			if fi, err := os.Lstat(abs); err == nil && fi.IsDir() {
				start = rel
			}
		}
		inner := inners.Of(start)
		g := byInner[inner]
		if g == nil {
			g = &group{inner: inner}
			byInner[inner] = g
			order = append(order, inner)
		}
		in := rel
		if inner != "" {
			in = strings.TrimPrefix(strings.TrimPrefix(rel, inner), "/")
		}
		if in == "" {
			in = "."
		}
		g.rels = append(g.rels, in)
	}
	if len(order) == 1 && order[0] == "" {
		return nil
	}
	why := ""
	switch {
	case len(order) > 1:
		why = "one run checks one repository"
	case o.Root != "":
		why = "--root " + o.Root + " names the outer one"
	case os.Getenv("GIT_DIR") != "" || os.Getenv("GIT_WORK_TREE") != "":
		why = "GIT_DIR or GIT_WORK_TREE names the outer one (unset them there)"
	case o.Stay:
		why = o.Command + " never writes into another repository from outside it"
	}
	if why == "" {
		inner := order[0]
		loc, err := repo.Locate(filepath.Join(p.Root, filepath.FromSlash(inner)))
		if err != nil {
			return fmt.Errorf("open the repository %s holding %s: %w", inner, o.Targets[0], err)
		}
		if loc.Top == "" {
			return fmt.Errorf("%s holds a Git repository without a worktree; run rivumi-lint check --base REV there", inner)
		}
		// An inner repository's top is the directory holding its .git
		// entry (R1, M4): a core.worktree naming any other directory —
		// above the project, say — would move the root out of the project
		// and serve files outside it. Refused rather than taken as an
		// ordinary directory: Git itself never treats it as one.
		if here := filepath.Join(p.Root, filepath.FromSlash(inner)); !sameDirectory(loc.Top, here) {
			return fmt.Errorf("the repository %s holding %s sets core.worktree to %s, not %s itself: an inner repository's top is the directory holding its .git (R1); "+
				"unset it (git -C %s config --unset core.worktree) or run rivumi-lint in that worktree",
				strconv.Quote(inner), quoteList(o.Targets, 3), strconv.Quote(loc.Top), strconv.Quote(inner), shell.Quote(here))
		}
		p.Notes = append(p.Notes, repo.Info("%s lies in the %s %s: the project root is %s, with its own config, as after `cd %s`; paths are relative to %s",
			quoteList(o.Targets, 3), kindOf(p.Root, inner), inner, inner, inner, inner))
		p.Root, p.GitDir, p.GitTop, p.Prefix = loc.Top, loc.GitDir, loc.Top, ""
		return nil
	}
	sort.Strings(order)
	err := &innerRepoError{Why: why}
	for _, inner := range order {
		g := byInner[inner]
		dir, _ := p.fromWD(filepath.Join(p.Root, filepath.FromSlash(inner)))
		rg := repoGroup{Dir: dir, Paths: g.rels}
		if inner != "" {
			rg.Kind = kindOf(p.Root, inner)
		}
		rg.Command = command(dir, o.Command, g.rels)
		err.Groups = append(err.Groups, rg)
	}
	return err
}

// kindOf names what the repository at inner is to the outer one: a
// submodule's checkout has a .git file (Git absorbs its Git directory
// into the superproject's), a nested repository a .git directory.
func kindOf(root, inner string) string {
	fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(inner), ".git"))
	if err == nil && !fi.IsDir() {
		return "submodule"
	}
	return "nested repository"
}

// fromWD is abs relative to the working directory, as a user types it.
func (p *Project) fromWD(abs string) (string, error) {
	if _, err := p.abs("."); err != nil {
		return abs, err
	}
	rel, err := filepath.Rel(p.wd, abs)
	if err != nil {
		return abs, err
	}
	return filepath.ToSlash(rel), nil
}

// command is `rivumi-lint CMD PATHS` run in dir, as pasted into a POSIX
// shell; more than five paths are left out (the whole worktree there).
func command(dir, cmd string, paths []string) string {
	var b strings.Builder
	if dir != "." {
		b.WriteString("cd " + shell.Quote(dir) + " && ")
	}
	b.WriteString("rivumi-lint " + cmd)
	if len(paths) <= 5 && !(len(paths) == 1 && paths[0] == ".") {
		b.WriteString(" " + shell.Args(paths))
	}
	return b.String()
}

// dirArg turns a directory as a user gave it into the root-relative one
// to resolve: a file is its directory (F9; a link is left as it is: the
// engine reports a linked directory, never opens it), "" the working
// directory — or, when --root names a root the working directory is not
// in, the root.
func (p *Project) dirArg(arg string) (string, error) {
	if arg == "" {
		wd, err := rootpath.Getwd()
		if err != nil {
			return "", fmt.Errorf("working directory: %w", err)
		}
		rel, err := p.Rel(wd)
		if err != nil && p.opts.Root != "" {
			return "", nil
		}
		return rel, err
	}
	rel, err := p.Rel(arg)
	if err != nil {
		return "", err
	}
	if fi, err := os.Lstat(filepath.Join(p.Root, filepath.FromSlash(rel))); err == nil && rel != "" &&
		!fi.IsDir() && fi.Mode()&os.ModeSymlink == 0 {
		rel = resolve.ParentDir(rel)
	}
	return rel, nil
}

// sameDirectory reports whether a and b name the same directory, through
// links too.
func sameDirectory(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}
