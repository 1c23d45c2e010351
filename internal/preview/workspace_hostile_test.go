package preview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// TestWorkspaceHugeTrackedFile is §10 (a 2 GiB file) and P5: a tracked
// file replaced by a 2 GiB sparse file makes the worktree dirty, and the
// preview says so at once, without hashing 2 GiB (go-git's Status, used
// before, took over ten seconds here; git status goes by the size).
func TestWorkspaceHugeTrackedFile(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "small\n", "a/b.txt", "x\n")
	settle(t, g.Dir)
	g.Commit("init")
	if err := os.Truncate(filepath.Join(g.Dir, "AGENTS.md"), 2<<30); err != nil {
		t.Fatalf("cannot make a sparse file here (the test needs a file system with sparse files, such as ext4 or tmpfs): %v", err)
	}
	done := make(chan Workspace, 1)
	go func() {
		ws, _ := workspaceOf(g.Dir)
		done <- ws
	}()
	select {
	case ws := <-done:
		if ws.State != "dirty" {
			t.Errorf("state %q, want dirty", ws.State)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("§10: the workspace state of a worktree with a 2 GiB tracked file took over 3s (is the whole file hashed?)")
	}
}

// TestWorkspaceStateByStat: the state is dirty exactly where git status
// lists something (a deleted, retyped, resized or edited tracked file, an
// untracked one); a touched file stays clean, and so does a sparse
// checkout, whose skipped files are absent.
func TestWorkspaceStateByStat(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(g *gittest.Repo)
		state string
	}{
		{"clean", func(g *gittest.Repo) {}, "clean"},
		{"touched", func(g *gittest.Repo) {
			now := time.Now().Add(time.Hour)
			os.Chtimes(filepath.Join(g.Dir, "AGENTS.md"), now, now)
		}, "clean"},
		{"deleted", func(g *gittest.Repo) { g.Remove("AGENTS.md") }, "dirty"},
		{"directory gone", func(g *gittest.Repo) { g.Remove("a") }, "dirty"},
		{"parent is a file", func(g *gittest.Repo) { g.Remove("a"); g.Write("a", "file\n") }, "dirty"},
		{"resized", func(g *gittest.Repo) { g.Write("AGENTS.md", "much longer text\n") }, "dirty"},
		{"same size", func(g *gittest.Repo) { g.Write("AGENTS.md", "SMALL\n") }, "dirty"},
		{"retyped", func(g *gittest.Repo) { g.Remove("AGENTS.md"); g.Symlink("a/b.txt", "AGENTS.md") }, "dirty"},
		{"untracked", func(g *gittest.Repo) { g.Write("new.txt", "n\n") }, "dirty"},
		{"skip-worktree", func(g *gittest.Repo) {
			g.Git("update-index", "--skip-worktree", "c/d.txt")
			g.Remove("c")
		}, "clean"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gittest.New(t)
			g.Write("AGENTS.md", "small\n", "a/b.txt", "x\n", "c/d.txt", "d\n")
			settle(t, g.Dir)
			g.Commit("init")
			tc.edit(g)
			ws, note := workspaceOf(g.Dir)
			if ws.State != tc.state {
				t.Errorf("state %q, want %q (note %q)", ws.State, tc.state, note)
			}
		})
	}
}

// settle dates every file under dir an hour back, so that the index Git
// writes next records their sizes: a file modified in the same second as
// the index is "racily clean", and Git then records size 0 for it, which
// proves nothing (git then reads such a file to compare it).
func settle(t *testing.T, dir string) {
	t.Helper()
	past := time.Now().Add(-time.Hour)
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Name() == ".git" {
			return filepath.SkipDir
		}
		if err == nil {
			os.Chtimes(p, past, past)
		}
		return nil
	})
}

// TestWorkspaceWithoutGit: P5 without the git binary on PATH. The branch
// still comes from HEAD; the state is unknown and the note says how to get
// it. The preview does not fail.
func TestWorkspaceWithoutGit(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "x\n")
	g.Commit("init")
	g.Git("checkout", "-q", "-b", "topic")
	t.Setenv("PATH", t.TempDir())
	ws, note := workspaceOf(g.Dir)
	if ws.Branch != "topic" || ws.State != "unknown" {
		t.Errorf("workspace %+v, want branch topic, state unknown", ws)
	}
	if !strings.Contains(note, "git binary is not installed") {
		t.Errorf("note %q: want the missing git binary named", note)
	}
}
