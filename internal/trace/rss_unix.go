//go:build unix

package trace

import (
	"runtime"
	"syscall"
)

// peakRSS is the process's peak resident set size in KiB, -1 when unknown.
func peakRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	rss := int64(ru.Maxrss) // KiB on Linux and the BSDs
	if runtime.GOOS == "darwin" {
		rss /= 1024 // bytes on macOS
	}
	return rss
}
