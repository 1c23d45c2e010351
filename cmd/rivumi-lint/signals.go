package main

import (
	"os"
	"os/signal"

	"github.com/rivumi/rivumi-lint/internal/outfile"
)

// removeOnSignal makes SIGINT and SIGTERM (Windows: Ctrl-C) remove the
// temporary files recorded in temps, which would otherwise stay beside
// their targets for the next `git add -A` (#38.4), and then end the
// process as the signal does by default (dieOf: a shell sees 128+N). The
// targets are as they were, or complete where a rename had happened (F8,
// X1). The returned func stops the handling; nil temps handles nothing.
func removeOnSignal(temps *outfile.Temps) (stop func()) {
	if temps == nil {
		return func() {}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			temps.Clean()
			dieOf(sig)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
