//go:build unix

package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"golang.org/x/sys/unix"
)

// dirHandle is an open directory: a file descriptor.
type dirHandle = int

// OpenWorktree opens root for reading. recorded maps slash paths to the kind
// Git's index records for them (only Symlink and Submodule matter); it may be nil.
func OpenWorktree(root string, recorded map[string]Kind) (*Worktree, error) {
	fd, err := openNoFollow(unix.AT_FDCWD, root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("open root %s: %w", root, err)
	}
	return &Worktree{root: root, rootfd: fd, recorded: recorded}, nil
}

// Close releases the root descriptor.
func (w *Worktree) Close() error { return unix.Close(w.rootfd) }

// openDir opens dir below the root, refusing to cross a symbolic link (C1:
// nothing behind a link is opened): in one openat2(2) call with
// RESOLVE_NO_SYMLINKS where the kernel has it, else (and to name the link
// when there is one) component by component.
func (w *Worktree) openDir(dir string) (int, error) {
	if dir != "" && !w.noOpenat2.Load() {
		fd, err := openBeneath(w.rootfd, dir)
		switch {
		case err == nil:
			return fd, nil
		case errors.Is(err, unix.ENOENT):
			return -1, fs.ErrNotExist
		case errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM):
			w.noOpenat2.Store(true)
		}
		// ELOOP (a link on the way), ENOTDIR, …: the walk below says which.
	}
	return w.openDirSlow(dir)
}

func (w *Worktree) openDirSlow(dir string) (int, error) {
	if dir == "" {
		// A new open file description: a dup of the root descriptor would
		// share its read offset, and a second listing of the root would
		// find it at the end.
		return openNoFollow(w.rootfd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	}
	fd, err := unix.Dup(w.rootfd)
	if err != nil {
		return -1, err
	}
	walked := ""
	for _, c := range strings.Split(dir, "/") {
		walked = path.Join(walked, c)
		next, err := openNoFollow(fd, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC)
		unix.Close(fd)
		if err != nil {
			if isLinkErr(err) {
				return -1, &LinkedDirError{Dir: walked}
			}
			if errors.Is(err, unix.ENOTDIR) {
				// O_NOFOLLOW|O_DIRECTORY on a symlink gives ENOTDIR on some systems.
				var st unix.Stat_t
				if unix.Lstat(w.abs(walked), &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
					return -1, &LinkedDirError{Dir: walked}
				}
				return -1, fs.ErrNotExist
			}
			if errors.Is(err, unix.ENOENT) {
				return -1, fs.ErrNotExist
			}
			return -1, fmt.Errorf("open %s: %w", walked, err)
		}
		fd = next
	}
	return fd, nil
}

func (w *Worktree) Lstat(p string) (Entry, error) {
	var st unix.Stat_t
	if err := unix.Lstat(w.abs(p), &st); err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return Entry{Name: path.Base(p), Kind: Missing}, nil
		}
		return Entry{}, fmt.Errorf("lstat %s: %w", w.abs(p), err)
	}
	e := Entry{Name: path.Base(p), Kind: kindOfMode(uint32(st.Mode)), Size: st.Size}
	if e.Kind == Special {
		e.Note = specialNote(uint32(st.Mode))
	}
	w.overlay(p, &e)
	return e, nil
}

// ReadFile reads a file outside any source (the user layer) under the same
// constraints: the last component is never followed, nothing blocks, and at
// most limit+1 bytes are read.
func ReadFile(name string, limit int64) ([]byte, Kind, int64, error) {
	return readAt(unix.AT_FDCWD, name, limit)
}
