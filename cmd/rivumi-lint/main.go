// Command rivumi-lint checks the instruction files a Rivumi agent loads.
// This file only parses arguments and maps outcomes to exit codes (§6):
// 0 nothing at or above --fail-on, 1 findings at or above it, 2 usage,
// config, Git or internal errors.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/rivumi/rivumi-lint/internal/outfile"
	"github.com/rivumi/rivumi-lint/internal/report"
	"github.com/rivumi/rivumi-lint/internal/trace"
)

const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

func main() {
	stop := trace.Profile() // RIVUMI_LINT_CPUPROFILE, RIVUMI_LINT_MEMPROFILE
	tuneGC(os.Args[1:])
	code := run(os.Args[1:], processEnv())
	stop()
	trace.Done() // RIVUMI_LINT_TRACE: total time and peak RSS
	os.Exit(code)
}

// env is what one run of the command reads and writes besides its
// arguments. main passes the process's (processEnv); a test sets the fields
// it needs, so in-process runs share no package variable and may run in
// parallel.
type env struct {
	Stdin          io.Reader // check --stdin-filename, lsp, hook pre-push; nil: empty
	Stdout, Stderr io.Writer
	// Version is the version init's snippets pin; nil: version.
	Version func() string
	// WatchContext is the context of `preview --watch`, whose end ends the
	// watch with exit 0 (P6); nil: signalContext.
	WatchContext func() (context.Context, context.CancelFunc)
	// Temps records the temporary files beside the targets of check, fix
	// and init; while one of them runs, SIGINT or SIGTERM removes those
	// files before the process ends (removeOnSignal, #38.4). nil: no
	// handler, as for in-process tests, whose own signals must not end
	// the test binary.
	Temps *outfile.Temps
}

// processEnv is the process's standard streams, version and signals.
func processEnv() env {
	return env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Temps: &outfile.Temps{}}
}

// signalContext is done on SIGINT or SIGTERM.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func run(args []string, e env) (code int) {
	stdin, stdout, stderr := e.Stdin, e.Stdout, e.Stderr
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	if e.Version == nil {
		e.Version = version
	}
	if e.WatchContext == nil {
		e.WatchContext = signalContext
	}
	defer func() {
		// Never exit 0 on an internal error (§6).
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "rivumi-lint: internal error: %s\n", safeLine(fmt.Sprint(r)))
			code = exitError
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText())
		return exitError
	}
	switch args[0] {
	case "check":
		defer removeOnSignal(e.Temps)()
		return cmdCheck(args[1:], stdin, stdout, stderr, e.Temps)
	case "fix":
		defer removeOnSignal(e.Temps)()
		return cmdFix(args[1:], stdout, stderr, e.Temps)
	case "preview":
		return cmdPreview(args[1:], e.WatchContext, stdout, stderr, e.Temps)
	case "hook":
		return cmdHook(args[1:], stdin, stdout, stderr)
	case "rules":
		return cmdRules(args[1:], stdout, stderr)
	case "agents":
		return cmdAgents(args[1:], stdout, stderr)
	case "completion":
		return cmdCompletion(args[1:], stdout, stderr)
	case "lsp":
		return cmdLsp(args[1:], stdin, stdout, stderr)
	case "mcp":
		return cmdMCP(args[1:], stdin, stdout, stderr)
	case "init":
		defer removeOnSignal(e.Temps)()
		return cmdInit(args[1:], e.Version, stdout, stderr, e.Temps)
	case "schema":
		return cmdSchema(args[1:], stdout, stderr)
	case "version", "--version":
		if len(args) > 1 && isHelp(args[1]) {
			commandHelp(stdout, "version", nil, "")
			return exitOK
		}
		return cmdVersion(stdout)
	case "help", "-h", "--help":
		if args[0] == "help" && len(args) > 1 && !isHelp(args[1]) {
			// help CMD [SUB] is CMD [SUB] --help, byte for byte.
			return run(append(append([]string(nil), args[1:]...), "--help"), e)
		}
		fmt.Fprint(stdout, usageText())
		return exitOK
	}
	return fail(stderr, &usageError{unknownCommand(args[0])})
}

// parseInterleaved parses flags that may come after positional arguments
// (`check a/AGENTS.md --format json`), as users of linters expect; "--"
// ends the flags.
//
// An argument that looks like a flag but names an existing file is refused
// (exit 2): pre-commit passes the changed files' names after the flags, so a
// file named "--fail-on=never" or "--output=AGENTS.md" in a change would
// otherwise turn off the check or overwrite a file (§10, R10). File names
// after "--" are never flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) > 1 && a[0] == '-' {
			if _, err := os.Lstat(a); err == nil {
				msg := fmt.Sprintf("argument %s is a flag and also an existing file: put file names after \"--\" "+
					"(rivumi-lint %s [flags] -- FILE...), or rename the file", strconv.Quote(a), fs.Name())
				return nil, &usageError{msg}
			}
		}
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// usageError marks errors that are the user's to fix in the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func isHelp(a string) bool { return a == "-h" || a == "--help" || a == "-help" || a == "help" }

func fail(stderr io.Writer, err error) int {
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "rivumi-lint: %s\n", safeLine(ue.msg))
		return exitError
	}
	fmt.Fprintf(stderr, "rivumi-lint: %s\n", safeLine(err.Error()))
	return exitError
}

// safeLine keeps a message on standard error one line that cannot issue a
// GitHub Actions workflow command (report.SafeLine): messages name files.
func safeLine(s string) string { return report.SafeLine(s) }
