package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/hook"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/project"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/report"
	"github.com/rivumi/rivumi-lint/internal/rootpath"
)

const hookUsage = `usage: rivumi-lint hook install [--pre-push] [--force] [--root DIR]
       rivumi-lint hook uninstall [--pre-push] [--root DIR]
       rivumi-lint hook staged [check flags]
       rivumi-lint hook pre-push [--color WHEN] REMOTE [URL] < refs

install writes a Git pre-commit hook that runs "rivumi-lint check --staged"
(with --pre-push: a pre-push hook that checks each pushed range of commits)
into core.hooksPath, or the hooks directory every worktree of the
repository shares. An existing hook that rivumi-lint did not write is
replaced only with --force, which keeps it as pre-commit.rivumi-lint.bak
(pre-push.rivumi-lint.bak). uninstall removes only the hook rivumi-lint
wrote, and puts that backup back.

staged is the pre-commit framework's rivumi-lint-staged hook: it checks
PRE_COMMIT_FROM_REF..PRE_COMMIT_TO_REF when pre-commit sets both (the
pre-push stage, pre-commit run --from-ref A --to-ref B), else the index
against HEAD (check --staged).

pre-push is what the pre-push hook runs: it reads Git's lines
"<local ref> <local sha> <remote ref> <remote sha>" and checks each pushed
range; a new branch or tag from its merge base with the remote's default
branch (a tag of a commit already there checks nothing; a branch with no
history in common, an orphan, checks every directory); a deletion is
skipped.
`

func cmdHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "staged":
			return cmdHookStaged(args[1:], stdin, stdout, stderr)
		case "pre-push":
			return cmdHookPrePush(args[1:], stdin, stdout, stderr)
		}
	}
	if len(args) == 0 || (args[0] != "install" && args[0] != "uninstall") {
		if len(args) > 0 && isHelp(args[0]) {
			fmt.Fprintf(stdout, "%s\n%s", hookUsage, hookExitCodes)
			return exitOK
		}
		// One line that says what is missing; the usage is --help's.
		if len(args) == 0 {
			return fail(stderr, &usageError{"hook: missing subcommand: want install or uninstall (run \"rivumi-lint hook --help\")"})
		}
		if s := suggest(args[0], []string{"install", "uninstall", "staged", "pre-push"}); s != "" {
			return fail(stderr, &usageError{fmt.Sprintf("hook: unknown subcommand %q: did you mean %q? (run \"rivumi-lint hook --help\")", args[0], s)})
		}
		return fail(stderr, &usageError{fmt.Sprintf("hook: unknown subcommand %q: want install or uninstall (run \"rivumi-lint hook --help\")", args[0])})
	}
	sub := args[0]
	fs := flag.NewFlagSet("hook "+sub, flag.ContinueOnError)
	root := fs.String("root", "", "the worktree `DIR` (default: the Git worktree around the working directory)")
	prePush := fs.Bool("pre-push", false, "the pre-push hook (checks each pushed range) instead of the pre-commit hook")
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
		if dir, err = rootpath.Getwd(); err != nil {
			return fail(stderr, fmt.Errorf("working directory: %w", err))
		}
	}
	top, err := repo.FindRoot(dir)
	if err != nil {
		return fail(stderr, err)
	}
	o := hook.Options{Root: top}
	kind := hook.HookName
	if *prePush {
		o.Kind, kind = hook.PrePush, hook.PrePush
	}
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
		fmt.Fprintf(stdout, "rivumi-lint: %s %s hook %s\n", out.Action, kind, out.Hook)
		if out.Backup != "" {
			fmt.Fprintf(stdout, "rivumi-lint: kept the previous hook as %s\n", out.Backup)
		}
		what := "`check --staged`"
		if *prePush {
			what = "`hook pre-push` (each pushed range)"
		}
		fmt.Fprintf(stdout, "rivumi-lint: it runs %s with %s\n", what, runs)
		return exitOK
	}
	out, err := hook.Uninstall(o)
	if err != nil {
		return failHook(stderr, err)
	}
	switch out.Action {
	case "absent":
		fmt.Fprintf(stdout, "rivumi-lint: no %s hook at %s; nothing to remove\n", kind, out.Hook)
	case "restored":
		fmt.Fprintf(stdout, "rivumi-lint: removed %s hook %s and restored the previous one from %s\n", kind, out.Hook, out.Backup)
	default:
		fmt.Fprintf(stdout, "rivumi-lint: removed %s hook %s\n", kind, out.Hook)
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
	if rel, ok := rootpath.Within(tmp, exe); ok && strings.Contains(rel, "go-build") {
		return ""
	}
	return exe
}

