//go:build !unix

package main

import "os"

// usage reports CPU time only: the benchmark's RSS figures come from
// getrusage(2), which this platform lacks.
func usage(ps *os.ProcessState) (rss, cpu int64, ok bool) {
	return 0, int64(ps.UserTime() + ps.SystemTime()), true
}
