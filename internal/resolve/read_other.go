//go:build !unix

package resolve

// NoFollowFlags is 0 where there are no such open flags: on windows the
// worktree is read through handles that open a reparse point itself
// (sys_windows.go), and fix checks the entry with Lstat before it opens
// it and the descriptor after (fix/file.go).
const NoFollowFlags = 0

// NonBlockFlags is 0 where an open does not block on a FIFO.
const NonBlockFlags = 0
