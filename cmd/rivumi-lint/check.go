package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rivumi/rivumi-lint/lint"
	"github.com/rivumi/rivumi-lint/project"
	"github.com/rivumi/rivumi-lint/report"
)

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		format  = fs.String("format", "text", "output `FORMAT`: "+strings.Join(report.Names(), ", "))
		output  = fs.String("output", "", "write the report to `FILE` instead of standard output")
		cfgPath = fs.String("config", "", "config `FILE` (default: .rivumi-lint.yaml at the root)")
		failOn  = fs.String("fail-on", "error", "exit 1 on findings at or above `LEVEL`: error, warning, notice or never")
		root    = fs.String("root", "", "project root `DIR` (default: the Git worktree around the working directory)")
		user    = fs.String("user-instructions", "", "user-level instruction `FILE` to put first in every chain")
		noColor = fs.Bool("no-color", false, "no colour in text output (NO_COLOR is honoured too)")
	)
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: rivumi-lint check [flags] [PATH...]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	paths, err := parseInterleaved(fs, args)
	if err == flag.ErrHelp {
		return exitOK
	}
	if err != nil {
		return exitError
	}
	write, ok := report.Lookup(*format)
	if !ok {
		return fail(stderr, &usageError{fmt.Sprintf("unknown --format %q (want one of %s)", *format, strings.Join(report.Names(), ", "))})
	}
	threshold, err := parseFailOn(*failOn)
	if err != nil {
		return fail(stderr, err)
	}
	p, err := project.Open(project.Options{Root: *root, Config: *cfgPath, UserInstructions: *user})
	if err != nil {
		return fail(stderr, err)
	}
	defer p.Close()
	for _, n := range p.Notes {
		fmt.Fprintf(stderr, "rivumi-lint: note: %s\n", n)
	}
	res, err := p.Check(paths)
	if err != nil {
		return fail(stderr, err)
	}
	out := stdout
	color := false
	if *output != "" {
		f, err := os.Create(*output)
		if err != nil {
			return fail(stderr, fmt.Errorf("--output: %w", err))
		}
		defer f.Close()
		out = f
	} else {
		color = !*noColor && os.Getenv("NO_COLOR") == "" && isTerminal(stdout)
	}
	if err := write(out, res, report.Options{ToolVersion: version(), Color: color}); err != nil {
		return fail(stderr, fmt.Errorf("write report: %w", err))
	}
	if c, ok := out.(*os.File); ok && c != os.Stdout {
		if err := c.Close(); err != nil {
			return fail(stderr, fmt.Errorf("--output: %w", err))
		}
	}
	return exitFor(res, threshold)
}

// parseFailOn maps --fail-on to the lowest severity that fails the run;
// "never" is above every severity.
func parseFailOn(s string) (lint.Severity, error) {
	if s == "never" {
		return lint.Error + 1, nil
	}
	v, err := lint.ParseSeverity(s)
	if err != nil || v == lint.Off {
		return 0, &usageError{fmt.Sprintf("unknown --fail-on %q (want error, warning, notice or never)", s)}
	}
	return v, nil
}

func exitFor(r *lint.Result, threshold lint.Severity) int {
	for _, f := range r.Findings {
		if f.Severity >= threshold {
			return exitFindings
		}
	}
	return exitOK
}
