//go:build unix

package preview_test

import (
	"syscall"
	"testing"
)

// mkfifo makes a FIFO at p (§10: a FIFO is refused without blocking).
func mkfifo(t *testing.T, p string) error {
	t.Helper()
	return syscall.Mkfifo(p, 0o644)
}
