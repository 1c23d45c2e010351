package main

import (
	"errors"
	"os/exec"
)

var errNoSIGINT = errors.New("Windows cannot send one process Ctrl-C (only a whole console): the interrupt cases run on Unix")

// ownProcessGroup leaves cmd as it is: the context's deadline kills the
// probe (Windows has no process groups to signal).
func ownProcessGroup(*exec.Cmd) {}

func interruptGroup(*exec.Cmd) error { return errNoSIGINT }

func interruptSelf() error { return errNoSIGINT }
