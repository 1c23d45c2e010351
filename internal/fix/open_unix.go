//go:build unix

package fix

import "syscall"

// openFlags never follow a link at the last component and never block on
// a FIFO (C1, C2): the descriptor is then checked to be a regular file.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
