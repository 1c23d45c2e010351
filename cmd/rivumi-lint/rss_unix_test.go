//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSSBytes is a finished process's peak resident set size in bytes.
func peakRSSBytes(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss), true // bytes on macOS
	}
	return int64(ru.Maxrss) << 10, true // KiB on Linux and FreeBSD
}
