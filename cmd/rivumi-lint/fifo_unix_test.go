//go:build unix

package main

import "golang.org/x/sys/unix"

// makeFIFO makes a FIFO at p (§10: a FIFO named AGENTS.md is refused
// without blocking).
func makeFIFO(p string) error { return unix.Mkfifo(p, 0o644) }
