package fix

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/repo"
)

// Staging a swap of a tracked link, or its copy (X1). check trusts the
// index's mode 120000 (C1), so a swap or copy made in the worktree only
// leaves RL001 in place until it is staged. fix stages it itself — like
// the git mv of a rename — but only when staging can add nothing but the
// fix: the paths it writes (both of a swap, the link of a copy) are in
// the index without flags, the worktree matches the index and the index
// matches HEAD. Otherwise the user's own changes would be staged along
// with it, so fix leaves the index alone and prints the git add line.

// stageable reports whether the write of tracked change c, to paths,
// may be staged (swapClean, then the index lock), asked before the write;
// when it may not, c.unstaged says why.
func (pl *planner) stageable(c *change, paths ...string) (bool, error) {
	if !c.tracked {
		return false, nil
	}
	why, err := pl.swapClean(paths...)
	if err != nil {
		return false, err
	}
	c.unstaged = why
	if why != "" {
		return false, nil
	}
	return true, pl.indexFree()
}

// swapClean returns "" when every root-relative path is clean in that
// sense, or what is not (for the line that tells the user to stage).
func (pl *planner) swapClean(paths ...string) (string, error) {
	tops := make([]string, len(paths))
	for i, p := range paths {
		tops[i] = pl.topRel(p)
	}
	// -v tags each entry: H is a plain cached entry; S (skip-worktree),
	// lower case (assume-unchanged) and M (unmerged) mean the worktree
	// is not compared or the entry is not one blob.
	out, err := repo.GitCommand(pl.gitTop, pl.gitDir, append([]string{"--literal-pathspecs", "ls-files", "-v", "-z", "--full-name", "--"}, tops...)...).Output()
	if err != nil {
		return "", fmt.Errorf("git ls-files %s: %w", strings.Join(paths, " "), gitErr(err))
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
	for i, top := range tops {
		switch t := tags[top]; {
		case t == "":
			return paths[i] + " is not in Git's index", nil
		case t == "M":
			return paths[i] + " has a merge conflict", nil
		case t == "S":
			return paths[i] + " is marked skip-worktree", nil
		case t != "H":
			return paths[i] + " is marked assume-unchanged", nil
		}
	}
	// One status answers both questions: X (index against HEAD; an unborn
	// HEAD shows every entry as added) and Y (worktree against index).
	out, err = repo.GitCommand(pl.gitTop, pl.gitDir, append([]string{"--literal-pathspecs", "status", "--porcelain=v1", "-z", "--no-renames",
		"--untracked-files=no", "--ignore-submodules=none", "--"}, tops...)...).Output()
	if err != nil {
		return "", fmt.Errorf("git status %s: %w", strings.Join(paths, " "), gitErr(err))
	}
	for _, e := range bytes.Split(out, []byte{0}) {
		if len(e) < 4 {
			continue
		}
		rel := paths[0]
		if i := slices.Index(tops, string(e[3:])); i >= 0 {
			rel = paths[i]
		}
		if e[0] != ' ' {
			return rel + " has staged changes that are not committed", nil
		}
		return rel + " has changes that are not staged", nil
	}
	return "", nil
}

// stage records the fix in the index (git add of the paths it wrote).
func (pl *planner) stage(paths ...string) error {
	args := []string{"--literal-pathspecs", "add", "--"}
	for _, p := range paths {
		args = append(args, pl.topRel(p))
	}
	cmd := repo.GitCommand(pl.gitTop, pl.gitDir, args...)
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
