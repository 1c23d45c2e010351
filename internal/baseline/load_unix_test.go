//go:build unix

package baseline

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// loadWithin is Load, failed when it does not return within d (§10: never
// a hang).
func loadWithin(t *testing.T, d time.Duration, name string) (*Baseline, error) {
	t.Helper()
	type result struct {
		b   *Baseline
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := Load(name)
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		return r.b, r.err
	case <-time.After(d):
		t.Fatalf("Load(%s) still blocked after %v", name, d)
		return nil, nil
	}
}

// B5 (#38.6): a FIFO nobody writes to, a socket and a device are refused
// at once, never a hang in open(2); a directory too.
func TestLoadSpecialFilesB5(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "b.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// A unix socket path is at most 104 bytes on some systems: bind it
	// through a short relative name.
	t.Chdir(dir)
	l, err := net.Listen("unix", "b.sock")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for name, want := range map[string]string{
		fifo:                            "is a FIFO or pipe that gave nothing (no program was writing to it when check opened it)",
		filepath.Join(dir, "b.sock"):    "is not a regular file (a socket)",
		"/dev/zero":                     "is not a regular file (a character device)",
		dir:                             "is not a regular file (a directory)",
		filepath.Join(dir, "none.json"): "no such file",
	} {
		_, err := loadWithin(t, 5*time.Second, name)
		var be *fileError
		if err == nil || !strings.HasPrefix(err.Error(), "baseline "+name+": ") || !strings.Contains(err.Error(), want) || !asFileError(err, &be) {
			t.Errorf("Load(%s) = %v, want a *fileError with %q", name, err, want)
		}
	}
}

// B5 (#38.6): a pipe with a writer (a process substitution,
// --baseline <(git show main:FILE)) is read, however late the writer
// writes.
func TestLoadPipeB5(t *testing.T) {
	if _, err := os.Stat("/dev/fd"); err != nil {
		t.Skip("no /dev/fd on this system: a process substitution is not possible here")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		time.Sleep(200 * time.Millisecond)
		fmt.Fprint(w, `{"version": 1, "findings": [{"rule": "R", "path": "a", "hash": "0123456789abcdef", "count": 2, "message": "m"}]}`)
		w.Close()
	}()
	name := fmt.Sprintf("/dev/fd/%d", r.Fd())
	b, err := loadWithin(t, 5*time.Second, name)
	if err != nil || b.counts[key{"R", "a", "", "0123456789abcdef"}] != 2 {
		t.Fatalf("Load(%s) = %+v, %v; want the pipe's baseline", name, b, err)
	}
}

func asFileError(err error, be **fileError) bool { return errors.As(err, be) }
