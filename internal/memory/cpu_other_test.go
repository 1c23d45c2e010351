//go:build !unix

package memory

func cpuNanos() int64 { return 0 }
