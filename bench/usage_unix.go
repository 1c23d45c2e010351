//go:build unix

package main

import (
	"os"
	"syscall"
)

// usage is a finished process's peak RSS (KiB, as Linux reports it) and
// CPU time (ns).
func usage(ps *os.ProcessState) (rss, cpu int64, ok bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0, false
	}
	return int64(ru.Maxrss), ru.Utime.Nano() + ru.Stime.Nano(), true
}
