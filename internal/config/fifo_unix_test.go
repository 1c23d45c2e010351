//go:build unix

package config

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// §10: a FIFO named .rivumi-lint.yaml is an error, never a hang.
func TestLoadFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".rivumi-lint.yaml")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatalf("mkfifo: %v (the test needs a file system that holds FIFOs)", err)
	}
	_, err := Load(p)
	if err == nil || !strings.HasPrefix(err.Error(), p+": not a regular file (a named pipe)") {
		t.Fatalf("Load(FIFO): %v", err)
	}
}
