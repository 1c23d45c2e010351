package resolve

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"unicode/utf16"
)

// The decisions of the Windows worktree (worktree_windows.go) live here,
// free of system calls, so that they compile and are tested on every
// platform: what an opened handle is (C1, C2), the walk that opens a
// directory one component at a time without crossing a reparse point
// (C1), the parse of a directory listing, and the bounded read (C3).

// Windows file attributes and reparse tags (winnt.h), spelled out so that
// this file needs no golang.org/x/sys/windows.
const (
	winAttrDirectory    = 0x00000010
	winAttrDevice       = 0x00000040
	winAttrReparsePoint = 0x00000400

	winTagMountPoint    = 0xA0000003 // a junction (or a volume mount point)
	winTagSymlink       = 0xA000000C
	winTagAFUnix        = 0x80000023 // a Unix domain socket
	winTagNameSurrogate = 0x20000000 // the tag names another file system object

	winFileTypeDisk = 0x0001 // GetFileType of a file on a file system
	winFileTypeChar = 0x0002
	winFileTypePipe = 0x0003
)

// winFileInfo is what Windows says about an object: from an opened handle
// (GetFileInformationByHandle, FileAttributeTagInfo, GetFileType) or from a
// directory listing (FileType 0: unknown there).
type winFileInfo struct {
	Attrs    uint32
	Tag      uint32 // the reparse tag when Attrs has winAttrReparsePoint
	Size     int64
	FileType uint32
}

// winKind is the Kind of an object Windows describes, and the note that
// explains it. A reparse point that names another object (a symbolic
// link, a junction, any name-surrogate tag) is a link: it is never
// followed and its layer is rejected as CauseSymlink (C1). Other reparse points (OneDrive
// placeholders, deduplicated or compressed files) hold the object's own
// data and are what their directory bit says, except a Unix socket. A
// handle that is not on a file system (a console, a pipe, a device) is
// never a regular file (C2); Windows file systems have no FIFOs.
func winKind(fi winFileInfo) (Kind, string) {
	if fi.Attrs&winAttrReparsePoint != 0 {
		switch {
		case fi.Tag == winTagSymlink:
			return Symlink, ""
		case fi.Tag == winTagMountPoint:
			return Symlink, "a junction (a reparse point that redirects to another directory)"
		case fi.Tag&winTagNameSurrogate != 0:
			return Symlink, fmt.Sprintf("a reparse point that names another object (tag %#x)", fi.Tag)
		case fi.Tag == winTagAFUnix:
			return Special, "a socket"
		}
	}
	if fi.Attrs&winAttrDevice != 0 {
		return Special, "a device"
	}
	switch fi.FileType {
	case 0, winFileTypeDisk:
	case winFileTypePipe:
		return Special, "a named pipe"
	case winFileTypeChar:
		return Special, "a character device"
	default:
		return Special, "a device"
	}
	if fi.Attrs&winAttrDirectory != 0 {
		return Dir, ""
	}
	return Regular, ""
}

// winComponentOK reports whether c may be opened as one path component
// relative to a directory handle. NtCreateFile would walk a `\` itself
// (past the reparse-point check of each step), read `:` as a stream name
// and resolve `..`; it refuses the other characters NTFS keeps out of
// file names (`*?"<>|` and the control characters) as an invalid name.
// The sources' names never hold them on Windows, so a name that does is
// not there. (Wine lists such names from a Unix disk; so may a share
// served from one: docs/platforms.md.)
func winComponentOK(c string) bool {
	if c == "" || c == "." || c == ".." || strings.ContainsAny(c, `\:*?"<>|`) {
		return false
	}
	for i := 0; i < len(c); i++ {
		if c[i] < 0x20 {
			return false
		}
	}
	return true
}

// handleFS is what the walk needs from the system: open one name below
// an open directory without following a reparse point, say what the
// opened object is, close it. Windows implements it with NtCreateFile
// (FILE_OPEN_REPARSE_POINT, relative to the parent's handle); the tests
// with a fake tree.
type handleFS[H any] interface {
	openRel(dir H, name string) (H, error)
	info(h H) (winFileInfo, error)
	close(h H)
}

