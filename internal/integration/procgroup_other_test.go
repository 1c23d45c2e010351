//go:build !unix

package integration

import (
	"os"
	"os/exec"
)

// inOwnGroup does nothing here: no process groups; killGroup ends the
// process itself.
func inOwnGroup(cmd *exec.Cmd) {}

func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
