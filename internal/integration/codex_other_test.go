//go:build !unix

package integration

import (
	"errors"
	"os/exec"
	"time"
)

// codexProcessGroup: the differential test runs on Unix only (Codex's
// chains are compared there); elsewhere a timeout kills the launcher.
func codexProcessGroup(cmd *exec.Cmd) { cmd.WaitDelay = 5 * time.Second }

func codexMkfifo(string) error { return errors.New("no FIFOs on this system") }
