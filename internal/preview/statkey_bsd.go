//go:build darwin || freebsd

package preview

import "syscall"

// The BSDs call the change time Ctimespec.
func ctime(st *syscall.Stat_t) (sec, nsec int64) {
	return int64(st.Ctimespec.Sec), int64(st.Ctimespec.Nsec)
}
