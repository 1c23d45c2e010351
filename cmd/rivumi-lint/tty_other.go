//go:build !linux && !darwin && !freebsd && !windows

package main

import "io"

// isTerminal is false where no terminal query is implemented: plain text.
func isTerminal(io.Writer) bool { return false }

// terminalColumns is 0 where no terminal query is implemented: no wrapping.
func terminalColumns(io.Writer) int { return 0 }
