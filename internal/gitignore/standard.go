package gitignore

import (
	"fmt"
	"path/filepath"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// MaxFileBytes bounds an ignore file. Git reads any size; a larger file is
// an error here rather than a different answer.
const MaxFileBytes = 16 << 20

// ReadDirFile reads the .gitignore of dir (a slash path relative to the
// worktree top) the way Git 2.32+ does: never through a symbolic link. A
// missing, unreadable or non-regular file has no patterns, as in Git (which
// warns about an unreadable one): the walk then checks more, never less.
func ReadDirFile(top, dir string) (*List, error) {
	name := filepath.Join(top, filepath.FromSlash(dir), ".gitignore")
	data, kind, size, err := resolve.ReadFile(name, MaxFileBytes)
	if err != nil || kind != resolve.Regular {
		return nil, nil
	}
	if size > MaxFileBytes || len(data) > MaxFileBytes {
		return nil, tooLarge(name)
	}
	return Parse(data, name, dir), nil
}

func tooLarge(name string) error {
	return fmt.Errorf("ignore file %s is larger than %d MiB, more than rivumi-lint reads: shrink it", name, MaxFileBytes>>20)
}

// readOuterFile reads info/exclude or core.excludesFile
// (repo.ReadExcludeFile: Git follows a symbolic link there, only in-tree
// .gitignore files are read without).
func readOuterFile(name string) (*List, error) {
	data, ok, err := repo.ReadExcludeFile(name, MaxFileBytes)
	if err != nil {
		return nil, tooLarge(name)
	}
	if !ok {
		return nil, nil // missing, unreadable or not a file: Git reads no pattern
	}
	return Parse(data, name, ""), nil
}

// Standard returns the rules from outside the tree for the worktree top
// with Git directory gitDir: core.excludesFile, then info/exclude of the
// common Git directory (a linked worktree shares its main worktree's).
func Standard(top, gitDir string) (*Rules, error) {
	cfg, err := repo.ReadIgnoreConfig(top, gitDir)
	if err != nil {
		return nil, err
	}
	var lists []*List
	if cfg.ExcludesFile != "" {
		l, err := readOuterFile(cfg.ExcludesFile)
		if err != nil {
			return nil, err
		}
		lists = append(lists, l)
	}
	l, err := readOuterFile(repo.InfoExcludeFile(gitDir))
	if err != nil {
		return nil, err
	}
	return NewRules(cfg.IgnoreCase, append(lists, l)...), nil
}
