//go:build unix

package integration

import (
	"os/exec"
	"syscall"
	"time"
)

// codexProcessGroup makes cmd the leader of its own process group and a
// timeout kill the whole group: codex is a node launcher that starts the
// native binary as its child, which a kill of the launcher alone leaves
// running with the output pipes open.
func codexProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
}

func codexMkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }
