package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/project"
	"github.com/rivumi/rivumi-lint/internal/shell"
)

// stagedAdvice is what a failing `check --staged` (the pre-commit hook)
// says to do next (issue #26): for each failing file whose worktree copy
// no longer has the finding, that it is fixed but not staged; then the
// way through: fix, git add, commit again, or skip the check once. The
// worktree copies are checked with a second, worktree-mode run over those
// files only; when that run fails, the advice goes without it.
func stagedAdvice(res *lint.Result, threshold lint.Severity, root string, opts project.Options, oldOnly bool) []project.Note {
	type key struct{ rule, path string }
	rules := map[string][]string{} // failing file → its failing rules
	var paths []string
	for _, f := range res.Findings {
		if f.Severity < threshold || f.User || f.Known() {
			continue
		}
		if _, ok := rules[f.Path]; !ok {
			paths = append(paths, f.Path)
		}
		rules[f.Path] = append(rules[f.Path], f.Rule)
	}
	// Only files that exist in the worktree can be fixed there.
	var abs []string
	for _, p := range paths {
		a := filepath.Join(root, filepath.FromSlash(p))
		if _, err := os.Lstat(a); err == nil {
			abs = append(abs, a)
		}
	}
	var notes []project.Note
	unstaged := 0
	if len(abs) > 0 {
		opts.Root, opts.Targets, opts.StdinPath, opts.StdinText = root, abs, "", nil
		if wt, _, err := project.Check(opts, project.Scope{Paths: abs}); err == nil {
			still := map[key]bool{}
			for _, f := range wt.Findings {
				// A link replaced by a regular file is fixed in the
				// worktree, although the worktree run reports it from
				// the index's mode until it is staged (#33.8).
				if !f.Repair.Unstaged {
					still[key{f.Rule, f.Path}] = true
				}
			}
			// Only a file the worktree run read as a layer candidate can
			// be fixed there: one a checkout cannot hold (a name Windows
			// refuses) is not there at all.
			read := map[string]bool{}
			for _, d := range wt.Directories {
				for _, l := range d.Layers {
					read[l.Path] = true
				}
			}
			for _, p := range paths {
				fixed := read[p] && !slices.ContainsFunc(rules[p], func(r string) bool { return still[key{r, p}] })
				if fixed {
					notes = append(notes, note("%s: fixed in the worktree, not staged: `git add %s`", p, shell.Path(p))...)
					unstaged++
				}
			}
		}
	}
	old := ""
	if oldOnly {
		old = res.BaseLabel
	}
	return append(notes, note("%s", commitBlocked(unstaged == len(paths), old))...)
}

// commitBlocked is the way through a commit the check stops: fix, git add,
// commit again, or skip the check once; onlyAdd when every failing file
// is fixed in the worktree and needs only adding; old, when not "", the
// base (HEAD) that already has every failing finding (B6), which
// oldAdvice, after it, says how to record.
func commitBlocked(onlyAdd bool, old string) string {
	next := "fix the findings above (`rivumi-lint fix PATH` repairs some), `git add` the files, and commit again"
	switch {
	case onlyAdd:
		next = "`git add` the fixed files and commit again"
	case old != "":
		return "the commit is blocked only by findings already in " + old + ", which it did not bring: fix them, or record them once in a baseline (below); " +
			"`git commit --no-verify` skips this check once"
	}
	return "the commit is blocked: " + next + "; `git commit --no-verify` skips this check once"
}

// defaultBaseline is the baseline file the advice names when none is
// given (docs/baseline.md's).
const defaultBaseline = ".rivumi-baseline.json"

// oldAdvice is what a run says when every finding that fails it is one
// the change's base already has (B6): record them once in a baseline,
// then check with it, or fail only on what a change brings. The command
// follows on a line of its own (baselineCommand).
func oldAdvice(base, baseFile string) []project.Note {
	file := shell.Path(baseFile)
	then := "keep checking with --baseline " + file
	if baseFile == "" {
		file = defaultBaseline
		then = "check with --baseline " + file
	}
	return note("every finding that fails this run is already in %s: this change did not bring them. Record them once in a baseline with the command below, run at the root, "+
		"and commit the file; then %s (pre-commit: `args: [--baseline, %s]`), or pass --fail-on-new to fail only on what a change brings", base, then, file)
}

// baselineCommand is `rivumi-lint check --write-baseline FILE` with the
// flags of this run that change its findings or their identities (B2:
// the config, the agent profiles, the user layer, the memory file): the
// whole worktree's findings, as the run would judge them, recorded.
func baselineCommand(baseFile, root, config, agents, user, memory string) string {
	if baseFile == "" {
		baseFile = defaultBaseline
	}
	args := []string{"rivumi-lint", "check"}
	for _, f := range [][2]string{{"--root", root}, {"--config", config}, {"--agent", agents}, {"--user-instructions", user}, {"--memory", memory}} {
		if f[1] != "" {
			args = append(args, f[0], shell.Path(f[1]))
		}
	}
	return strings.Join(append(args, "--write-baseline", shell.Path(baseFile)), " ")
}
