package resolve

import (
	"bytes"
	"fmt"
	"os"
	"slices"

	"golang.org/x/sys/unix"
)

// openBeneath opens the directory dir below dirfd in one system call,
// failing with ELOOP when any component is a symbolic link (C1) and with
// EXDEV when the path would leave dirfd.
func openBeneath(dirfd int, dir string) (int, error) {
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := sysOpenat2(dirfd, dir, &how)
		if err == unix.EINTR {
			continue
		}
		return fd, err
	}
}

// readDir lists the open directory fd with getdents64(2) into a reused
// buffer: one allocation per name, none per entry beyond it. The kind
// comes from d_type (fstatat(2) only where the file system leaves it
// unknown). want, when not nil, takes the kind of the names it asks for,
// from d_type, before any is left out.
func (w *Worktree) readDir(fd int, buf *[]byte, want *diskKinds) ([]Entry, error) {
	if *buf == nil {
		*buf = make([]byte, 32<<10)
	}
	var out []Entry
	for {
		n, err := sysGetdents(fd, *buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, os.NewSyscallError("getdents64", err)
		}
		if n <= 0 {
			return out, nil
		}
		b := (*buf)[:n]
		// Room for the batch's kept entries at once (dot entries aside),
		// rather than growing out step by step. Which regular files are
		// relevant is decided here once per record, not again below.
		var small [(32<<10)/minDirent/64 + 1]uint64
		skip := small[:]
		if n/minDirent/64 >= len(small) {
			skip = make([]uint64, n/minDirent/64+1)
		}
		keep, rec := 0, 0
		for r := b; len(r) >= 19; rec++ {
			reclen := int(r[16]) | int(r[17])<<8
			if reclen < 19 || reclen > len(r) {
				break
			}
			if r[18] != unix.DT_REG || w.relevant(cstring(r[19:reclen])) {
				keep++
			} else {
				skip[rec/64] |= 1 << (rec % 64)
			}
			r = r[reclen:]
		}
		out = slices.Grow(out, keep)
		for rec = 0; len(b) > 0; rec++ {
			if len(b) < 19 {
				return nil, fmt.Errorf("getdents64: short record")
			}
			reclen := int(b[16]) | int(b[17])<<8
			if reclen < 19 || reclen > len(b) {
				return nil, fmt.Errorf("getdents64: bad record length %d", reclen)
			}
			ino := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 | uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
			typ := b[18]
			name := cstring(b[19:reclen])
			b = b[reclen:]
			if ino == 0 || len(name) == 0 || name[0] == '.' && (len(name) == 1 || len(name) == 2 && name[1] == '.') {
				continue
			}
			if want != nil {
				want.note(name, direntKind(typ))
			}
			if skip[rec/64]&(1<<(rec%64)) != 0 {
				continue
			}
			e := Entry{Name: string(name), Size: -1}
			switch typ {
			case unix.DT_DIR:
				e.Kind = Dir
			case unix.DT_REG:
				e.Kind = Regular
			case unix.DT_LNK:
				e.Kind = Symlink
			case unix.DT_FIFO:
				e.Kind, e.Note = Special, "a FIFO"
			case unix.DT_SOCK:
				e.Kind, e.Note = Special, "a socket"
			case unix.DT_CHR:
				e.Kind, e.Note = Special, "a character device"
			case unix.DT_BLK:
				e.Kind, e.Note = Special, "a block device"
			default:
				var st unix.Stat_t
				if err := unix.Fstatat(fd, e.Name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
					continue // gone meanwhile
				}
				e.Kind = kindOfMode(uint32(st.Mode))
				if e.Kind == Special {
					e.Note = specialNote(uint32(st.Mode))
				}
			}
			out = append(out, e)
		}
	}
}

// minDirent is the shortest getdents64 record the listing accepts: its
// 19-byte header (the kernel pads a record to 24 bytes or more).
const minDirent = 19

// cstring is b up to its first NUL.
func cstring(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i]
	}
	return b
}

// direntKind is the kind d_type gives, Missing when it gives none
// (DT_UNKNOWN: the caller asks lstat).
func direntKind(typ uint8) Kind {
	switch typ {
	case unix.DT_DIR:
		return Dir
	case unix.DT_REG:
		return Regular
	case unix.DT_LNK:
		return Symlink
	case unix.DT_FIFO, unix.DT_SOCK, unix.DT_CHR, unix.DT_BLK:
		return Special
	}
	return Missing
}
