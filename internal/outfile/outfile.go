// Package outfile writes a report to the file --output names (F8): never
// through a symbolic link, never into a FIFO or device, never inside a Git
// directory or over a .git entry (a gitfile), and never half: the report goes to a temporary file beside
// the target, which is renamed into place only when it is complete.
package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/rootpath"
)

// File is a report being written. Commit puts it in place; Abort (or a
// failed Commit) removes it and leaves the target as it was.
type File struct {
	*os.File
	target string
	mode   fs.FileMode
	done   bool
	temps  *Temps // records the temporary file until Commit or Abort
	id     int
}

// Create checks name and opens a temporary file beside it. Every refusal
// is an error that names the cause and the fix.
func Create(name string) (*File, error) { return (*Temps)(nil).Create(name) }

// Create is outfile.Create, recording the temporary file in t until the
// File is committed or aborted (so that a signal's Clean removes it).
func (t *Temps) Create(name string) (*File, error) {
	if name == "" {
		return nil, errors.New("empty file name")
	}
	abs, err := rootpath.Abs(name)
	if err != nil {
		return nil, err
	}
	if isGitEntry(filepath.Base(abs)) {
		return nil, fmt.Errorf("%s is the .git entry of a repository (the gitfile of a linked worktree or a submodule, or its Git directory); a report there would make every git command in it fail: write the report to another file", name)
	}
	mode := fs.FileMode(0o644)
	fi, err := os.Lstat(abs)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%s is a symbolic link; rivumi-lint never writes through a link (it could point into .git or anywhere else): remove the link or choose another file", name)
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("%s is a directory; name a file", name)
	case err == nil && !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (%s); rivumi-lint writes reports only to regular files: choose another file", name, kind(fi.Mode()))
	case err == nil:
		mode = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	dir := filepath.Dir(abs)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("directory of %s: %w", name, err)
	}
	if g := gitDirAbove(real); g != "" {
		return nil, fmt.Errorf("%s is inside the Git directory %s; a report there could overwrite Git's own files: write it in the worktree or elsewhere", name, g)
	}
	var tmp *os.File
	id, err := t.Track(func() (string, func() error, error) {
		var err error
		tmp, err = os.CreateTemp(dir, "."+filepath.Base(abs)+".tmp-*")
		if err != nil {
			return "", nil, err
		}
		// Closed first: Windows removes no file that is open.
		return tmp.Name(), func() error { tmp.Close(); return os.Remove(tmp.Name()) }, nil
	})
	if err != nil {
		return nil, err
	}
	return &File{File: tmp, target: abs, mode: mode, temps: t, id: id}, nil
}

// Resolve is the file Create writes for name: the absolute path, with
// the links of its directory evaluated (as Create evaluates them). Two
// names with one Resolve are one file, whatever their spelling (./x,
// a/../x, /abs/x, a linked directory); a directory that does not exist
// keeps its absolute path (Create then fails).
func Resolve(name string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		return filepath.Clean(name)
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// Commit flushes and closes the temporary file and renames it over the
// target. A rename replaces a link or file that appeared meanwhile without
// following it.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	err := f.File.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.File.Name(), f.mode)
	}
	return f.temps.Done(f.id, func() error {
		if err == nil {
			err = os.Rename(f.File.Name(), f.target)
		}
		if err != nil {
			os.Remove(f.File.Name())
		}
		return err
	})
}

// Abort removes the temporary file; the target is untouched. It is safe
// after Commit.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	f.temps.Done(f.id, func() error { return os.Remove(f.File.Name()) })
}

// isGitEntry reports whether base names a .git entry: a file there is the
// gitfile (gitdir: PATH) Git reads to find a worktree's or a submodule's
// Git directory, so it is refused whether a file, a link, a directory or
// absent (a new one would make Git take the directory for a repository).
// Case is folded: on a case-insensitive file system .GIT is that entry.
func isGitEntry(base string) bool {
	return strings.EqualFold(base, ".git")
}

// gitDirAbove returns the first of dir and its ancestors that is a Git
// directory (named .git, or holding HEAD, objects/ and refs/ as a bare or
// separate Git directory does), "" when there is none.
func gitDirAbove(dir string) string {
	for d := dir; ; {
		if filepath.Base(d) == ".git" || isGitDir(d) {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

func isGitDir(d string) bool {
	if fi, err := os.Lstat(filepath.Join(d, "HEAD")); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(d, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	}
	return "a special file"
}
