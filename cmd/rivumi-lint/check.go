package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/baseline"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/outfile"
	"github.com/rivumi/rivumi-lint/internal/project"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/report"
	"github.com/rivumi/rivumi-lint/internal/trace"
)

// checkHelp is check's --help beyond the flags: the scopes (§6).
const checkHelp = `PATHs are files or directories (a file is checked from its directory); none
checks the whole worktree, or inside GitHub Actions the event's change.
--staged checks the index against HEAD; --base REV [--head REV] a change.
In a change, a finding its base already has is marked ("already in HEAD"):
it fails the run unless --fail-on-new.
`

// temps records the temporary files of its outputs (env.Temps; nil: none).
func cmdCheck(args []string, stdin io.Reader, stdout, stderr io.Writer, temps *outfile.Temps) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	var (
		formats  = &formatsFlag{}
		outFile  = fs.String("output", "", "write the report to `FILE` instead of standard output")
		cfgPath  = fs.String("config", "", "config `FILE` (default: .rivumi-lint.yaml at the root)")
		failOn   = fs.String("fail-on", "error", "exit 1 on findings at or above `LEVEL`: error, warning, notice or never")
		root     = fs.String("root", "", "project root `DIR` (default: the Git worktree around the working directory)")
		user     = fs.String("user-instructions", "", "user-level instruction `FILE` to put first in every chain")
		staged   = fs.Bool("staged", false, "check what is staged: the index against HEAD, content from the index")
		base     = fs.String("base", "", "check the change from base `REV` to --head: content from the head, drift from the base")
		head     = fs.String("head", "", "the revision `REV` --base compares with (default HEAD)")
		memFile  = fs.String("memory", "", "also report corrupt lines (RL013) of the explicit memory `FILE`")
		sarifCat = fs.String("sarif-category", "", "code scanning `CATEGORY` of a sarif report (run.automationDetails), so that uploads of two categories keep apart")
		stdinAs  = fs.String("stdin-filename", "", "check standard input as the text of `PATH` (an editor's unsaved buffer); PATHs then are none or -")
		baseFile = fs.String("baseline", "", "fail only on findings not in the baseline `FILE` (--write-baseline writes it); json and sarif mark the others")
		writeBL  = fs.String("write-baseline", "", "record this run's findings in the baseline `FILE` (with --baseline: only those still in it)")
		failNew  = fs.Bool("fail-on-new", false, "with --staged or --base: fail only on findings the change brings, not on those its base (HEAD, the base revision) already has")
		quiet    = fs.Bool("quiet", false, "write no text report when there is nothing to report: no findings, no drift (the pre-commit hook's: a passing commit with nothing to report is quiet)")
		allDirs  = fs.Bool("all-directories", false, fmt.Sprintf("list every affected directory in json and sarif (default: the first %d; directories_total counts them all)", report.MaxListedDirectories))
	)
	agents := agentFlag(fs)
	fs.Var(formats, "format", "output `FORMAT`[=FILE]: "+strings.Join(report.Names(), ", ")+"; repeat it for several outputs of one run, each but one with =FILE (default text)")
	shortFlag(fs, "f", "format")
	color := colorFlags(fs)
	paths, code, done := parseFlags(fs, "check", args, stdout, stderr, checkHelp)
	if done {
		return code
	}
	profiles, err := parseAgents(*agents)
	if err != nil {
		return fail(stderr, err)
	}
	outs, err := formats.outputs(*outFile)
	if err != nil {
		return fail(stderr, err)
	}
	threshold, err := parseFailOn(*failOn)
	if err != nil {
		return fail(stderr, err)
	}
	if err := checkSARIFCategory(*sarifCat, formats.names()); err != nil {
		return fail(stderr, err)
	}
	if err := distinctFiles(outs, [2]string{"--write-baseline " + *writeBL, *writeBL}); err != nil {
		return fail(stderr, err)
	}
	var known *baseline.Baseline
	if *baseFile != "" {
		// Read before the run: a baseline that cannot be used is exit 2
		// (B5), whatever the findings.
		if known, err = baseline.Load(*baseFile); err != nil {
			return fail(stderr, err)
		}
	}
	var text []byte
	if paths, err = stdinPaths(paths, *stdinAs); err != nil {
		return fail(stderr, err)
	}
	diff, err := revisionRange(paths, *staged, *base, *head, os.Getenv)
	if err != nil {
		return fail(stderr, err)
	}
	if *failNew && !diff.Enabled() && diff.Source == "" {
		return fail(stderr, &usageError{"--fail-on-new compares with the base of a change: add --staged or --base REV " +
			"(the whole worktree has no base: record its findings with --write-baseline FILE and check with --baseline FILE)"})
	}
	// A baseline is the whole worktree's findings (B4): written from a
	// narrower scope it would drop the entries of every other directory.
	whole := diff.Kind == repo.RangeWorktree && len(paths) == 0
	if *writeBL != "" && !whole {
		return fail(stderr, &usageError{"--write-baseline records the findings of the whole worktree: drop --staged, --base, --stdin-filename and PATHs " +
			"(inside GitHub Actions a pull_request, push or merge_group event's change is the default scope: write the baseline locally or from a workflow_dispatch run)"})
	}
	if *stdinAs != "" {
		if text, err = io.ReadAll(io.LimitReader(stdin, maxStdin+1)); err != nil {
			return fail(stderr, fmt.Errorf("read standard input: %w", err))
		}
		if len(text) > maxStdin {
			return fail(stderr, fmt.Errorf("standard input is over %d bytes (256 MiB), which is no instruction file", maxStdin))
		}
	}
	trace.Mark("start") // process start, flags
	if diff.Source != "" {
		printNotes(stderr, note("%s", diff.Describe()))
	}
	opts := project.Options{Root: *root, Config: *cfgPath, UserInstructions: *user, Targets: paths, Command: "check", StdinPath: *stdinAs, StdinText: text,
		Agents: profiles, Env: agentEnv()}
	outcome, err := project.Do(project.Request{Options: opts, Scope: project.Scope{Diff: diff, Paths: paths, Typed: true, Memory: *memFile}})
	if outcome != nil {
		printNotes(stderr, outcome.Notes)
	}
	if err != nil {
		return fail(stderr, err)
	}
	outcome.Close()
	res, projectRoot := outcome.Result, outcome.Project.Root
	record := applyBaseline(res, known, *baseFile, *writeBL)
	if res.Baseline != nil && !whole {
		// Entries about directories outside the scope were not looked
		// for: none is counted as fixed (B4).
		res.Baseline.Fixed = 0
	}
	// Every output is written in full before any is put in place: a
	// failure leaves none half written.
	var opened []*output
	defer func() {
		for _, o := range opened {
			o.abort()
		}
	}()
	if *writeBL != "" {
		// Through outfile as --format's FILEs (F8): only the file named.
		f, err := temps.Create(*writeBL)
		if err != nil {
			return fail(stderr, fmt.Errorf("--write-baseline: %w", err))
		}
		out := &output{Writer: f, file: f}
		opened = append(opened, out)
		if err := baseline.Write(out, record); err != nil {
			return fail(stderr, fmt.Errorf("--write-baseline %s: %w", *writeBL, err))
		}
	}
	for _, o := range outs {
		// Known findings (B3) are not reported: nothing new is quiet.
		if *quiet && o.file == "" && (o.name == "text" || o.name == "line") && reported(res) == 0 && len(res.Drift) == 0 {
			continue
		}
		out, err := openOutput(o.file, stdout, temps)
		if err != nil {
			return fail(stderr, err)
		}
		opened = append(opened, out)
		if err := o.write(out, res, report.Options{ToolVersion: version(), Color: colorOutput(stdout, o.file, *color), Width: textWidth(stdout, o.file), AllDirectories: *allDirs, SARIFCategory: *sarifCat}); err != nil {
			return fail(stderr, fmt.Errorf("write %s report: %w", o.name, err))
		}
	}
	for _, out := range opened {
		if err := out.commit(); err != nil {
			return fail(stderr, err)
		}
	}
	trace.Mark("report")
	if *writeBL != "" {
		printNotes(stderr, note("recorded %d finding(s) in the baseline %s", len(record), *writeBL))
	}
	if res.Baseline != nil && !slices.Contains(formats.names(), "text") && !slices.Contains(formats.names(), "line") {
		printNotes(stderr, note("%s", report.BaselineLine(res.Baseline)))
	}
	code = exitFor(res, threshold, *failNew)
	// Only findings the base already has stop the run (B6): say how to
	// accept them once.
	oldOnly := code == exitFindings && onlyOld(res, threshold)
	switch {
	case code != exitFindings:
	case *staged:
		printNotes(stderr, stagedAdvice(res, threshold, projectRoot, opts, oldOnly))
	case os.Getenv("PRE_COMMIT") == "1":
		// The pre-commit framework's hook (it sets PRE_COMMIT=1), which
		// checks the files of the commit as its stash left them.
		old := ""
		if oldOnly {
			old = res.BaseLabel
		}
		printNotes(stderr, note("%s", commitBlocked(false, old)))
	}
	if oldOnly {
		printNotes(stderr, oldAdvice(res.BaseLabel, *baseFile))
		// The command alone on its line, never wrapped: pasted as it is.
		fmt.Fprintf(stderr, "    %s\n", safeLine(baselineCommand(*baseFile, *root, *cfgPath, *agents, *user, *memFile)))
	}
	return code
}

