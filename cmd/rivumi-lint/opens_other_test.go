//go:build !linux

package main

// watchOpens observes nothing here: inotify is Linux's. The runs still
// check what rivumi-lint reports; the proof that nothing behind a link is
// opened or read is the Linux run's (C1).
func (c *cli) watchOpens(paths ...string) { c.t.Helper() }

// opened reports nothing without inotify.
func (c *cli) opened() []string { return nil }
