//go:build !unix

package config

// openFlags is empty where there are no FIFOs to block on.
const openFlags = 0