// cmdHookStaged is the rivumi-lint-staged hook of the pre-commit framework
// (§11's events table, the pre-commit rows): pre-commit exports
// PRE_COMMIT_FROM_REF and PRE_COMMIT_TO_REF in the pre-push stage and for
// `pre-commit run --from-ref A --to-ref B`; then that range is checked,
// else what is staged.
func cmdHookStaged(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	from, to := os.Getenv("PRE_COMMIT_FROM_REF"), os.Getenv("PRE_COMMIT_TO_REF")
	if from != "" && to != "" {
		printNotes(stderr, note("pre-commit --from-ref/--to-ref: checking the change from %s to %s", from, to))
		// In the pre-push stage TO is the pushed sha, which for an
		// annotated tag is the tag object: check its commit.
		if wd, err := rootpath.Getwd(); err == nil {
			if top, err := repo.FindRoot(wd); err == nil {
				from, to = peeled(top, from), peeled(top, to)
			}
		}
		return cmdCheck(append([]string{"--base", from, "--head", to}, args...), stdin, stdout, stderr, nil)
	}
	if remote := os.Getenv("PRE_COMMIT_REMOTE_NAME"); remote != "" {
		// The pre-push stage without a range: pre-commit runs the hooks
		// with --all-files when the pushed commits reach a root commit (an
		// orphan branch). Say plainly that the index, not the push, is
		// checked.
		printNotes(stderr, []project.Note{{Warning: true, Text: fmt.Sprintf("pre-commit pre-push to %s without PRE_COMMIT_FROM_REF/PRE_COMMIT_TO_REF (pre-commit gives no range when the pushed commits reach a root commit, as an orphan branch's do): checking the index against HEAD, not the pushed commits; the native pre-push hook (rivumi-lint hook install --pre-push) checks every directory of such a push", remote)}})
	}
	return cmdCheck(append([]string{"--staged"}, args...), stdin, stdout, stderr, nil)
}

// peeled is rev's commit when rev names an annotated tag (or any object
// that peels to a commit) in the repository at top, else rev as given, so
// that check reports what is wrong with it.
func peeled(top, rev string) string {
	if c, ok, _, err := hook.PeelCommit(top, rev); err == nil && ok {
		if _, full := repo.ParseHash(rev); full {
			return c
		}
	}
	return rev
}

// cmdHookPrePush checks each range a push sends (githooks(5) pre-push:
// arguments REMOTE and URL, one line per ref on stdin). A deletion is
// skipped; a new branch is checked from its merge base with the remote's
// default branch; otherwise remote sha..local sha. The exit status is the
// worst of the ranges'.
func cmdHookPrePush(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hook pre-push", flag.ContinueOnError)
	color := colorFlags(fs)
	args, c, done := parseFlags(fs, "hook pre-push", args, stdout, stderr, hookUsage)
	if done {
		return c
	}
	if len(args) == 0 || len(args) > 2 {
		return fail(stderr, &usageError{"hook pre-push: want REMOTE [URL] (Git's pre-push arguments) and Git's ref lines on stdin"})
	}
	remote := args[0]
	pushes, err := hook.ReadPushes(stdin)
	if err != nil {
		return fail(stderr, fmt.Errorf("hook pre-push: %w", err))
	}
	wd, err := rootpath.Getwd()
	if err != nil {
		return fail(stderr, fmt.Errorf("working directory: %w", err))
	}
	top, err := repo.FindRoot(wd)
	if err != nil {
		return fail(stderr, err)
	}
	def := hook.RemoteDefault(top, remote)
	noDefault := ""
	if def == "" {
		noDefault = hook.NoDefault(top, remote)
	}
	code := exitOK
	// Each range's check may say the same of the repository (the index,
	// a setting): once is enough (#33.9).
	said := map[project.Note]bool{}
	once := func(notes []project.Note) []project.Note {
		var out []project.Note
		for _, n := range notes {
			if !said[n] {
				said[n] = true
				out = append(out, n)
			}
		}
		return out
	}
	for _, p := range pushes {
		kind := p.Kind()
		if p.Deletion() {
			printNotes(stderr, note("pre-push: the %s %s is deleted; nothing to check", kind, p.RemoteRef))
			continue
		}
		src := "pre-push of " + p.LocalRef + " to " + remote + " " + p.RemoteRef
		// A pushed annotated tag's sha is the tag object: its commit is
		// what holds instruction files.
		head, ok, what, err := hook.PeelCommit(top, p.LocalSHA)
		if err != nil {
			return fail(stderr, fmt.Errorf("hook pre-push: %s: %w", src, err))
		}
		if !ok {
			printNotes(stderr, note("%s: the %s names a %s %s, not a commit: no instruction files to check", src, kind, what, p.LocalSHA))
			continue
		}
		d := repo.Range{Head: head, DefaultBranch: def, Remote: remote, LocalHead: true, Source: src, NoDefault: noDefault}
		if p.NewBranch() {
			d.Kind, d.Created = repo.RangeNewBranch, "a new "+kind
		} else {
			d.Kind, d.Base = repo.RangeCommits, p.RemoteSHA
			// The remote's old tag object, when this clone holds it: its
			// commit. One it lacks stays as it is, and the check falls back
			// to the merge base with the default branch.
			if c, ok, _, err := hook.PeelCommit(top, p.RemoteSHA); err == nil && ok {
				d.Base = c
			}
		}
		if !p.NewBranch() || def != "" {
			// A new branch with no default branch known: the check's own
			// warning says what it checks and why, once (#33.9).
			printNotes(stderr, note("%s", d.Describe()))
		}
		res, notes, err := project.Check(project.Options{Root: top, Env: agentEnv()}, project.Scope{Diff: d})
		printNotes(stderr, once(notes))
		if err != nil {
			return fail(stderr, err)
		}
		write, _ := report.Lookup("text")
		if err := write(stdout, res, report.Options{ToolVersion: version(), Color: colorOutput(stdout, "", *color), Width: textWidth(stdout, "")}); err != nil {
			return fail(stderr, fmt.Errorf("write report: %w", err))
		}
		if c := exitFor(res, lint.Error, false); c > code {
			code = c
		}
	}
	if code == exitFindings {
		// Issue #26 for the push: the way through, and the way around.
		printNotes(stderr, note("the push is blocked: fix the findings above (`rivumi-lint fix PATH` repairs some), commit, and push again; `git push --no-verify` skips this check once"))
	}
	return code
}
