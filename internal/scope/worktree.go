// Package scope decides which directories a run resolves: the whole
// worktree, the paths given on the command line, or what a change touches.
package scope

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/rivumi/rivumi-lint/internal/gitignore"
	"github.com/rivumi/rivumi-lint/internal/par"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Walker lists the directories of a worktree that Git does not ignore.
//
// It skips what Git ignores (F4, package gitignore): .gitignore files,
// info/exclude of the common Git directory and core.excludesFile, since the
// set of untracked files is this checkout's state on this machine, as for
// `git status`. Ignore rules apply to untracked files only: a directory
// that holds tracked paths is listed
// even when a pattern matches it (Git ignores only untracked files), while
// an untracked directory below a matched one is not (a pattern cannot
// re-include what sits below an excluded directory). It does not descend
// into .git, nested repositories or symbolic links; a symlinked directory
// is listed itself so that candidates behind it are reported (C1).
type Walker struct {
	// Top is the worktree's top level and GitDir its Git directory ("" when
	// there is none). Prefix is the project root's slash path below Top
	// ("" unless --root names a subdirectory of the worktree); the walk
	// reads the ignore files on the way down to it and returns directories
	// relative to it.
	Top, GitDir, Prefix string
	// Tracked holds the directories (relative to Top) that have tracked
	// paths below them; nil when there is no index.
	Tracked func(dir string) bool
	// SkipIgnores are the index's skip-worktree .gitignore entries (a
	// sparse checkout), which Git reads when the worktree lacks them (F4),
	// from their blobs in the repository Repo returns: the caller's, which
	// it opens when first asked for (safe for concurrent use). The walk
	// asks for it once, and only when SkipIgnores is not empty.
	SkipIgnores []repo.IndexEntry
	Repo        func() (*repo.Repo, error)
	// Skip, when not nil, prunes directories (the config's ignore globs),
	// given relative to the project root.
	Skip func(dir string) bool
	// List lists a directory relative to the project root without crossing
	// a symbolic link: the engine's worktree source, so that each directory
	// is read once for the walk and for the resolution (ListKeep).
	List func(dir string) ([]resolve.Entry, error)
	// Workers > 1 walks on that many goroutines, 1 on this one; 0 is one
	// per processor. List must be safe for concurrent use unless 1.
	Workers int

	once   sync.Once
	outer  *gitignore.Rules  // core.excludesFile and info/exclude
	sparse *gitignore.Sparse // skip-worktree .gitignore files read from the index (F4)
	err    error
}

// rules reads the ignore files outside the tree once per Walker.
func (w *Walker) rules() (*gitignore.Rules, error) {
	w.once.Do(func() {
		if w.GitDir == "" {
			// No Git directory: no info/exclude, and no Git configuration
			// that could apply to these files.
			w.outer = gitignore.NewRules(false)
			return
		}
		w.outer, w.err = gitignore.Standard(w.Top, w.GitDir)
		if w.err == nil {
			w.sparse, w.err = gitignore.ReadSparse(w.SkipIgnores, w.Repo)
		}
		if w.err != nil {
			w.err = fmt.Errorf("read Git's ignore rules for %s: %w", w.Top, w.err)
		}
	})
	return w.outer, w.err
}

// WorktreeDirs returns every directory of the worktree that Git does not
// ignore, as slash paths relative to the project root ("" for the root),
// sorted.
func (w *Walker) WorktreeDirs() ([]string, error) {
	return w.DirsBelow("")
}

// DirsBelow returns dir (relative to the project root) and every directory
// below it that WorktreeDirs would list, sorted; none when dir itself would
// not be listed (ignored, behind a link, inside a nested repository,
// pruned, missing).
func (w *Walker) DirsBelow(dir string) ([]string, error) {
	st, ok, err := w.descend(dir)
	if err != nil || !ok {
		return nil, err
	}
	var dirs []string
	if err := w.walk(dir, st, false, &dirs); err != nil {
		return nil, err
	}
	sort.Strings(dirs)
	return dirs, nil
}

// state is what the walk carries down: the slash path below Top (for the
// matcher), the patterns in force and whether the directory or an ancestor
// is excluded (Git cannot re-include a path below an excluded directory).
type state struct {
	path     string
	rules    *gitignore.Rules
	excluded bool
}