// applyBaseline compares res with the baseline given (B3) and returns the
// findings --write-baseline records (B4): every finding, or with
// --baseline too only the known ones, so the file only shrinks. Written
// alone, the new file is the run's baseline: every finding is known.
func applyBaseline(res *lint.Result, known *baseline.Baseline, name, write string) []lint.Finding {
	switch {
	case known != nil:
		known.Apply(res, name)
		return baseline.Known(res)
	case write != "":
		all := slices.Clone(res.Findings)
		baseline.Accepting(all).Apply(res, write)
		return all
	}
	return nil
}

// maxStdin bounds what check --stdin-filename reads: far above any
// max_file_bytes, so the size rule (C3) still judges the text.
const maxStdin = 256 << 20

// stdinPaths checks the PATHs against --stdin-filename: "-" means standard
// input, which needs the name of the file it stands for; with that name
// the one PATH checked is it.
func stdinPaths(paths []string, name string) ([]string, error) {
	dash := slices.Contains(paths, "-")
	switch {
	case name == "" && dash:
		return nil, &usageError{"PATH - means standard input, which check reads only with --stdin-filename PATH, the file the text stands for " +
			"(rivumi-lint check --stdin-filename AGENTS.md - < text); a file named - is ./-"}
	case name == "":
		return paths, nil
	case len(paths) > 1 || len(paths) == 1 && !dash:
		return nil, &usageError{"--stdin-filename checks standard input as one file: give no other PATH (or only -)"}
	}
	return []string{name}, nil
}

