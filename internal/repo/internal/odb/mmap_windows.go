package odb

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// mmapFile maps f read-only with a file mapping object, which the view
// keeps alive: the mapping handle is closed at once.
func mmapFile(f *os.File, size int) ([]byte, error) {
	m, err := windows.CreateFileMapping(windows.Handle(f.Fd()), nil, windows.PAGE_READONLY, 0, 0, nil)
	if err != nil {
		return nil, os.NewSyscallError("CreateFileMapping", err)
	}
	defer windows.CloseHandle(m)
	addr, err := windows.MapViewOfFile(m, windows.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		return nil, os.NewSyscallError("MapViewOfFile", err)
	}
	// unsafe.Add: the view is not Go memory, and vet rightly doubts a
	// plain uintptr conversion.
	return unsafe.Slice((*byte)(unsafe.Add(nil, addr)), size), nil
}

func unmap(b []byte) {
	if len(b) > 0 {
		windows.UnmapViewOfFile(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	}
}
