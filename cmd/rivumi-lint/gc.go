package main

import (
	"os"
	"runtime/debug"
)

// oneShotGCPercent is the collector's setting for a command that runs once
// and exits: a check's live heap is a few MiB, so at Go's default (100)
// the collector runs every few MiB allocated, 8 to 9 times in a 200 ms
// worktree check, and with --agent all takes 7 % of its CPU. At 400 a
// check is 10 to 17 % faster on the benchmark's repository, and the
// pre-commit case's peak RSS goes from 19 to 22 MiB (docs/performance.md).
const oneShotGCPercent = 400

// gcPercent is the collector setting for command (os.Args[1]), ok false
// to keep Go's: when the user set GOGC, and for the servers (lsp, mcp),
// which live long and whose memory matters more than a few milliseconds.
func gcPercent(command string, gogcSet bool) (percent int, ok bool) {
	switch {
	case gogcSet, command == "lsp", command == "mcp":
		return 0, false
	}
	return oneShotGCPercent, true
}

// tuneGC applies gcPercent to this process.
func tuneGC(args []string) {
	command := ""
	if len(args) > 0 {
		command = args[0]
	}
	_, set := os.LookupEnv("GOGC")
	if p, ok := gcPercent(command, set); ok {
		debug.SetGCPercent(p)
	}
}
