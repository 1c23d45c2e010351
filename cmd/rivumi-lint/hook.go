package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rivumi/rivumi-lint/hook"
	"github.com/rivumi/rivumi-lint/repo"
)

const hookUsage = `usage: rivumi-lint hook install [--force] [--root DIR]
       rivumi-lint hook uninstall [--root DIR]

install writes a Git pre-commit hook that runs "rivumi-lint check --staged"
into core.hooksPath, or the hooks directory every worktree of the
repository shares. An existing hook that rivumi-lint did not write is
replaced only with --force, which keeps it as pre-commit.rivumi-lint.bak.
uninstall removes only the hook rivumi-lint wrote, and puts that backup back.
`

func cmdHook(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "install" && args[0] != "uninstall") {
		if len(args) > 0 && isHelp(args[0]) {
			fmt.Fprintf(stdout, "%s\n%s", hookUsage, otherExitCodes)
			return exitOK
		}
		// One line that says what is missing; the usage is --help's.
		if len(args) == 0 {
			return fail(stderr, &usageError{"hook: missing subcommand: want install or uninstall (run \"rivumi-lint hook --help\")"})
		}
		if s := suggest(args[0], []string{"install", "uninstall"}); s != "" {
			return fail(stderr, &usageError{fmt.Sprintf("hook: unknown subcommand %q: did you mean %q? (run \"rivumi-lint hook --help\")", args[0], s)})
		}
		return fail(stderr, &usageError{fmt.Sprintf("hook: unknown subcommand %q: want install or uninstall (run \"rivumi-lint hook --help\")", args[0])})
	}
	sub := args[0]
	fs := flag.NewFlagSet("hook "+sub, flag.ContinueOnError)
	root := fs.String("root", "", "the worktree `DIR` (default: the Git worktree around the working directory)")
	var force *bool
	if sub == "install" {
		force = fs.Bool("force", false, "replace a pre-commit hook rivumi-lint did not write (it is kept as pre-commit"+hook.BackupSuffix+")")
	}
	rest, code, done := parseFlags(fs, "hook "+sub, args[1:], stdout, stderr, hookUsage)
	if done {
		return code
	}
	if len(rest) > 0 {
		return fail(stderr, &usageError{fmt.Sprintf("hook %s takes no arguments (got %q)", sub, strings.Join(rest, " "))})
	}
	dir := *root
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return fail(stderr, fmt.Errorf("working directory: %w", err))
		}
	}
	top, err := repo.FindRoot(dir)
	if err != nil {
		return fail(stderr, err)
	}
	o := hook.Options{Root: top}
	if sub == "install" {
		o.Force = *force
		o.Binary = hookBinary()
		out, err := hook.Install(o)
		if err != nil {
			return failHook(stderr, err)
		}
		runs := "rivumi-lint on PATH"
		if o.Binary != "" {
			runs = o.Binary + " (or rivumi-lint on PATH when that is gone)"
		}
		fmt.Fprintf(stdout, "rivumi-lint: %s pre-commit hook %s\n", out.Action, out.Hook)
		if out.Backup != "" {
			fmt.Fprintf(stdout, "rivumi-lint: kept the previous hook as %s\n", out.Backup)
		}
		fmt.Fprintf(stdout, "rivumi-lint: it runs `check --staged` with %s\n", runs)
		return exitOK
	}
	out, err := hook.Uninstall(o)
	if err != nil {
		return failHook(stderr, err)
	}
	switch out.Action {
	case "absent":
		fmt.Fprintf(stdout, "rivumi-lint: no pre-commit hook at %s; nothing to remove\n", out.Hook)
	case "restored":
		fmt.Fprintf(stdout, "rivumi-lint: removed pre-commit hook %s and restored the previous one from %s\n", out.Hook, out.Backup)
	default:
		fmt.Fprintf(stdout, "rivumi-lint: removed pre-commit hook %s\n", out.Hook)
	}
	return exitOK
}

// failHook reports a refusal as the user's to resolve (exit 2, §6).
func failHook(stderr io.Writer, err error) int {
	if errors.Is(err, hook.ErrRefused) {
		msg, _ := strings.CutPrefix(err.Error(), hook.ErrRefused.Error()+": ")
		return fail(stderr, &usageError{"hook: " + msg})
	}
	return fail(stderr, fmt.Errorf("hook: %w", err))
}

// hookBinary is the binary the hook runs: this executable's absolute path
// (symbolic links resolved), so the hook works where Git's PATH differs
// from the shell's (GUI clients, IDEs). A binary that `go run` or `go test`
// built into a temporary directory would vanish, so then "" (rivumi-lint on
// PATH).
func hookBinary() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	if !filepath.IsAbs(exe) {
		return ""
	}
	tmp := os.TempDir()
	if r, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = r
	}
	if rel, err := filepath.Rel(tmp, exe); err == nil && !strings.HasPrefix(rel, "..") &&
		strings.Contains(filepath.ToSlash(rel), "go-build") {
		return ""
	}
	return exe
}
