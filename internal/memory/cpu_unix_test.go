//go:build unix

package memory

import "syscall"

// cpuNanos is the user+system CPU time of this process, so that the
// benchmark can report CPU time next to wall time on a shared machine.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
