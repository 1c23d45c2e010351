package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// commands are the subcommands with their one-line descriptions, in the
// order the usage lists them.
var commands = []struct{ name, args, desc string }{
	{"check", "[flags] [PATH...]", "check instruction files (default: the whole worktree)"},
	{"fix", "[--dry-run] [flags] [PATH...]", "fix what check finds where the fix is safe"},
	{"preview", "[flags] [DIR]", "print what the model would see from DIR"},
	{"hook", "install|uninstall", "manage the native Git pre-commit and pre-push hooks"},
	{"rules", "[ID|NAME]", "print the rule catalogue, or one rule's explanation"},
	{"agents", "", "list the agent profiles --agent can enable, their pinned versions and options"},
	{"lsp", "[--stdio]", "run the language server for editors (stdio; docs/lsp.md)"},
	{"mcp", "[--root DIR] [--config FILE]", "run the MCP server for coding agents (stdio; docs/mcp.md)"},
	{"init", "[--force] [--root DIR]", "write .rivumi-lint.yaml with every default and print the CI snippets"},
	{"schema", "", "print the JSON Schema of .rivumi-lint.yaml"},
	{"version", "", "print the version"},
	{"completion", "bash|zsh|fish", "print a shell completion script"},
	{"help", "[COMMAND]", "print this help, or COMMAND's (as COMMAND --help)"},
}

// exitCodes is §6 in one block; every help text ends with it.
const exitCodes = `Exit codes:
  0  success (check: no finding at or above --fail-on)
  1  check: findings at or above --fail-on; fix: see "rivumi-lint fix --help"
  2  usage, config, Git or internal error
`

// checkExitCodes are check's, where 1 matters most.
const checkExitCodes = `Exit codes:
  0  no finding at or above --fail-on
  1  findings at or above --fail-on
  2  usage, config, Git or internal error
`

// hookExitCodes are hook's: install and uninstall find nothing to fail
// on, but staged is check and pre-push blocks a push on an error (#33.14:
// hook --help said 0 or 2 only).
const hookExitCodes = `Exit codes:
  0  success (staged, pre-push: no finding at or above the failure level)
  1  staged: findings at or above --fail-on; pre-push: an error finding in a pushed range
  2  usage, config, Git or internal error
`

// otherExitCodes are every other command's: they find nothing to fail on.
const otherExitCodes = `Exit codes:
  0  success
  2  usage, config, Git or internal error
`

func usageText() string {
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-40s  %s\n", strings.TrimSpace("rivumi-lint "+c.name+" "+c.args), c.desc)
	}
	b.WriteString("\nRun \"rivumi-lint COMMAND --help\" for a command's flags.\n\n")
	b.WriteString(exitCodes)
	return b.String()
}

// commandHelp is a command's --help: its usage line, its one-line
// description, the flags as the docs write them (--flag), the exit codes.
func commandHelp(w io.Writer, name string, fs *flag.FlagSet, extra string) {
	known := false
	for _, c := range commands {
		if c.name == name {
			known = true
			fmt.Fprintf(w, "usage: rivumi-lint %s %s\n\n%s.\n", c.name, c.args, upperFirst(c.desc))
		}
	}
	switch {
	case known && extra != "":
		fmt.Fprintf(w, "\n%s", extra)
	case !known:
		fmt.Fprint(w, extra) // a subcommand (hook install): extra holds its usage
	}
	if fs != nil {
		fmt.Fprint(w, "\nFlags:\n")
		printFlags(w, fs)
	}
	switch name {
	case "check":
		fmt.Fprintf(w, "\n%s", checkExitCodes)
	case "lsp":
		fmt.Fprintf(w, "\n%s", lspExitCodes)
	case "fix":
		fmt.Fprintf(w, "\n%s", fixExitCodes)
	case "hook pre-push":
		fmt.Fprintf(w, "\n%s", hookExitCodes)
	default:
		fmt.Fprintf(w, "\n%s", otherExitCodes)
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// printFlags prints fs's flags as `--name VALUE`, the form the README and
// docs use (the flag package prints `-name`).
// A short form (shortFlag) is printed beside its flag, not on its own.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		if isShort(fs, f) {
			return
		}
		arg, usage := flag.UnquoteUsage(f)
		if arg == "value" && isBool(f) {
			arg = ""
		}
		head := "  --" + f.Name
		if arg != "" {
			head += " " + arg
		}
		if s := shortOf(fs, f); s != "" {
			head += ", -" + s
			if arg != "" {
				head += " " + arg
			}
		}
		def := ""
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && !strings.Contains(usage, "default") {
			def = fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "%s\n      %s%s\n", head, usage, def)
	})
}

// shortFlag defines -short as another name of the flag long (check -f
// for --format): the two share one value.
func shortFlag(fs *flag.FlagSet, short, long string) {
	fs.Var(fs.Lookup(long).Value, short, "short for --"+long)
}

