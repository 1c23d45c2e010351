//go:build !unix

package main

import "os"

// stopSignals are the signals removeOnSignal handles: Ctrl-C (and
// Ctrl-Break), all that Windows delivers as a signal.
var stopSignals = []os.Signal{os.Interrupt}

// dieOf exits 130, 128 plus SIGINT's number, the status a Unix shell
// shows for Ctrl-C: Windows has no death by a signal to repeat.
func dieOf(os.Signal) { os.Exit(130) }
