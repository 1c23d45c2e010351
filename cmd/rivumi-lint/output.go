package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/rivumi/rivumi-lint/internal/outfile"
)

// toTerminal reports whether the output of a command lands on a terminal:
// standard output, no --output FILE, and stdout is one.
func toTerminal(stdout io.Writer, output string) bool {
	return output == "" && isTerminal(stdout)
}

// colorMode is --color: auto (the default), always or never.
type colorMode string

const (
	colorAuto   colorMode = "auto"
	colorAlways colorMode = "always"
	colorNever  colorMode = "never"
)

func (m *colorMode) String() string { return string(*m) }

func (m *colorMode) Set(s string) error {
	switch colorMode(s) {
	case colorAuto, colorAlways, colorNever:
		*m = colorMode(s)
		return nil
	}
	return fmt.Errorf("want auto, always or never")
}

// noColorFlag is --no-color, which is --color=never.
type noColorFlag struct{ m *colorMode }

func (f noColorFlag) String() string   { return "false" }
func (f noColorFlag) IsBoolFlag() bool { return true }

func (f noColorFlag) Set(s string) error {
	switch s {
	case "true":
		*f.m = colorNever
	case "false":
		if *f.m == colorNever {
			*f.m = colorAuto
		}
	default:
		return fmt.Errorf("want true or false")
	}
	return nil
}

// colorFlags defines --color and --no-color on fs.
func colorFlags(fs *flag.FlagSet) *colorMode {
	m := colorAuto
	fs.Var(&m, "color", "colour in text output, `WHEN`: auto (on a terminal; NO_COLOR, TERM=dumb: off; FORCE_COLOR, CLICOLOR_FORCE: on), always or never")
	fs.Var(noColorFlag{&m}, "no-color", "no colour in text output, as --color=never (NO_COLOR is honoured too)")
	return &m
}

// colorOutput decides colour in text output, for every command: the one
// place (wantColor) that reads --color and the environment.
func colorOutput(stdout io.Writer, output string, mode colorMode) bool {
	return wantColor(mode, os.Getenv, output != "", isTerminal(stdout))
}

// wantColor is the decision: never and always are as written; auto is off
// with NO_COLOR set to anything but "" (no-color.org), else on with
// FORCE_COLOR or CLICOLOR_FORCE set to anything but "" and "0" when the
// output is standard output (a terminal or not), else off with TERM=dumb,
// else on a terminal only (toTerminal: standard output, no --output FILE).
func wantColor(mode colorMode, getenv func(string) string, toFile, terminal bool) bool {
	switch mode {
	case colorNever:
		return false
	case colorAlways:
		return true
	}
	forced := func(k string) bool { v := getenv(k); return v != "" && v != "0" }
	switch {
	case getenv("NO_COLOR") != "":
		return false
	case toFile:
		return false
	case forced("FORCE_COLOR") || forced("CLICOLOR_FORCE"):
		return true
	case getenv("TERM") == "dumb":
		return false
	}
	return terminal
}

// output is where a command writes: standard output, or the --output
// FILE, which is written whole or not at all (F8).
type output struct {
	io.Writer
	file *outfile.File // nil: standard output
}

// openOutput opens --output FILE, or returns stdout when name is "".
// Callers defer abort, then commit when everything is written.
// temps records the temporary file (nil: not recorded).
func openOutput(name string, stdout io.Writer, temps *outfile.Temps) (*output, error) {
	if name == "" {
		return &output{Writer: stdout}, nil
	}
	f, err := temps.Create(name)
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

// textWidth is the width the text format wraps to on standard output: the
// terminal's when it is one, else COLUMNS when that is a positive number
// (a CI log or a test can ask for wrapping), else 0, no wrapping. A file
// given with --output or FORMAT=FILE is never wrapped.
func textWidth(stdout io.Writer, output string) int {
	if output != "" {
		return 0
	}
	if n := terminalColumns(stdout); n > 0 {
		return n
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 0
}