// walkBeneath opens the slash path dir below the open directory root one
// component at a time, each relative to its parent's handle, and checks
// each opened object after opening it (no check-then-open race): a link
// on the way is a *LinkedDirError naming it (C1), anything else that is
// not a directory fs.ErrNotExist. root stays open; the caller closes the
// handle returned.
func walkBeneath[H any](fsys handleFS[H], root H, dir string) (H, error) {
	var zero H
	cur, owned := root, false
	release := func() {
		if owned {
			fsys.close(cur)
		}
	}
	walked := ""
	for _, c := range strings.Split(dir, "/") {
		walked = path.Join(walked, c)
		if !winComponentOK(c) {
			release()
			return zero, fs.ErrNotExist
		}
		next, err := fsys.openRel(cur, c)
		release()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return zero, fs.ErrNotExist
			}
			return zero, fmt.Errorf("open %s: %w", walked, err)
		}
		cur, owned = next, true
		fi, err := fsys.info(cur)
		if err != nil {
			release()
			return zero, fmt.Errorf("open %s: %w", walked, err)
		}
		switch k, _ := winKind(fi); k {
		case Dir:
		case Symlink:
			release()
			return zero, &LinkedDirError{Dir: walked}
		default:
			release()
			return zero, fs.ErrNotExist
		}
	}
	if !owned {
		return zero, fs.ErrNotExist // dir was ""
	}
	return cur, nil
}

// readBounded reads what read returns until end of file (a zero count or
// io.EOF),
// at most limit+1 bytes whatever the file's size or growth (C3). size is
// the size the handle reported when opened.
func readBounded(read func([]byte) (int, error), size, limit int64) ([]byte, error) {
	buf := make([]byte, min(size, limit)+1)
	n := 0
	for n < len(buf) {
		m, err := read(buf[n:])
		n += m
		if err == io.EOF || err == nil && m == 0 {
			break
		}
		if err != nil {
			return nil, err
		}
		if n == len(buf) && int64(len(buf)) < limit+1 {
			// It grew: make room up to the limit.
			nb := make([]byte, min(int64(len(buf))*2, limit+1))
			copy(nb, buf)
			buf = nb
		}
	}
	return buf[:n], nil
}

// fullDirInfoHeader is the size of FILE_FULL_DIR_INFO before FileName.
const fullDirInfoHeader = 68

// parseFullDirInfo calls fn for each record of a buffer of FILE_FULL_DIR_INFO
// records (GetFileInformationByHandleEx, FileFullDirectoryInfo), "." and
// ".." left out. For a reparse point the record's EaSize field holds the
// reparse tag, so a listing names links without opening them.
func parseFullDirInfo(b []byte, fn func(name string, fi winFileInfo)) error {
	le := binary.LittleEndian
	for len(b) > 0 {
		if len(b) < fullDirInfoHeader {
			return errors.New("FILE_FULL_DIR_INFO: short record")
		}
		next := int(le.Uint32(b[0:]))
		nameLen := int(le.Uint32(b[60:]))
		if nameLen%2 != 0 || fullDirInfoHeader+nameLen > len(b) || next != 0 && (next < fullDirInfoHeader+nameLen || next > len(b)) {
			return fmt.Errorf("FILE_FULL_DIR_INFO: bad record (next %d, name length %d, %d bytes left)", next, nameLen, len(b))
		}
		u := make([]uint16, nameLen/2)
		for i := range u {
			u[i] = le.Uint16(b[fullDirInfoHeader+2*i:])
		}
		name := string(utf16.Decode(u))
		fi := winFileInfo{Attrs: le.Uint32(b[56:]), Size: int64(le.Uint64(b[40:]))}
		if fi.Attrs&winAttrReparsePoint != 0 {
			fi.Tag = le.Uint32(b[64:])
		}
		if name != "." && name != ".." {
			fn(name, fi)
		}
		if next == 0 {
			return nil
		}
		b = b[next:]
	}
	return nil
}
