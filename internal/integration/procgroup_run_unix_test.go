//go:build unix

package integration

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunEndsItsProcessesWithTheTest: a process a command started through
// run and left in the background is gone once the test that ran it ends
// (#33.13: a timed-out run left a snapshot build running). Fast and
// client-free, so it runs without RIVUMI_LINT_INTEGRATION.
func TestRunEndsItsProcessesWithTheTest(t *testing.T) {
	var pid int
	t.Run("starts", func(t *testing.T) {
		r := run(t, t.TempDir(), os.Environ(), nil, "sh", "-c", "sleep 300 >/dev/null 2>&1 </dev/null & echo $!")
		if r.code != 0 {
			t.Fatalf("sh: %s", r)
		}
		var err error
		if pid, err = strconv.Atoi(strings.TrimSpace(r.stdout)); err != nil {
			t.Fatalf("sh printed no pid: %s", r)
		}
		if !alive(pid) {
			t.Fatalf("the background sleep %d is not running while its test is", pid)
		}
	})
	if pid == 0 {
		return
	}
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the background sleep %d outlived the test that started it", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether pid runs; a zombie (ended, not yet reaped by
// whoever adopted it) does not.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err) // no /proc (macOS, FreeBSD): kill's answer stands
	}
	// pid (comm) STATE …: comm may hold spaces and parentheses.
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}
