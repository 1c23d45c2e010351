package main

import (
	"fmt"
	"io"
	"os"

	"github.com/rivumi/rivumi-lint/internal/outfile"
)

// toTerminal reports whether the output of a command lands on a terminal:
// standard output, no --output FILE, and stdout is one.
func toTerminal(stdout io.Writer, output string) bool {
	return output == "" && isTerminal(stdout)
}

// colorOutput decides colour in text output, for every command: on a
// terminal only (toTerminal), never with --no-color or with NO_COLOR set
// to anything but "" (no-color.org).
func colorOutput(stdout io.Writer, output string, noColor bool) bool {
	return !noColor && os.Getenv("NO_COLOR") == "" && toTerminal(stdout, output)
}

// output is where a command writes: standard output, or the --output
// FILE, which is written whole or not at all (F8).
type output struct {
	io.Writer
	file *outfile.File // nil: standard output
}

// openOutput opens --output FILE, or returns stdout when name is "".
// Callers defer abort, then commit when everything is written.
func openOutput(name string, stdout io.Writer) (*output, error) {
	if name == "" {
		return &output{Writer: stdout}, nil
	}
	f, err := outfile.Create(name)
	if err != nil {
		return nil, fmt.Errorf("--output: %w", err)
	}
	return &output{Writer: f, file: f}, nil
}

// commit puts the complete file in place; nothing for standard output.
func (o *output) commit() error {
	if o.file == nil {
		return nil
	}
	if err := o.file.Commit(); err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	return nil
}

// abort leaves the target as it was. It is safe after commit: deferred,
// it also removes the temporary file when a writer panics.
func (o *output) abort() {
	if o.file != nil {
		o.file.Abort()
	}
}