// revisionRange decides the range a check reads (§6): --staged, --base [--head],
// or, inside GitHub Actions with no explicit scope, the event's commits.
// PATHs and the diff flags exclude each other.
func revisionRange(paths []string, staged bool, base, head string, getenv func(string) string) (repo.Range, error) {
	switch {
	case staged && base != "":
		return repo.Range{}, &usageError{"--staged and --base exclude each other: --staged checks the index against HEAD, --base checks the commits from REV to --head"}
	case head != "" && base == "":
		return repo.Range{}, &usageError{"--head needs --base (the revision to compare with)"}
	case (staged || base != "") && len(paths) > 0:
		return repo.Range{}, &usageError{"PATHs cannot be combined with --staged or --base: the change decides which directories are checked"}
	case staged:
		return repo.Range{Kind: repo.RangeStaged}, nil
	case base != "":
		return repo.Range{Kind: repo.RangeCommits, Base: base, Head: head}, nil
	case len(paths) > 0:
		return repo.Range{}, nil
	}
	d, ok, err := project.GitHubScope(getenv)
	if err != nil || !ok {
		return repo.Range{}, err
	}
	return d, nil
}

// printNotes tells how the repository was read, e.g. a fall-back to the
// git binary (§10: the output must say so).
// A note that is a warning (the run checks more than the event asked) is
// shown as one, and inside GitHub Actions also as a warning annotation
// (the runner reads workflow commands on stderr too, so a report on stdout
// stays intact).
func printNotes(stderr io.Writer, notes []project.Note) {
	for _, n := range notes {
		if n.Warning {
			fmt.Fprintf(stderr, "rivumi-lint: warning: %s\n", safeLine(n.Text))
			if os.Getenv("GITHUB_ACTIONS") == "true" {
				fmt.Fprintf(stderr, "::warning title=rivumi-lint::%s\n", escapeCommand(n.Text))
			}
			continue
		}
		fmt.Fprintf(stderr, "rivumi-lint: note: %s\n", safeLine(n.Text))
	}
}

// note is an informational note of the command itself.
func note(format string, args ...any) []project.Note {
	return []project.Note{{Text: fmt.Sprintf(format, args...)}}
}

// escapeCommand escapes a workflow command's message as the runner
// unescapes it, so no text can end the command or start another.
func escapeCommand(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
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

// reported counts the findings the outputs report: all but those a
// baseline holds (B3).
func reported(r *lint.Result) int {
	n := 0
	for _, f := range r.Findings {
		if !f.Known() {
			n++
		}
	}
	return n
}

// exitFor is exit 1 when a finding reaches threshold that no baseline
// holds (B3) and, with newOnly (--fail-on-new), that the change's base
// does not have (B6).
func exitFor(r *lint.Result, threshold lint.Severity, newOnly bool) int {
	for _, f := range r.Findings {
		if blocks(&f, threshold) && !(newOnly && f.Old()) {
			return exitFindings
		}
	}
	return exitOK
}

// blocks reports whether f fails the run without --fail-on-new: it
// reaches threshold and no baseline holds it.
func blocks(f *lint.Finding, threshold lint.Severity) bool {
	return f.Severity >= threshold && !f.Known()
}

// onlyOld reports whether every finding that fails the run is one the
// change's base already has (B6).
func onlyOld(r *lint.Result, threshold lint.Severity) bool {
	n := 0
	for _, f := range r.Findings {
		if !blocks(&f, threshold) {
			continue
		}
		if !f.Old() {
			return false
		}
		n++
	}
	return n > 0
}

// checkSARIFCategory refuses a --sarif-category that no report would
// carry, and one with control characters (it is an identifier).
func checkSARIFCategory(cat string, formats []string) error {
	format := strings.Join(formats, ", ")
	if slices.Contains(formats, "sarif") {
		format = "sarif"
	}
	if cat == "" {
		return nil
	}
	if format != "sarif" {
		return &usageError{fmt.Sprintf("--sarif-category applies to --format sarif only (here --format %s): drop it or add --format sarif", format)}
	}
	if strings.IndexFunc(cat, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return &usageError{"--sarif-category holds a control character: use a name such as rivumi-lint/docs"}
	}
	return nil
}
