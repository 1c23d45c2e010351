package repo_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// TestLocateMatchesGit is F2 and R1 against git itself: from each working
// directory and with each environment, repo.Locate finds the Git directory
// and the worktree top level (none for a bare repository or the inside of
// a Git directory) that `git rev-parse` reports.
func TestLocateMatchesGit(t *testing.T) {
	gittest.SetEnv(t)
	main := gittest.New(t)
	main.Write("AGENTS.md", "Root.\n", "sub/deep/AGENTS.md", "Deep.\n")
	main.Commit("one")
	linked := filepath.Join(t.TempDir(), "linked")
	main.Git("worktree", "add", "-q", linked)

	bare := filepath.Join(t.TempDir(), "bare.git")
	main.Git("clone", "-q", "--bare", main.Dir, bare)

	sep := filepath.Join(t.TempDir(), "tree")
	sepGit := filepath.Join(t.TempDir(), "gitdir")
	if out, err := exec.Command("git", "init", "-q", "--separate-git-dir", sepGit, sep).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}

	cfgWT := gittest.New(t) // core.worktree names a directory elsewhere
	elsewhere := t.TempDir()
	cfgWT.Git("config", "core.worktree", elsewhere)

	outside := t.TempDir()
	cases := []struct {
		name, cwd string
		env       map[string]string
	}{
		{"top", main.Dir, nil},
		{"subdirectory", filepath.Join(main.Dir, "sub", "deep"), nil},
		{"inside .git", filepath.Join(main.Dir, ".git", "refs"), nil},
		{"linked worktree", filepath.Join(linked, "sub"), nil},
		{"bare", bare, nil},
		{"inside bare", filepath.Join(bare, "refs", "heads"), nil},
		{"bare with GIT_DIR=.", bare, map[string]string{"GIT_DIR": "."}},
		{"bare with GIT_WORK_TREE", bare, map[string]string{"GIT_WORK_TREE": outside}},
		{"separate Git directory", sep, nil},
		{"GIT_DIR and GIT_WORK_TREE from elsewhere", outside, map[string]string{"GIT_DIR": sepGit, "GIT_WORK_TREE": sep}},
		{"relative GIT_DIR", outside, map[string]string{"GIT_DIR": relTo(t, outside, sepGit), "GIT_WORK_TREE": sep}},
		{"GIT_DIR alone: the working directory is the top", outside, map[string]string{"GIT_DIR": sepGit}},
		{"GIT_DIR of a main worktree from its top", main.Dir, map[string]string{"GIT_DIR": filepath.Join(main.Dir, ".git")}},
		{"GIT_WORK_TREE alone", filepath.Join(main.Dir, "sub"), map[string]string{"GIT_WORK_TREE": outside}},
		{"core.worktree", cfgWT.Dir, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			t.Chdir(c.cwd)
			wantGit, wantTop := gitLocate(t, c.cwd)
			loc, err := repo.Locate(c.cwd)
			if err != nil {
				t.Fatalf("Locate: %v", err)
			}
			if !same(loc.GitDir, wantGit) {
				t.Errorf("GitDir = %q, git says %q", loc.GitDir, wantGit)
			}
			if !same(loc.Top, wantTop) {
				t.Errorf("Top = %q, git says %q", loc.Top, wantTop)
			}
			// FindRoot and GitDir agree with Locate.
			top, err := repo.FindRoot(c.cwd)
			if wantTop == "" {
				if err == nil {
					t.Errorf("FindRoot = %q, want a no-worktree error", top)
				}
				return
			}
			if err != nil || !same(top, wantTop) {
				t.Errorf("FindRoot = %q, %v; want %q", top, err, wantTop)
			}
			if gd, err := repo.GitDir(top); err != nil || !same(gd, wantGit) {
				t.Errorf("GitDir(%q) = %q, %v; want %q", top, gd, err, wantGit)
			}
		})
	}
}

// TestLocateLinkedHookSubdirectory is the one place Locate departs from
// git on purpose (F2, R1): a hook of a linked worktree runs with GIT_DIR
// exported; after changing into a subdirectory, git would take that
// subdirectory as the top level, while the project root stays the
// worktree's top level, as without the variable.
func TestLocateLinkedHookSubdirectory(t *testing.T) {
	gittest.SetEnv(t)
	main := gittest.New(t)
	main.Write("sub/AGENTS.md", "Sub.\n")
	main.Commit("one")
	linked := filepath.Join(t.TempDir(), "linked")
	main.Git("worktree", "add", "-q", linked)
	gd := strings.TrimSpace(gittest.At(t, linked).Git("rev-parse", "--absolute-git-dir"))
	t.Setenv("GIT_DIR", gd)
	t.Chdir(filepath.Join(linked, "sub"))
	loc, err := repo.Locate(".")
	if err != nil {
		t.Fatal(err)
	}
	if !same(loc.Top, linked) || !same(loc.GitDir, gd) {
		t.Errorf("Locate = %+v, want top %s and Git directory %s", loc, linked, gd)
	}
}

// TestLocateBadGitDir: a GIT_DIR that names no repository is an error
// naming the variable, never a discovery of another repository (F2).
func TestLocateBadGitDir(t *testing.T) {
	gittest.SetEnv(t)
	r := gittest.New(t)
	t.Setenv("GIT_DIR", filepath.Join(t.TempDir(), "nowhere"))
	t.Chdir(r.Dir)
	if loc, err := repo.Locate(r.Dir); err == nil || !strings.Contains(err.Error(), "GIT_DIR") {
		t.Fatalf("Locate = %+v, %v; want an error naming GIT_DIR", loc, err)
	}
}

// gitLocate asks git for the Git directory and the top level ("" when
// there is no worktree) from dir, with the test's environment.
func gitLocate(t *testing.T, dir string) (gitDir, top string) {
	t.Helper()
	run := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}
	gitDir, err := run("rev-parse", "--absolute-git-dir")
	if err != nil {
		t.Fatalf("git rev-parse --absolute-git-dir in %s: %v", dir, err)
	}
	if inside, _ := run("rev-parse", "--is-inside-work-tree"); inside == "true" {
		top, err = run("rev-parse", "--show-toplevel")
		if err != nil {
			t.Fatalf("git rev-parse --show-toplevel: %v", err)
		}
		return gitDir, top
	}
	if wt, err := run("rev-parse", "--show-toplevel"); err == nil && wt != "" {
		return gitDir, wt // a worktree that does not contain dir
	}
	return gitDir, ""
}

func same(a, b string) bool {
	if a == "" || b == "" {
		return a == b
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}

func relTo(t *testing.T, base, target string) string {
	t.Helper()
	r, err := filepath.Rel(base, target)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
