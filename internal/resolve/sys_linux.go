package resolve

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The file system calls of the hot paths (list a directory, read a small
// file) are made with RawSyscall: they take microseconds on a local file
// system, and with the ordinary Syscall the runtime's monitor hands the
// processor to another thread whenever one takes over 20 µs, which on a
// busy machine costs more futex wake-ups and context switches than the
// calls themselves (a pre-commit check makes ~10,000 of them). Nothing else
// runs while they do: the program has one goroutine.

func errnoErr(e syscall.Errno) error {
	switch e {
	case 0:
		return nil
	case unix.EAGAIN:
		return unix.EAGAIN
	case unix.EINVAL:
		return unix.EINVAL
	case unix.ENOENT:
		return unix.ENOENT
	}
	return e
}

func sysOpenat2(dirfd int, path string, how *unix.OpenHow) (int, error) {
	p, err := unix.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	fd, _, e := unix.RawSyscall6(unix.SYS_OPENAT2, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(how)), unsafe.Sizeof(*how), 0, 0)
	if e != 0 {
		return -1, errnoErr(e)
	}
	return int(fd), nil
}

func sysOpenat(dirfd int, path string, flags int) (int, error) {
	p, err := unix.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	fd, _, e := unix.RawSyscall6(unix.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(flags), 0, 0, 0)
	if e != 0 {
		return -1, errnoErr(e)
	}
	return int(fd), nil
}

func sysGetdents(fd int, buf []byte) (int, error) {
	n, _, e := unix.RawSyscall(unix.SYS_GETDENTS64, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(buf))), uintptr(len(buf)))
	if e != 0 {
		return -1, errnoErr(e)
	}
	return int(n), nil
}

func sysRead(fd int, buf []byte) (int, error) {
	if len(buf) == 0 {
		return 0, nil
	}
	n, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(buf))), uintptr(len(buf)))
	if e != 0 {
		return -1, errnoErr(e)
	}
	return int(n), nil
}

func sysFstat(fd int, st *unix.Stat_t) error {
	_, _, e := unix.RawSyscall(unix.SYS_FSTAT, uintptr(fd), uintptr(unsafe.Pointer(st)), 0)
	return errnoErr(e)
}

func sysClose(fd int) error {
	_, _, e := unix.RawSyscall(unix.SYS_CLOSE, uintptr(fd), 0, 0)
	return errnoErr(e)
}
