//go:build !linux

package main

import (
	"os"
	"runtime"
	"testing"
)

// openPTY: the pseudo-terminal helper is Linux's (/dev/ptmx with
// TIOCSPTLCK and TIOCGPTN); colour on a terminal is tested there.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	t.Skipf("no pseudo-terminal helper on %s: the colour tests run on Linux", runtime.GOOS)
	return nil, nil
}

func previewPTY(t *testing.T) (master, slave *os.File) { return openPTY(t) }
