//go:build darwin || freebsd

package main

import "golang.org/x/sys/unix"

// The BSDs name Linux's TCGETS TIOCGETA.
const ioctlGetTermios = unix.TIOCGETA
