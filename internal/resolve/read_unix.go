//go:build unix

package resolve

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// NoFollowFlags, added to an open's access mode, open a file without
// following a symbolic link at the last component (C1) and without
// blocking on a FIFO or device (C2); the descriptor is then checked to be
// a regular file. The one spelling of those flags: readAt's openat and
// fix's os.Root opens use it; on other systems it is 0
// (read_other.go).
const NoFollowFlags = unix.O_NOFOLLOW | NonBlockFlags

// NonBlockFlags, added to an open's access mode, keep the open from
// blocking on a FIFO nobody writes to or on a device (C2, F8): for a file
// the user names, which may be a link (--baseline), checked after the
// open by the descriptor's type. On other systems it is 0.
const NonBlockFlags = unix.O_NONBLOCK

// openFlags are readAt's: NoFollowFlags for reading, plus what a raw
// openat needs that os.OpenFile would add (close-on-exec) and never
// making a terminal the controlling one.
const openFlags = unix.O_RDONLY | NoFollowFlags | unix.O_CLOEXEC | unix.O_NOCTTY

// readAt is the one function through which every instruction file is read.
// It opens name relative to the directory descriptor dirfd (unix.AT_FDCWD
// for a path relative to the working directory or an absolute one), checks
// what the opened descriptor is (no stat-then-open race), and reads at most
// limit+1 bytes (C3), so a 2 GiB file costs no more than a small one. When the
// object is not a regular file, or is larger than limit, data is nil.
func readAt(dirfd int, name string, limit int64) (data []byte, kind Kind, size int64, err error) {
	fd, err := openNoFollow(dirfd, name, openFlags)
	if err != nil {
		if isLinkErr(err) {
			return nil, Symlink, -1, nil
		}
		return nil, Missing, -1, err
	}
	defer sysClose(fd)
	var st unix.Stat_t
	if err := sysFstat(fd, &st); err != nil {
		return nil, Missing, -1, fmt.Errorf("fstat: %w", err)
	}
	kind = kindOfMode(uint32(st.Mode))
	if kind != Regular {
		return nil, kind, st.Size, nil
	}
	if st.Size > limit {
		return nil, Regular, st.Size, nil
	}
	// The file may grow between fstat and read: never read past limit+1.
	buf := make([]byte, st.Size+1)
	if int64(len(buf)) > limit+1 {
		buf = buf[:limit+1]
	}
	n := 0
	for n < len(buf) {
		m, err := sysRead(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, Regular, st.Size, fmt.Errorf("read: %w", err)
		}
		if m == 0 {
			break
		}
		n += m
		if n == len(buf) && int64(len(buf)) < limit+1 {
			// It grew: make room up to the limit.
			grow := len(buf) * 2
			if int64(grow) > limit+1 {
				grow = int(limit + 1)
			}
			nb := make([]byte, grow)
			copy(nb, buf)
			buf = nb
		}
	}
	return buf[:n], Regular, int64(n), nil
}

func openNoFollow(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := sysOpenat(dirfd, name, flags)
		if err == unix.EINTR {
			continue
		}
		return fd, err
	}
}

// isLinkErr reports the error O_NOFOLLOW gives for a symbolic link: ELOOP on
// Linux, EMLINK on FreeBSD, EFTYPE on NetBSD.
func isLinkErr(err error) bool {
	return errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EMLINK)
}

func kindOfMode(mode uint32) Kind {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return Regular
	case unix.S_IFLNK:
		return Symlink
	case unix.S_IFDIR:
		return Dir
	}
	return Special
}

func specialNote(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFIFO:
		return "a FIFO"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFCHR:
		return "a character device"
	case unix.S_IFBLK:
		return "a block device"
	}
	return ""
}
