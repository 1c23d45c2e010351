package fix

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/repo"
)

// Staging a swap of a tracked link (X1). check trusts the index's mode
// 120000 (C1), so a swap made in the worktree only leaves RL001 in place
// until it is staged. fix stages it itself — like the git mv of a rename —
// but only when staging can add nothing but the swap: both paths are in
// the index without flags, the worktree matches the index and the index
// matches HEAD. Otherwise the user's own changes would be staged along
// with it, so fix leaves the index alone and prints the git add line.

// swapClean returns "" when both root-relative paths are clean in that
// sense, or what is not (for the line that tells the user to stage).
func (pl *planner) swapClean(link, target string) (string, error) {
	a, b := pl.topRel(link), pl.topRel(target)
	// -v tags each entry: H is a plain cached entry; S (skip-worktree),
	// lower case (assume-unchanged) and M (unmerged) mean the worktree
	// is not compared or the entry is not one blob.
	out, err := repo.GitCommand(pl.gitTop, pl.gitDir, "--literal-pathspecs", "ls-files", "-v", "-z", "--full-name", "--", a, b).Output()
	if err != nil {
		return "", fmt.Errorf("git ls-files %s %s: %w", link, target, gitErr(err))
	}
	tags := map[string]string{}
	for _, e := range bytes.Split(out, []byte{0}) {
		if len(e) > 2 {
			p := string(e[2:])
			if t, ok := tags[p]; !ok || t == "H" {
				tags[p] = string(e[:1])
			}
		}
	}
	for _, p := range []struct{ top, rel string }{{a, link}, {b, target}} {
		switch t := tags[p.top]; {
		case t == "":
			return p.rel + " is not in Git's index", nil
		case t == "M":
			return p.rel + " has a merge conflict", nil
		case t == "S":
			return p.rel + " is marked skip-worktree", nil
		case t != "H":
			return p.rel + " is marked assume-unchanged", nil
		}
	}
	// One status answers both questions: X (index against HEAD; an unborn
	// HEAD shows every entry as added) and Y (worktree against index).
	out, err = repo.GitCommand(pl.gitTop, pl.gitDir, "--literal-pathspecs", "status", "--porcelain=v1", "-z", "--no-renames",
		"--untracked-files=no", "--ignore-submodules=none", "--", a, b).Output()
	if err != nil {
		return "", fmt.Errorf("git status %s %s: %w", link, target, gitErr(err))
	}
	for _, e := range bytes.Split(out, []byte{0}) {
		if len(e) < 4 {
			continue
		}
		rel := link
		if string(e[3:]) == b {
			rel = target
		}
		if e[0] != ' ' {
			return rel + " has staged changes that are not committed", nil
		}
		return rel + " has changes that are not staged", nil
	}
	return "", nil
}

// stage records the swap in the index (git add of both paths).
func (pl *planner) stage(link, target string) error {
	cmd := repo.GitCommand(pl.gitTop, pl.gitDir, "--literal-pathspecs", "add", "--", pl.topRel(link), pl.topRel(target))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git add: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// indexFree returns an error when Git's index is locked (index.lock
// exists: another git is running, or one crashed). Asked before the swap,
// so that a lock leaves nothing half done: neither the worktree nor the
// index changes (X1). A lock taken after this check makes git add fail,
// and the line then says to stage by hand.
func (pl *planner) indexFree() error {
	lock, locked, err := repo.IndexLocked(pl.gitTop, pl.gitDir)
	if err != nil {
		return fmt.Errorf("look for Git's index lock: %w", err)
	}
	if locked {
		return fmt.Errorf("the index is locked (%s exists), so the swap could not be staged; nothing was changed: wait for the other git command to finish, or remove the file if no git is running, and run fix again", lock)
	}
	return nil
}
