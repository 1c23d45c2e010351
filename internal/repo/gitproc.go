package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// This file is the one place the command starts the git binary (F3:
// every fall-back runs Git through the helper that sets the environment). TestOneGitStarter fails on any other exec.Command in the
// packages the command links.

// hookVars are the variables Git exports to hooks (and users set) that
// would point a git process at another repository, worktree or index than
// the one asked for, or change how it fetches, prompts or locks. gitProcess
// drops all of them and sets the ones it needs explicitly.
var hookVars = map[string]bool{
	"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_COMMON_DIR": true, "GIT_INDEX_FILE": true,
	"GIT_PREFIX": true, "GIT_NO_LAZY_FETCH": true, "GIT_TERMINAL_PROMPT": true, "GIT_OPTIONAL_LOCKS": true,
}

// gitProcess prepares `git ARGS` run in dir, with the environment of this
// process minus hookVars, plus set. It never fetches missing objects
// (a partial clone's lazy fetch would write to the repository), prompts
// for credentials or takes optional locks (git status would refresh the
// index): checking never writes to the repository (R10).
func gitProcess(dir string, set []string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	env := make([]string, 0, len(os.Environ())+len(set)+3)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !hookVars[k] {
			env = append(env, kv)
		}
	}
	env = append(env, "GIT_NO_LAZY_FETCH=1", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	cmd.Env = append(env, set...)
	return cmd
}

// HaveGit reports whether the git binary is on PATH, for the callers that
// fall back to it only where it exists.
func HaveGit() bool {
	_, err := exec.LookPath("git")
	return err == nil
}

// DiscoverCommand prepares git ARGS run in dir, letting Git find the
// repository that contains dir as it does for a user typing the command
// there: no GIT_DIR, GIT_WORK_TREE or GIT_INDEX_FILE of a surrounding hook
// redirects it. For callers that have a directory but no opened Repo
// (hook install asks Git where the hooks directory is).
func DiscoverCommand(dir string, args ...string) *exec.Cmd {
	return gitProcess(dir, nil, args...)
}

// GitCommand prepares git ARGS for the repository with worktree root and
// Git directory gitDir: run in the worktree, with no variable of a
// surrounding hook redirecting it elsewhere (GIT_INDEX_FILE stays: a
// pre-commit hook names the index being committed there; a relative one is
// resolved against root, as Git does).
func GitCommand(root, gitDir string, args ...string) *exec.Cmd {
	return gitCommandIndex(root, gitDir, indexFileEnv(root), args...)
}

// gitCommandIndex is GitCommand reading the index file index ("" for the
// worktree's own), so no git process sees a hook's GIT_DIR, GIT_WORK_TREE
// or foreign GIT_INDEX_FILE (F3).
func gitCommandIndex(root, gitDir, index string, args ...string) *exec.Cmd {
	set := []string{"GIT_DIR=" + gitDir, "GIT_WORK_TREE=" + root}
	if index != "" {
		set = append(set, "GIT_INDEX_FILE="+index)
	}
	return gitProcess(root, set, args...)
}

// indexFileEnv returns $GIT_INDEX_FILE as an absolute path, "" when it is
// not set. A relative value is relative to the worktree top root, not to
// the working directory: `git commit` exports GIT_INDEX_FILE=.git/index to
// hooks, and Git resolves it at the top, where it runs (F2). A hook that
// runs `cd frontend && rivumi-lint check --staged` must read that index,
// not a missing frontend/.git/index.
func indexFileEnv(root string) string {
	p := os.Getenv("GIT_INDEX_FILE")
	if p == "" {
		return ""
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(root, p)
}
