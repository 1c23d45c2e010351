//go:build unix

package config

import "syscall"

// openFlags keeps Load from blocking on a FIFO; the descriptor is then
// checked to be a regular file.
const openFlags = syscall.O_NONBLOCK
