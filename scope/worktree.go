// Package scope decides which directories a run resolves: the whole
// worktree, the paths given on the command line, or what a change touches.
package scope

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/rivumi/rivumi-lint/internal/par"
	"github.com/rivumi/rivumi-lint/resolve"
)

const maxIgnoreFileBytes = 1 << 20

// Walker lists the directories of a worktree that Git does not ignore.
//
// It honours .gitignore files and $GIT_DIR/info/exclude (not the user's
// global excludes file, so results do not depend on the machine), as Git
// does for untracked files: a directory that holds tracked paths is listed
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
	Tracked map[string]bool
	// Skip, when not nil, prunes directories (the config's ignore globs),
	// given relative to the project root.
	Skip func(dir string) bool
	// List lists a directory relative to the project root without crossing
	// a symbolic link: the engine's worktree source, so that each directory
	// is read once for the walk and for the resolution (ListKeep).
	List func(dir string) ([]resolve.Entry, error)
	// Workers > 1 walks on that many goroutines; List must then be safe
	// for concurrent use.
	Workers int
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

// state is what the walk carries down: the path components below Top (for
// the matcher), the patterns in force and whether an ancestor is excluded.
type state struct {
	parts    []string
	patterns []gitignore.Pattern
	excluded bool
}

// descend computes the state at dir from Top: the ignore files of every
// directory above it, and whether dir is listed at all.
func (w *Walker) descend(dir string) (state, bool, error) {
	var st state
	if w.GitDir != "" {
		st.patterns = readPatterns(filepath.Join(w.GitDir, "info", "exclude"), nil)
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
	cur := ""
	for i, c := range comps {
		// The ignore file of the directory above c.
		st.patterns = append(st.patterns[:len(st.patterns):len(st.patterns)],
			readPatterns(filepath.Join(w.Top, filepath.FromSlash(cur), ".gitignore"), st.parts)...)
		cur = join(cur, c)
		st.parts = append(st.parts[:len(st.parts):len(st.parts)], c)
		matched := st.excluded || gitignore.NewMatcher(st.patterns).Match(st.parts, true)
		if matched && !w.Tracked[cur] {
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
			if _, err := os.Lstat(filepath.Join(w.Top, filepath.FromSlash(cur), ".git")); err == nil {
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
			if t.nested {
				return next, nil // a nested repository or submodule: not this project's files
			}
		case ".gitignore":
			ignoreFile = true
		}
	}
	*dirs = append(*dirs, dir)
	if ignoreFile {
		// readPatterns never follows a link (Git 2.32+).
		st.patterns = append(st.patterns[:len(st.patterns):len(st.patterns)],
			readPatterns(filepath.Join(w.abs(dir), ".gitignore"), st.parts)...)
	}
	var m gitignore.Matcher
	if len(st.patterns) > 0 {
		m = gitignore.NewMatcher(st.patterns)
	}
	for _, e := range ents {
		if e.Kind != resolve.Dir && e.Kind != resolve.Symlink || e.Name == ".git" {
			continue
		}
		sub := join(dir, e.Name)
		if w.Skip != nil && w.Skip(sub) {
			continue
		}
		parts := append(st.parts[:len(st.parts):len(st.parts)], e.Name)
		excluded := st.excluded || m != nil && m.Match(parts, true)
		if excluded && !w.Tracked[join(w.Prefix, sub)] {
			continue
		}
		if e.Kind == resolve.Symlink {
			// Stat reads the link's target metadata, never its content.
			if fi, err := os.Stat(filepath.Join(w.abs(dir), e.Name)); err == nil && fi.IsDir() {
				*dirs = append(*dirs, sub) // listed, never descended into
			}
			continue
		}
		next = append(next, task{sub, state{parts: parts, patterns: st.patterns, excluded: excluded}, true})
	}
	return next, nil
}

func (w *Walker) abs(dir string) string {
	return filepath.Join(w.Top, filepath.FromSlash(w.Prefix), filepath.FromSlash(dir))
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// readPatterns reads an ignore file the way Git 2.32+ does: never through a
// symbolic link. A missing or unreadable file has no patterns.
func readPatterns(file string, domain []string) []gitignore.Pattern {
	data, kind, _, err := resolve.ReadFile(file, maxIgnoreFileBytes)
	if err != nil || kind != resolve.Regular || len(data) > maxIgnoreFileBytes {
		return nil
	}
	var ps []gitignore.Pattern
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		s := strings.TrimSuffix(string(line), "\r")
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(s, domain))
	}
	return ps
}
