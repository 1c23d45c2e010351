//go:build unix

package odb

import (
	"os"

	"golang.org/x/sys/unix"
)

func mmapFile(f *os.File, size int) ([]byte, error) {
	return unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
}

func unmap(b []byte) {
	if len(b) > 0 {
		unix.Munmap(b)
	}
}
