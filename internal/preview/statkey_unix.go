//go:build linux || darwin || freebsd

package preview

import (
	"fmt"
	"io/fs"
	"syscall"
)

// statKey is the part of memoryKey only the platform's stat knows: device,
// inode and change time (a rewrite in place keeps size and mtime).
func statKey(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	sec, nsec := ctime(st)
	return fmt.Sprintf(" %d %d %d.%d", st.Dev, st.Ino, sec, nsec)
}
