//go:build darwin || freebsd

package preview

import (
	"fmt"
	"io/fs"
	"syscall"
)

// statKey is the part of memoryKey only the platform's stat knows: device,
// inode and change time (the BSDs call it Ctimespec).
func statKey(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return fmt.Sprintf(" %d %d %d.%d", st.Dev, st.Ino, st.Ctimespec.Sec, st.Ctimespec.Nsec)
}
