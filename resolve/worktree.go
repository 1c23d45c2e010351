package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"golang.org/x/sys/unix"
)

// Worktree reads the files on disk below a project root.
type Worktree struct {
	root   string
	rootfd int
	// recorded holds the paths whose Git index entry is a symlink or a
	// submodule: those modes win over what the checkout holds (C1, C2).
	recorded map[string]Kind
}

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

func (w *Worktree) Name() string { return "worktree" }

// LinkedDirError says a directory on the way to a path is a symbolic link.
type LinkedDirError struct{ Dir string }

func (e *LinkedDirError) Error() string { return e.Dir + " is a symbolic link" }

// openDir opens dir below the root, component by component, refusing to
// cross a symbolic link (C1: nothing behind a link is opened).
func (w *Worktree) openDir(dir string) (int, error) {
	fd, err := unix.Dup(w.rootfd)
	if err != nil {
		return -1, err
	}
	if dir == "" {
		return fd, nil
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

func (w *Worktree) abs(p string) string {
	if p == "" {
		return w.root
	}
	return w.root + "/" + p
}

func (w *Worktree) List(dir string) ([]Entry, error) {
	fd, err := w.openDir(dir)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), w.abs(dir))
	defer f.Close()
	des, err := f.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", w.abs(dir), err)
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		e := Entry{Name: de.Name(), Size: -1, Kind: kindOfFileMode(de.Type())}
		if e.Kind == Special {
			e.Note = ModeNote(de.Type())
		}
		w.overlay(path.Join(dir, e.Name), &e)
		out = append(out, e)
	}
	return out, nil
}

// overlay applies what the Git index records over what the disk holds.
func (w *Worktree) overlay(p string, e *Entry) {
	rec, ok := w.recorded[p]
	if !ok || rec == e.Kind {
		return
	}
	switch rec {
	case Symlink:
		e.Note = "Git records it as a symbolic link (mode 120000) although this checkout holds a " + e.Kind.String() + " (core.symlinks=false)"
		e.Kind = Symlink
	case Submodule:
		e.Note = "Git records it as a submodule (mode 160000)"
		e.Kind = Submodule
	}
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

func (w *Worktree) Read(p string, limit int64) ([]byte, Kind, int64, error) {
	dir, name := path.Split(p)
	fd, err := w.openDir(strings.TrimSuffix(dir, "/"))
	if err != nil {
		var le *LinkedDirError
		if errors.As(err, &le) {
			return nil, Symlink, -1, nil
		}
		return nil, Missing, -1, err
	}
	defer unix.Close(fd)
	return readAt(fd, name, limit)
}

func (w *Worktree) LinkTarget(p string) string {
	t, err := os.Readlink(w.abs(p))
	if err != nil {
		return ""
	}
	return t
}

// ReadFile reads a file outside any source (the user layer) under the same
// constraints: the last component is never followed, nothing blocks, and at
// most limit+1 bytes are read.
func ReadFile(name string, limit int64) ([]byte, Kind, int64, error) {
	return readAt(unix.AT_FDCWD, name, limit)
}

func kindOfFileMode(m fs.FileMode) Kind {
	switch {
	case m&fs.ModeSymlink != 0:
		return Symlink
	case m.IsDir():
		return Dir
	case m.IsRegular():
		return Regular
	}
	return Special
}

// ModeNote names a file mode that is neither a regular file, a directory
// nor a link: "FIFO", "socket", "character device", "block device"; "" else.
func ModeNote(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return ""
}