// isShort reports whether f is a short form of a longer flag of fs.
func isShort(fs *flag.FlagSet, f *flag.Flag) bool {
	return longOf(fs, f) != ""
}

// longOf is the flag f is a short form of, or "".
func longOf(fs *flag.FlagSet, f *flag.Flag) string {
	long := ""
	fs.VisitAll(func(g *flag.Flag) {
		if g != f && g.Value == f.Value && len(g.Name) > len(f.Name) {
			long = g.Name
		}
	})
	return long
}

// shortOf is the short form of f, or "".
func shortOf(fs *flag.FlagSet, f *flag.Flag) string {
	short := ""
	fs.VisitAll(func(g *flag.Flag) {
		if g != f && g.Value == f.Value && len(g.Name) < len(f.Name) {
			short = g.Name
		}
	})
	return short
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// parseFlags parses a command's arguments (parseInterleaved). It prints
// the help on standard output for -h/--help (done, exit 0), and for a
// mistake one line on standard error that says what is wrong, suggests
// the flag meant when one is close, and points at --help (done, exit 2).
func parseFlags(fs *flag.FlagSet, name string, args []string, stdout, stderr io.Writer, extra string) (pos []string, code int, done bool) {
	fs.SetOutput(io.Discard) // the flag package's own messages and usage
	fs.Usage = func() {}
	pos, err := parseInterleaved(fs, args)
	switch {
	case err == nil:
		return pos, exitOK, false
	case errors.Is(err, flag.ErrHelp):
		commandHelp(stdout, name, fs, extra)
		return nil, exitOK, true
	}
	var ue *usageError
	if errors.As(err, &ue) {
		return nil, fail(stderr, err), true
	}
	return nil, fail(stderr, &usageError{flagMistake(fs, name, args, err)}), true
}

// flagMistake rewrites the flag package's error to name the flag as the
// user typed it (--formt, -formt), with a suggestion for a mistyped flag.
func flagMistake(fs *flag.FlagSet, name string, args []string, err error) string {
	msg := err.Error()
	help := fmt.Sprintf("run \"rivumi-lint %s --help\" for the flags", name)
	if bad, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		bad = strings.TrimLeft(bad, "-")
		var names []string
		fs.VisitAll(func(f *flag.Flag) {
			if !isShort(fs, f) {
				names = append(names, f.Name)
			}
		})
		if s := suggest(bad, names); s != "" {
			return fmt.Sprintf("%s: unknown flag %s: did you mean --%s? (%s)", name, typedFlag(args, bad), s, help)
		}
		return fmt.Sprintf("%s: unknown flag %s (%s)", name, typedFlag(args, bad), help)
	}
	// "flag needs an argument: -format", "invalid value … for flag -x: …",
	// "invalid boolean value … for -x: …"
	for _, p := range []string{"flag needs an argument: -", "for flag -", "for -"} {
		i := strings.LastIndex(msg, p) // the last: a quoted value may hold one too
		if i < 0 {
			continue
		}
		start := i + len(p) - 1
		end := len(msg)
		if j := strings.IndexByte(msg[start:], ':'); j >= 0 {
			end = start + j
		}
		flagName := strings.TrimLeft(msg[start:end], "-")
		msg = msg[:start] + typedFlag(args, flagName) + msg[end:]
		break
	}
	return fmt.Sprintf("%s: %s (%s)", name, msg, help)
}

// typedFlag is the flag name as the user typed it in args, with its one or
// two dashes (-formt, --formt), or --name when it is not there.
func typedFlag(args []string, name string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		for _, dash := range []string{"--", "-"} {
			rest, ok := strings.CutPrefix(a, dash)
			if !ok {
				continue
			}
			if n, _, _ := strings.Cut(rest, "="); n == name {
				return dash + name
			}
			break
		}
	}
	return "--" + name
}

// suggest returns the option closest to word when it is close enough to be
// a typo (at most two edits, and fewer than half the word), else "".
func suggest(word string, options []string) string {
	best, bestD := "", 3
	sorted := append([]string(nil), options...)
	sort.Strings(sorted) // ties: a stable answer
	for _, o := range sorted {
		d := editDistance(strings.ToLower(word), strings.ToLower(o))
		if d < bestD && d*2 < len(o) {
			best, bestD = o, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance (insert, delete,
// replace, adjacent swap) of a and b, over bytes: flag and command names
// are ASCII.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// unknownCommand is the message for a command that does not exist, with
// the one meant when it is close.
func unknownCommand(name string) string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	if s := suggest(name, names); s != "" {
		return fmt.Sprintf("unknown command %q: did you mean %q? (run \"rivumi-lint help\" for the commands)", name, s)
	}
	return fmt.Sprintf("unknown command %q (run \"rivumi-lint help\" for the commands)", name)
}
