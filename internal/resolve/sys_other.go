//go:build unix && !linux

package resolve

import "golang.org/x/sys/unix"

func sysOpenat(dirfd int, path string, flags int) (int, error) {
	return unix.Openat(dirfd, path, flags, 0)
}

func sysRead(fd int, buf []byte) (int, error) { return unix.Read(fd, buf) }

func sysFstat(fd int, st *unix.Stat_t) error { return unix.Fstat(fd, st) }

func sysClose(fd int) error { return unix.Close(fd) }
