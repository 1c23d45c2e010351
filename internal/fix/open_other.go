//go:build !unix

package fix

// openFlags: elsewhere the entry is checked with Lstat before it is opened
// (file.go), and the descriptor after.
const openFlags = 0
