package main

import (
	"fmt"
	"io"
	"os"
)

// midWriteMain is `rivumi-lint-midwrite ARGS...`: rivumi-lint as main runs
// it, but each temporary file, once made and recorded (outfile.Temps), is
// named on file descriptor 3, and the run then waits for standard input
// to end: signals_unix_test.go stops it there with a signal, the one
// moment a temporary file exists that no pipe can hold the run in.
func midWriteMain() {
	ready := os.NewFile(3, "ready")
	e := processEnv()
	e.Temps.Created = func(path string) {
		fmt.Fprintln(ready, path)
		io.Copy(io.Discard, os.Stdin)
	}
	os.Exit(run(os.Args[1:], e))
}
