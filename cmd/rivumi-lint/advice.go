package main

import (
	"os"
	"path/filepath"
	"slices"

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
func stagedAdvice(res *lint.Result, threshold lint.Severity, root string, opts project.Options) []project.Note {
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
	return append(notes, note("%s", commitBlocked(unstaged == len(paths)))...)
}

// commitBlocked is the way through a commit the check stops: fix, git add,
// commit again, or skip the check once; onlyAdd when every failing file
// is fixed in the worktree and needs only adding.
func commitBlocked(onlyAdd bool) string {
	next := "fix the findings above (`rivumi-lint fix PATH` repairs some), `git add` the files, and commit again"
	if onlyAdd {
		next = "`git add` the fixed files and commit again"
	}
	return "the commit is blocked: " + next + "; `git commit --no-verify` skips this check once"
}
