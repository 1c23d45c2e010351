package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/windows"
)

// OpenWorktree opens root for reading. recorded maps slash paths to the kind
// Git's index records for them (only Symlink and Submodule matter); it may be nil.
func OpenWorktree(root string, recorded map[string]Kind) (*Worktree, error) {
	h, err := openRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open root %s: %w", root, err)
	}
	return &Worktree{root: filepath.ToSlash(root), rootfd: h, recorded: recorded}, nil
}

// openRoot opens the root directory, following links (the root is the
// user's choice, as on Unix).
func openRoot(root string) (windows.Handle, error) {
	p, err := windows.UTF16PtrFromString(root)
	if err != nil {
		return windows.InvalidHandle, err
	}
	h, err := windows.CreateFile(p, windows.FILE_LIST_DIRECTORY|windows.FILE_TRAVERSE|windows.FILE_READ_ATTRIBUTES|windows.SYNCHRONIZE,
		shareAll, nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return windows.InvalidHandle, err
	}
	return h, nil
}

// Close releases the root handle.
func (w *Worktree) Close() error { return windows.CloseHandle(w.rootfd) }

// openDir opens dir below the root, refusing to cross a symbolic link or
// junction (C1): component by component, each relative to its parent's
// handle and checked after it is opened.
func (w *Worktree) openDir(dir string) (windows.Handle, error) {
	if dir == "" {
		// A new handle: a listing's position belongs to the handle, and a
		// second listing of the root must start at its beginning.
		return openRoot(filepath.FromSlash(w.root))
	}
	return walkBeneath[windows.Handle](ntFS{}, w.rootfd, dir)
}

// Lstat implements Source: the entry at p, its last component not
// followed, from its attributes alone (GetFileAttributesEx: no handle is
// opened on it, as lstat(2) opens nothing). It is used only below a linked
// directory, whose candidates are reported, never read. The reparse tag is
// not known there: any reparse point counts as a link.
func (w *Worktree) Lstat(p string) (Entry, error) {
	abs := filepath.FromSlash(w.abs(p))
	name, err := windows.UTF16PtrFromString(abs)
	if err != nil {
		return Entry{Name: path.Base(p), Kind: Missing}, nil
	}
	var ad windows.Win32FileAttributeData
	if err := windows.GetFileAttributesEx(name, windows.GetFileExInfoStandard, (*byte)(unsafe.Pointer(&ad))); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Entry{Name: path.Base(p), Kind: Missing}, nil
		}
		return Entry{}, fmt.Errorf("lstat %s: %w", abs, err)
	}
	fi := winFileInfo{Attrs: ad.FileAttributes, Size: int64(ad.FileSizeHigh)<<32 | int64(ad.FileSizeLow)}
	if fi.Attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		fi.Tag = winTagNameSurrogate
	}
	e := Entry{Name: path.Base(p), Size: fi.Size}
	e.Kind, e.Note = winKind(fi)
	w.overlay(p, &e)
	return e, nil
}

// ReadFile reads a file outside any source (the user layer) under the same
// constraints: the last component is never followed, a console or pipe is
// not a regular file, and at most limit+1 bytes are read.
func ReadFile(name string, limit int64) ([]byte, Kind, int64, error) {
	h, err := openPath(name, windows.FILE_GENERIC_READ)
	if err != nil {
		return nil, Missing, -1, err
	}
	defer windows.CloseHandle(h)
	return readHandle(h, limit)
}

// readDir lists the open directory h (which it does not close) with
// GetFileInformationByHandleEx: the attributes and reparse tags come with
// the names, so nothing is opened to classify an entry.
// want is left as it is: a PATH's kind comes from os.Lstat here, whose
// view of reparse points the attributes do not spell out.
func (w *Worktree) readDir(h windows.Handle, buf *[]byte, _ *diskKinds) ([]Entry, error) {
	if *buf == nil {
		*buf = make([]byte, 32<<10)
	}
	var out []Entry
	for {
		b := *buf
		err := windows.GetFileInformationByHandleEx(h, windows.FileFullDirectoryInfo, &b[0], uint32(len(b)))
		if errors.Is(err, windows.ERROR_NO_MORE_FILES) {
			return out, nil
		}
		if err != nil {
			return nil, os.NewSyscallError("GetFileInformationByHandleEx", err)
		}
		err = parseFullDirInfo(b, func(name string, fi winFileInfo) {
			if !winComponentOK(name) {
				return // not a Windows name: not there (winComponentOK)
			}
			kind, note := winKind(fi)
			if kind == Regular && !w.relevant([]byte(name)) {
				return
			}
			out = append(out, Entry{Name: name, Kind: kind, Size: -1, Note: note})
		})
		if err != nil {
			return nil, err
		}
	}
}
