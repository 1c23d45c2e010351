//go:build unix && !linux

package resolve

import (
	"os"

	"golang.org/x/sys/unix"
)

// openBeneath is openat2(2) on Linux; elsewhere directories are opened
// component by component.
func openBeneath(dirfd int, dir string) (int, error) { return -1, unix.ENOSYS }

// readDir lists the open directory fd (which it does not close). want,
// when not nil, takes the kind of the names it asks for.
func (w *Worktree) readDir(fd int, _ *[]byte, want *diskKinds) ([]Entry, error) {
	nfd, err := unix.Dup(fd)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(nfd), "directory")
	defer f.Close()
	des, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		if want != nil {
			want.note([]byte(de.Name()), kindOfFileMode(de.Type()))
		}
		if de.Type().IsRegular() && !w.relevant([]byte(de.Name())) {
			continue
		}
		e := Entry{Name: de.Name(), Size: -1, Kind: kindOfFileMode(de.Type())}
		if e.Kind == Special {
			if n := ModeNote(de.Type()); n != "" {
				e.Note = "a " + n
			}
		}
		out = append(out, e)
	}
	return out, nil
}
