//go:build unix && !linux

package resolve

import "io/fs"

// kindOfFileMode is the Kind of a directory entry's type bits, for the
// listing of dir_other.go (Linux reads the types from getdents64 itself).
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
