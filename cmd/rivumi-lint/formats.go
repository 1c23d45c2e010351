package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/report"
)

// formatsFlag is check's --format, which may be given more than once:
// FORMAT writes to --output (or standard output), FORMAT=FILE to FILE,
// so that one run prints annotations and writes SARIF (the Action's one
// check, issue #26) with its notes printed once.
type formatsFlag struct {
	given []string
}

func (f *formatsFlag) String() string {
	if f == nil || len(f.given) == 0 {
		return "text"
	}
	return strings.Join(f.given, ",")
}

// Set keeps the value; outputs judges it once all are given.
func (f *formatsFlag) Set(v string) error {
	f.given = append(f.given, v)
	return nil
}

// checkOutput is one report of a run.
type checkOutput struct {
	name  string
	file  string // "" standard output
	write func(io.Writer, *lint.Result, report.Options) error
}

// names are the formats given, text when none is.
func (f *formatsFlag) names() []string {
	if len(f.given) == 0 {
		return []string{"text"}
	}
	var out []string
	for _, g := range f.given {
		name, _, _ := strings.Cut(g, "=")
		out = append(out, name)
	}
	return out
}

// outputs are the reports to write: at most one without =FILE, which
// goes to output (--output) or standard output; no file twice.
func (f *formatsFlag) outputs(output string) ([]checkOutput, error) {
	given := f.given
	if len(given) == 0 {
		given = []string{"text"}
	}
	var outs []checkOutput
	bare, files := 0, map[string]bool{}
	for _, g := range given {
		name, file, hasFile := strings.Cut(g, "=")
		if hasFile && file == "" {
			return nil, &usageError{fmt.Sprintf("--format %s: the file after = is empty", g)}
		}
		if !hasFile {
			bare++
			file = output
		}
		if bare > 1 {
			return nil, &usageError{"--format: one output at most goes to standard output (or --output); give the others a file, --format sarif=results.sarif"}
		}
		if file != "" {
			if files[file] {
				return nil, &usageError{fmt.Sprintf("--format: two outputs to %s", file)}
			}
			files[file] = true
		}
		write, ok := report.Lookup(name)
		if !ok {
			return nil, &usageError{fmt.Sprintf("unknown --format %q (want one of %s)", name, strings.Join(report.Names(), ", "))}
		}
		outs = append(outs, checkOutput{name: name, file: file, write: write})
	}
	return outs, nil
}
