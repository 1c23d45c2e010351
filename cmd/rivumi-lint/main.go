// Command rivumi-lint checks the instruction files a Rivumi agent loads.
// This file only parses arguments and maps outcomes to exit codes (§6):
// 0 nothing at or above --fail-on, 1 findings at or above it, 2 usage,
// config, Git or internal errors.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

const usage = `usage:
  rivumi-lint check [flags] [PATH...]   check instruction files (default: the whole worktree)
  rivumi-lint preview [flags] [DIR]     print what the model would see from DIR
  rivumi-lint hook install|uninstall    manage the native Git pre-commit hook
  rivumi-lint rules [ID]                print the rule catalogue, or one rule's explanation
  rivumi-lint version                   print the version

Run "rivumi-lint check -h" for the flags of check.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		// Never exit 0 on an internal error (§6).
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "rivumi-lint: internal error: %v\n", r)
			code = exitError
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitError
	}
	switch args[0] {
	case "check":
		return cmdCheck(args[1:], stdout, stderr)
	case "preview":
		return cmdPreview(args[1:], stdout, stderr)
	case "hook":
		return cmdHook(args[1:], stdout, stderr)
	case "rules":
		return cmdRules(args[1:], stdout, stderr)
	case "version", "--version":
		return cmdVersion(stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "rivumi-lint: unknown command %q\n%s", args[0], usage)
	return exitError
}

// parseInterleaved parses flags that may come after positional arguments
// (`check a/AGENTS.md --format json`), as users of linters expect; "--"
// ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
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

func fail(stderr io.Writer, err error) int {
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "rivumi-lint: %s\n", ue.msg)
		return exitError
	}
	fmt.Fprintf(stderr, "rivumi-lint: %v\n", err)
	return exitError
}
