package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// dirHandle is an open directory: a handle.
type dirHandle = windows.Handle

const shareAll = windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE

// ntOpen opens name relative to the open directory dir, the way openat(2)
// does on Unix: FILE_OPEN_REPARSE_POINT opens a symbolic link or junction
// itself, never what it points to (C1), and a relative open through the
// parent's handle cannot be redirected by a rename of the parent's path.
// The name is matched as given; the callers pass names a listing gave.
func ntOpen(dir windows.Handle, name string, access, options uint32) (windows.Handle, error) {
	if !winComponentOK(name) {
		return windows.InvalidHandle, fs.ErrNotExist
	}
	u, err := windows.NewNTUnicodeString(name)
	if err != nil {
		return windows.InvalidHandle, err
	}
	oa := windows.OBJECT_ATTRIBUTES{RootDirectory: dir, ObjectName: u}
	oa.Length = uint32(unsafe.Sizeof(oa))
	var h windows.Handle
	var iosb windows.IO_STATUS_BLOCK
	err = windows.NtCreateFile(&h, access|windows.SYNCHRONIZE, &oa, &iosb, nil, 0, shareAll,
		windows.FILE_OPEN, options|windows.FILE_OPEN_REPARSE_POINT|windows.FILE_SYNCHRONOUS_IO_NONALERT, 0, 0)
	if err != nil {
		var st windows.NTStatus
		if errors.As(err, &st) {
			err = st.Errno() // ERROR_FILE_NOT_FOUND and kin match fs.ErrNotExist
		}
		return windows.InvalidHandle, os.NewSyscallError("NtCreateFile", err)
	}
	return h, nil
}

// openPath opens the absolute or working-directory-relative path name
// without following a reparse point at its last component
// (FILE_FLAG_OPEN_REPARSE_POINT; BACKUP_SEMANTICS lets it open a
// directory, which is then reported as one).
func openPath(name string, access uint32) (windows.Handle, error) {
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return windows.InvalidHandle, err
	}
	h, err := windows.CreateFile(p, access, shareAll, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return windows.InvalidHandle, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return h, nil
}

// handleInfo describes the object h is open on, from the handle itself.
func handleInfo(h windows.Handle) (winFileInfo, error) {
	var fi winFileInfo
	t, err := windows.GetFileType(h)
	if err != nil {
		return fi, os.NewSyscallError("GetFileType", err)
	}
	fi.FileType = t
	if t != windows.FILE_TYPE_DISK {
		return fi, nil
	}
	var bh windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &bh); err != nil {
		return fi, os.NewSyscallError("GetFileInformationByHandle", err)
	}
	fi.Attrs = bh.FileAttributes
	fi.Size = int64(bh.FileSizeHigh)<<32 | int64(bh.FileSizeLow)
	if fi.Attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		var tag struct{ Attrs, Tag uint32 } // FILE_ATTRIBUTE_TAG_INFO
		if err := windows.GetFileInformationByHandleEx(h, windows.FileAttributeTagInfo, (*byte)(unsafe.Pointer(&tag)), uint32(unsafe.Sizeof(tag))); err != nil {
			return fi, os.NewSyscallError("GetFileInformationByHandleEx", err)
		}
		fi.Tag = tag.Tag
	}
	return fi, nil
}

// readHandle is readAt's second half on Windows: what the opened object
// is, and at most limit+1 bytes of it when it is a regular file.
func readHandle(h windows.Handle, limit int64) ([]byte, Kind, int64, error) {
	fi, err := handleInfo(h)
	if err != nil {
		return nil, Missing, -1, err
	}
	kind, _ := winKind(fi)
	switch {
	case kind == Symlink:
		return nil, Symlink, -1, nil
	case kind != Regular:
		return nil, kind, fi.Size, nil
	case fi.Size > limit:
		return nil, Regular, fi.Size, nil
	}
	data, err := readBounded(func(b []byte) (int, error) {
		var n uint32
		err := windows.ReadFile(h, b, &n, nil)
		if err == windows.ERROR_HANDLE_EOF {
			err = nil
		}
		return int(n), err
	}, fi.Size, limit)
	if err != nil {
		return nil, Regular, fi.Size, fmt.Errorf("read: %w", err)
	}
	return data, Regular, int64(len(data)), nil
}

// readAt opens name in the directory dir without following a reparse
// point, checks the opened handle and reads at most limit+1 bytes (C1–C3).
func readAt(dir windows.Handle, name string, limit int64) ([]byte, Kind, int64, error) {
	h, err := ntOpen(dir, name, windows.FILE_GENERIC_READ, 0)
	if err != nil {
		return nil, Missing, -1, err
	}
	defer windows.CloseHandle(h)
	return readHandle(h, limit)
}

func sysClose(h windows.Handle) error { return windows.CloseHandle(h) }

// ntFS is handleFS over real handles.
type ntFS struct{}

func (ntFS) openRel(dir windows.Handle, name string) (windows.Handle, error) {
	return ntOpen(dir, name, windows.FILE_LIST_DIRECTORY|windows.FILE_TRAVERSE|windows.FILE_READ_ATTRIBUTES, 0)
}

func (ntFS) info(h windows.Handle) (winFileInfo, error) { return handleInfo(h) }

func (ntFS) close(h windows.Handle) { windows.CloseHandle(h) }
