//go:build unix

package integration

import (
	"os/exec"
	"syscall"
)

// inOwnGroup starts cmd as the leader of a new process group, so that
// killGroup reaches everything it starts (scripts/release-snapshot's
// goreleaser and its go builds, a client's helpers).
func inOwnGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// killGroup ends the process group whose leader is pid.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }
