// Package repo finds the Git repository around a project and reads what the
// engine needs from it (R1, C1's index modes).
package repo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/rivumi/rivumi-lint/resolve"
)

// ErrNotGit says a directory is not inside a Git worktree (R1).
var ErrNotGit = errors.New("not inside a Git worktree")

// FindRoot returns the top level of the Git worktree that contains dir: the
// nearest directory, from dir upwards, holding a .git directory or file.
func FindRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find root of %s: %w", dir, err)
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("%s: %w (run inside a repository, or pass --root DIR)", abs, ErrNotGit)
		}
		d = parent
	}
}

// GitDir returns the Git directory of the worktree at root: root/.git, or
// the directory a .git file points to (linked worktrees, submodules).
func GitDir(root string) (string, error) {
	p := filepath.Join(root, ".git")
	fi, err := os.Lstat(p)
	if err != nil {
		return "", fmt.Errorf("%s: %w", root, ErrNotGit)
	}
	if fi.IsDir() {
		return p, nil
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is neither a directory nor a file", p)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", p, err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: no gitdir: line", p)
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	return dir, nil
}

// IndexKinds returns the paths that Git's index records as symbolic links or
// submodules. Those modes win over the checkout (C1, C2). A repository
// without an index yet has none. When go-git cannot decode the index (a
// split index, say) the git binary is asked instead, and note says so.
func IndexKinds(root string) (kinds map[string]resolve.Kind, note string, err error) {
	gitDir, err := GitDir(root)
	if err != nil {
		return nil, "", err
	}
	f, err := os.Open(filepath.Join(gitDir, "index"))
	if errors.Is(err, os.ErrNotExist) {
		return map[string]resolve.Kind{}, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("open index: %w", err)
	}
	defer f.Close()
	var idx index.Index
	if derr := index.NewDecoder(bufio.NewReader(f)).Decode(&idx); derr != nil {
		kinds, err := indexKindsFromGit(root)
		if err != nil {
			return nil, "", fmt.Errorf("decode index: %v; git ls-files: %w", derr, err)
		}
		return kinds, fmt.Sprintf("go-git could not read the index (%v); used the git binary instead", derr), nil
	}
	kinds = map[string]resolve.Kind{}
	for _, e := range idx.Entries {
		switch e.Mode {
		case filemode.Symlink:
			kinds[e.Name] = resolve.Symlink
		case filemode.Submodule:
			kinds[e.Name] = resolve.Submodule
		}
	}
	return kinds, "", nil
}

func indexKindsFromGit(root string) (map[string]resolve.Kind, error) {
	cmd := exec.Command("git", "-C", root, "ls-files", "--stage", "-z")
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	kinds := map[string]resolve.Kind{}
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		switch {
		case bytes.HasPrefix(meta, []byte("120000 ")):
			kinds[string(name)] = resolve.Symlink
		case bytes.HasPrefix(meta, []byte("160000 ")):
			kinds[string(name)] = resolve.Submodule
		}
	}
	return kinds, nil
}
