//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// ownProcessGroup runs cmd in a process group of its own, killed whole on
// the context's deadline (the probe and rivumi-lint).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// interruptGroup sends SIGINT to cmd's process group (Ctrl-C).
func interruptGroup(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }

// interruptSelf sends SIGINT to the test process.
func interruptSelf() error { return syscall.Kill(os.Getpid(), syscall.SIGINT) }
