//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// stopSignals are the signals removeOnSignal handles: Ctrl-C and kill's.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// dieOf ends the process by sig with its default action, as if it had
// not been caught: the parent sees a death by the signal (a shell: status
// 128+N), so a shell loop stopped by Ctrl-C stops, as it does when a
// program dies of SIGINT, and not when it merely exits non-zero.
func dieOf(sig os.Signal) {
	s, ok := sig.(syscall.Signal)
	if !ok {
		os.Exit(exitError)
	}
	signal.Reset(s)
	syscall.Kill(syscall.Getpid(), s)
	// Only when the signal did not end the process at once.
	os.Exit(128 + int(s))
}