// descend computes the state at dir from Top: the ignore files of every
// directory above it, and whether dir is listed at all.
func (w *Walker) descend(dir string) (state, bool, error) {
	var st state
	var err error
	if st.rules, err = w.rules(); err != nil {
		return st, false, err
	}
	full := w.Prefix
	if dir != "" {
		full = join(w.Prefix, dir)
	}
	if full == "" {
		return st, true, nil
	}
	comps := strings.Split(full, "/")
	prefixLen := 0
	if w.Prefix != "" {
		prefixLen = len(strings.Split(w.Prefix, "/"))
	}
	for i, c := range comps {
		// The ignore file of the directory above c.
		l, err := w.sparse.ReadDirFile(w.Top, st.path)
		if err != nil {
			return st, false, err
		}
		st.rules = st.rules.With(l)
		st.path = join(st.path, c)
		matched := st.excluded || st.rules.Excluded(st.path, true)
		if matched && !w.tracked(st.path) {
			return st, false, nil
		}
		st.excluded = matched
		if i >= prefixLen {
			// Inside the project: the config prunes, a nested repository is
			// not ours.
			rel := strings.Join(comps[prefixLen:i+1], "/")
			if w.Skip != nil && w.Skip(rel) {
				return st, false, nil
			}
			if hasGitEntry(filepath.Join(w.Top, filepath.FromSlash(st.path))) {
				return st, false, nil
			}
		}
	}
	return st, true, nil
}

// task is one directory to list.
type task struct {
	dir    string
	st     state
	nested bool // below the walk's start: a .git entry makes it a nested repository
}

// walk lists dir and every directory below it, on Workers goroutines.
func (w *Walker) walk(dir string, st state, nested bool, dirs *[]string) error {
	if w.Workers == 0 {
		w.Workers = runtime.GOMAXPROCS(0)
	}
	if w.Workers > 1 {
		return w.walkParallel(task{dir, st, nested}, dirs)
	}
	stack := []task{{dir, st, nested}}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var err error
		if stack, err = w.visit(t, dirs, stack); err != nil {
			return err
		}
	}
	return nil
}

// walkParallel is walk on Workers goroutines (internal/par). The listings
// are the engine's (ListKeep), so the resolution that follows makes no
// system call for them.
func (w *Walker) walkParallel(start task, dirs *[]string) error {
	found := make([][]string, w.Workers)
	err := par.Walk(w.Workers, start, func(worker int, t task, next []task) ([]task, error) {
		return w.visit(t, &found[worker], next)
	})
	for _, f := range found {
		*dirs = append(*dirs, f...)
	}
	return err
}

// visit lists t.dir: it adds the directory and the links to directories
// in it to dirs, and appends the subdirectories to walk to next.
func (w *Walker) visit(t task, dirs *[]string, next []task) ([]task, error) {
	dir, st := t.dir, t.st
	ents, err := w.List(dir)
	if err != nil {
		var le *resolve.LinkedDirError
		if dir != "" && (errors.Is(err, fs.ErrNotExist) || errors.As(err, &le)) {
			return next, nil // gone, or a link now: nothing to list below
		}
		return next, fmt.Errorf("list %s: %w", w.abs(dir), err)
	}
	ignoreFile := false
	for _, e := range ents {
		switch e.Name {
		case ".git":
			if t.nested && hasGitEntry(w.abs(dir)) {
				return next, nil // a nested repository or submodule: not this project's files
			}
		case ".gitignore":
			ignoreFile = true
		}
	}
	*dirs = append(*dirs, dir)
	if ignoreFile || w.sparse.Has(st.path) {
		l, err := w.sparse.ReadDirFile(w.Top, st.path)
		if err != nil {
			return next, err
		}
		st.rules = st.rules.With(l)
	}
	for _, e := range ents {
		if e.Kind != resolve.Dir && e.Kind != resolve.Symlink || e.Name == ".git" {
			continue
		}
		sub := join(dir, e.Name)
		if w.Skip != nil && w.Skip(sub) {
			continue
		}
		path := join(st.path, e.Name)
		// A symbolic link is not a directory to Git: "name/" patterns
		// never match it.
		excluded := st.excluded || st.rules.Excluded(path, e.Kind == resolve.Dir)
		if excluded && !w.tracked(path) {
			continue
		}
		if e.Kind == resolve.Symlink {
			// Stat reads the link's target metadata, never its content.
			if fi, err := os.Stat(filepath.Join(w.abs(dir), e.Name)); err == nil && fi.IsDir() {
				*dirs = append(*dirs, sub) // listed, never descended into
			}
			continue
		}
		next = append(next, task{sub, state{path: path, rules: st.rules, excluded: excluded}, true})
	}
	return next, nil
}

// tracked reports whether a tracked path lies below dir; a nil Tracked
// has none.
func (w *Walker) tracked(dir string) bool { return w.Tracked != nil && w.Tracked(dir) }

func (w *Walker) abs(dir string) string {
	return filepath.Join(w.Top, filepath.FromSlash(w.Prefix), filepath.FromSlash(dir))
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// hasGitEntry reports whether dir holds a repository git would not list
// into from above (repo.IsRepository: a dangling link or a malformed .git
// leaves an ordinary directory, R1).
func hasGitEntry(dir string) bool { return repo.IsRepository(dir) }
