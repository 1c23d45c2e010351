// Package scope decides which directories a run resolves: the whole
// worktree, the paths given on the command line, or what a change touches.
package scope

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/rivumi/rivumi-lint/resolve"
)

const maxIgnoreFileBytes = 1 << 20

// WorktreeDirs returns every directory of the worktree at top that Git does
// not ignore, as slash paths ("" for the root), sorted. When the project
// root is a subdirectory of the worktree (--root), prefix is its slash path
// below top: the walk reads the ignore files on the way down to it and
// returns only directories at or below it, relative to it. It honours
// .gitignore files and $GIT_DIR/info/exclude (not the user's global
// excludes file, so results do not depend on the machine). It does not
// descend into .git, nested repositories or symbolic links; a symlinked
// directory is listed itself so that candidates behind it are reported
// (C1). skip, when not nil, prunes directories (the config's ignore globs).
func WorktreeDirs(top, gitDir, prefix string, skip func(dir string) bool) ([]string, error) {
	var base []gitignore.Pattern
	if gitDir != "" {
		base = readPatterns(filepath.Join(gitDir, "info", "exclude"), nil)
	}
	// rel maps a worktree path to the project root; ok is false above it.
	rel := func(dir string) (string, bool) {
		switch {
		case prefix == "":
			return dir, true
		case dir == prefix:
			return "", true
		case strings.HasPrefix(dir, prefix+"/"):
			return dir[len(prefix)+1:], true
		}
		return "", false
	}
	var dirs []string
	var walk func(dir string, parts []string, ps []gitignore.Pattern) error
	walk = func(dir string, parts []string, ps []gitignore.Pattern) error {
		r, inside := rel(dir)
		if inside {
			dirs = append(dirs, r)
		}
		abs := filepath.Join(top, filepath.FromSlash(dir))
		ps = append(ps[:len(ps):len(ps)], readPatterns(filepath.Join(abs, ".gitignore"), parts)...)
		m := gitignore.NewMatcher(ps)
		f, err := os.Open(abs)
		if err != nil {
			return fmt.Errorf("open %s: %w", abs, err)
		}
		ents, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			return fmt.Errorf("list %s: %w", abs, err)
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
		for _, e := range ents {
			name := e.Name()
			isLink := e.Type()&os.ModeSymlink != 0
			if name == ".git" || (!e.IsDir() && !isLink) {
				continue
			}
			sub := path.Join(dir, name)
			subRel, subInside := rel(sub)
			if !inside && !subInside && !strings.HasPrefix(prefix, sub+"/") {
				continue // above the project root: only the way down to it
			}
			subParts := append(parts[:len(parts):len(parts)], name)
			if m.Match(subParts, true) || (subInside && skip != nil && skip(subRel)) {
				continue
			}
			if isLink {
				// Stat reads the link's target metadata, never its content.
				if fi, err := os.Stat(filepath.Join(abs, name)); err == nil && fi.IsDir() && subInside {
					dirs = append(dirs, subRel)
				}
				continue
			}
			if _, err := os.Lstat(filepath.Join(abs, name, ".git")); err == nil && subInside {
				continue // a nested repository or submodule: not this project's files
			}
			if err := walk(sub, subParts, ps); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk("", nil, base); err != nil {
		return nil, err
	}
	sort.Strings(dirs)
	return dirs, nil
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
