//go:build unix && !linux

package resolve_test

import "testing"

// watchOpens observes nothing here: inotify is Linux's. The tests that use
// it still check what the engine reports; the proof that nothing behind a
// link is opened is the Linux run's (C1).
func watchOpens(t *testing.T, paths ...string) func() []string {
	t.Helper()
	return func() []string { return nil }
}
