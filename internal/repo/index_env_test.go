package repo

// F2: GIT_INDEX_FILE as Git's hooks see it. `git commit` exports
// GIT_INDEX_FILE=.git/index, relative to the worktree top; Git resolves it
// there, whatever the working directory. F3: every git process of the
// package gets the same environment (item 3b: the worktree scan's
// fall-back used a bare exec.Command); the worktree scan reads the index
// GIT_INDEX_FILE names, as git status does.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// TestIndexFileEnvRelativeToTop is F2: a hook that runs
// `cd frontend && rivumi-lint check --staged` reads .git/index of the
// top, not a missing frontend/.git/index taken for an empty index (every
// file deleted: a silent pass).
func TestIndexFileEnvRelativeToTop(t *testing.T) {
	gittest.SetEnv(t)
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "frontend/AGENTS.md", "f\n")
	g.Commit("c")
	g.Write("frontend/AGENTS.md", "staged <rivumi:x>\n")
	g.Git("add", "frontend/AGENTS.md")
	want := gitDiffNames(g, "--cached")

	t.Setenv("GIT_INDEX_FILE", ".git/index")
	t.Chdir(filepath.Join(g.Dir, "frontend"))
	r := open(t, g.Dir)
	x := mustIndex(t, r)
	if x.file != filepath.Join(g.Dir, ".git", "index") {
		t.Errorf("read %s, want the top's .git/index", x.file)
	}
	cs, err := r.DiffIndex(mustTree(t, r), x)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(paths(cs)) != fmt.Sprint(want) {
		t.Fatalf("DiffIndex from frontend/ = %q, git diff --cached = %q", paths(cs), want)
	}
	// The git processes get the same index: an absolute path to it.
	out, err := r.git(nil, "diff", "--cached", "--name-only")
	if err != nil || strings.TrimSpace(string(out)) != "frontend/AGENTS.md" {
		t.Fatalf("git diff --cached through gitCommand = %q, %v", out, err)
	}
	cmd := GitCommand(g.Dir, filepath.Join(g.Dir, ".git"), "ls-files")
	var env string
	for _, kv := range cmd.Env {
		if v, ok := strings.CutPrefix(kv, "GIT_INDEX_FILE="); ok {
			env = v
		}
	}
	if env != filepath.Join(g.Dir, ".git", "index") {
		t.Errorf("GitCommand passes GIT_INDEX_FILE=%q", env)
	}
}

// TestIndexFileEnvMissing is F2's decision for a GIT_INDEX_FILE that names
// no file. Git reads it as an empty index (every file of HEAD deleted,
// `git diff --cached` exit 0); no hook of Git's makes that state, and
// checking it would be a silent pass: with a commit at HEAD it is an
// error naming the file. Before the first commit the empty index is what
// Git sees, and nothing is staged. Without GIT_INDEX_FILE a missing
// .git/index stays an empty index, as for Git.
func TestIndexFileEnvMissing(t *testing.T) {
	gittest.SetEnv(t)
	g := gittest.New(t)
	missing := filepath.Join(t.TempDir(), "no-such-index")

	t.Setenv("GIT_INDEX_FILE", missing)
	r := open(t, g.Dir)
	if x, err := r.Index(); err != nil || len(x.Entries()) != 0 {
		t.Fatalf("unborn HEAD, missing GIT_INDEX_FILE: %v entries, %v; want an empty index", x, err)
	}

	g.Write("AGENTS.md", "root\n")
	g.Commit("c")
	other := &gittest.Repo{TB: t, Dir: g.Dir, Env: append(append([]string{}, g.Env...), "GIT_INDEX_FILE="+missing)}
	if names := gittest.Nul(other.Git("diff", "--cached", "--name-only", "-z")); fmt.Sprint(names) != "[AGENTS.md]" {
		t.Fatalf("git diff --cached with a missing index lists %q; the decision above assumes Git reads it as empty", names)
	}
	r = open(t, g.Dir)
	_, err := r.Index()
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "GIT_INDEX_FILE") {
		t.Fatalf("missing GIT_INDEX_FILE with a commit: %v; want an error naming it", err)
	}

	os.Unsetenv("GIT_INDEX_FILE")
	g.Remove(".git/index")
	r = open(t, g.Dir)
	x := mustIndex(t, r)
	cs, err := r.DiffIndex(mustTree(t, r), x)
	if err != nil || fmt.Sprint(paths(cs)) != fmt.Sprint(gitDiffNames(g, "--cached")) {
		t.Fatalf("missing .git/index: DiffIndex %q, %v; git diff --cached %q", paths(cs), err, gitDiffNames(g, "--cached"))
	}
}

// TestScanIndexReadsHookIndexFile is F2 and F4: the worktree mode reads
// the index Git reads. In a hook of `git commit PATH`, GIT_INDEX_FILE names
// the index being committed, and git status, git check-ignore and so this
// scan take the tracked paths and their modes from it, on every path, the
// git fall-back included (a split index goes there). The checkout's own
// index adds what it records (C1; staged_index_layouts.txtar 3b): here it
// tracks docs but no longer AGENTS.md, so AGENTS.md is a link only through
// the hook's index, and docs is tracked even beside an empty one.
func TestScanIndexReadsHookIndexFile(t *testing.T) {
	gittest.SetEnv(t)
	g := gittest.New(t)
	g.Write("docs/rules.md", "rules\n")
	g.Symlink("docs/rules.md", "AGENTS.md")
	g.Commit("c")
	g.Git("update-index", "--split-index")
	g.Git("rm", "-q", "--cached", "AGENTS.md") // the worktree's index no longer tracks it
	for _, tc := range []struct {
		name     string
		readTree []string
		link     bool // AGENTS.md recorded as a link
		docs     bool // docs tracked
	}{
		{"HEAD", []string{"read-tree", "HEAD"}, true, true},
		{"empty", []string{"read-tree", "--empty"}, false, true},
	} {
		hookIndex := filepath.Join(t.TempDir(), "next-index")
		other := &gittest.Repo{TB: t, Dir: g.Dir, Env: append(append([]string{}, g.Env...), "GIT_INDEX_FILE="+hookIndex)}
		other.Git(tc.readTree...)
		other.Git("update-index", "--split-index")
		t.Setenv("GIT_INDEX_FILE", hookIndex)
		for _, fallback := range []bool{false, true} {
			o := defaultOptions()
			o.indexFallback = fallback
			s, err := scanIndexOf(g.Dir, true, o)
			if err != nil {
				t.Fatal(err)
			}
			if (s.Kinds["AGENTS.md"] == resolve.Symlink) != tc.link || s.Tracked.Has("docs") != tc.docs {
				t.Errorf("%s index, fall-back %v: ScanIndex = %v %v; want AGENTS.md a link %v, docs tracked %v",
					tc.name, fallback, s.Kinds, s.Tracked, tc.link, tc.docs)
			}
		}
	}
}
