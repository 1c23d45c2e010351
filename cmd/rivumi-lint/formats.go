package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/outfile"
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
	flag  string // how the file was given, for messages: --format json=FILE, --output FILE
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
// goes to output (--output) or standard output. distinctFiles then checks
// that no file is named twice.
func (f *formatsFlag) outputs(output string) ([]checkOutput, error) {
	given := f.given
	if len(given) == 0 {
		given = []string{"text"}
	}
	var outs []checkOutput
	bare := 0
	for _, g := range given {
		name, file, hasFile := strings.Cut(g, "=")
		if hasFile && file == "" {
			return nil, &usageError{fmt.Sprintf("--format %s: the file after = is empty", g)}
		}
		flag := "--format " + g
		if !hasFile {
			bare++
			file = output
			flag = "--output " + output
		}
		if bare > 1 {
			return nil, &usageError{"--format: one output at most goes to standard output (or --output); give the others a file, --format sarif=results.sarif"}
		}
		write, ok := report.Lookup(name)
		if !ok {
			return nil, &usageError{fmt.Sprintf("unknown --format %q (want one of %s)", name, strings.Join(report.Names(), ", "))}
		}
		outs = append(outs, checkOutput{name: name, file: file, flag: flag, write: write})
	}
	return outs, nil
}

// distinctFiles refuses two of a run's files that are one file in two
// spellings (json=out.json and sarif=./out.json, an absolute path,
// a/../out.json, --output beside --format, a linked directory): each is
// renamed into place, and the second would silently replace the first
// (#38.3). extra are other files the run writes (--write-baseline), each
// as its flag and file.
func distinctFiles(outs []checkOutput, extra ...[2]string) error {
	type given struct{ flag, file string }
	var all []given
	for _, o := range outs {
		if o.file != "" {
			all = append(all, given{o.flag, o.file})
		}
	}
	for _, e := range extra {
		if e[1] != "" {
			all = append(all, given{e[0], e[1]})
		}
	}
	seen := map[string]given{}
	for _, g := range all {
		k := outfile.Resolve(g.file)
		if first, ok := seen[k]; ok {
			same := ""
			if first.file != g.file {
				same = " (" + k + ")"
			}
			return &usageError{fmt.Sprintf("%s and %s name one file%s, and one report would replace the other: give each output a file of its own", first.flag, g.flag, same)}
		}
		seen[k] = g
	}
	return nil
}
