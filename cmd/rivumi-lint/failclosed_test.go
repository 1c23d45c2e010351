package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// Fail-closed (§6: "Never 0 on an internal error"; §10; C5): each test
// below injects a failure into what a run reads and checks that no run that
// needs the damaged part ends in exit 0. A run ends either in exit 2 with a
// message naming the cause, or, where C5 makes an I/O error a finding
// (RL012), in exit 1 with that finding.

// failRepo makes a repository with two commits that change a/AGENTS.md
// and a/b/AGENTS.md; every instruction file is clean, so exit 1 can only
// come from a finding about the damage, and exit 0 means the damage went
// unnoticed.
func failRepo(t *testing.T) *gittest.Repo {
	t.Helper()
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "a/AGENTS.md", "a\n", "a/b/AGENTS.md", "b\n", "a/b/c/x.go", "package c\n")
	g.Commit("one")
	g.Write("a/AGENTS.md", "a two\n", "a/b/AGENTS.md", "b two\n")
	g.Commit("two")
	return g
}

// closed wants a run that notices the damage: exit 2 with a message
// matching one of the words, or exit 1 with RL012 (C5).
func (c *cli) closed(words string, args ...string) {
	c.t.Helper()
	res := c.run(args...)
	switch {
	case res.code == 2:
		if !strings.Contains(strings.ToLower(res.stderr), "rivumi-lint: ") || !matchAny(res.stderr, words) {
			c.t.Errorf("exit 2 without a message naming the cause (%s)\n%v", words, res)
		}
	case res.code == 1 && strings.Contains(res.stdout, "RL012"):
	default:
		c.t.Errorf("§6/§10 fail-closed: exit %d; want exit 2 (or 1 with RL012)\n%v", res.code, res)
	}
}

func matchAny(s, words string) bool {
	s = strings.ToLower(s)
	for _, w := range strings.Split(words, "|") {
		if strings.Contains(s, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

func TestFailClosed(t *testing.T) {
	t.Run("unreadable directory in the chain", func(t *testing.T) {
		// C5, §10: the directory a/ cannot be listed (root loses
		// CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH through nodac).
		t.Parallel()
		g := failRepo(t)
		c := newCLI(t, g.Dir)
		c.wrap = []string{"nodac"}
		if err := os.Chmod(filepath.Join(g.Dir, "a"), 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(filepath.Join(g.Dir, "a"), 0o755) })
		for _, f := range []string{"text", "json", "github"} {
			c.closed("permission denied", "check", "--format", f)
			c.closed("permission denied", "check", "--format", f, "a")
			c.closed("permission denied", "check", "--format", f, "a/b/AGENTS.md")
			c.closed("permission denied", "check", "--format", f, "AGENTS.md")
		}
		for _, f := range previewFormats {
			c.closed("permission denied", "preview", "--format", f, "a/b")
		}
	})

	t.Run("unreadable files", func(t *testing.T) {
		// C5: an unreadable layer is RL012; an unreadable config, memory
		// file or Git directory is exit 2.
		t.Parallel()
		g := failRepo(t)
		c := newCLI(t, g.Dir)
		c.wrap = []string{"nodac"}
		mem := write(t, t.TempDir(), "memory.jsonl", `{"type":"user_preference","text":"x"}`+"\n")
		user := write(t, t.TempDir(), "RIVUMI.md", "user\n")
		for _, p := range []string{filepath.Join(g.Dir, "a", "b", "AGENTS.md"), mem, user} {
			if err := os.Chmod(p, 0); err != nil {
				t.Fatal(err)
			}
		}
		c.closed("permission denied", "check")
		c.closed("permission denied", "check", "a/b")
		c.closed("permission denied", "check", "--user-instructions", user, "AGENTS.md")
		c.closed("permission denied", "check", "--memory", mem, "AGENTS.md")
		c.closed("permission denied", "preview", "--memory", mem)
		res := c.run("preview", "--format", "json", "a/b")
		if res.code != 0 || !strings.Contains(res.stdout, "RL012") {
			t.Errorf("preview of an unreadable layer: want exit 0 with RL012 in the diagnostics\n%v", res)
		}
		// A config that becomes unreadable.
		cfg := write(t, g.Dir, ".rivumi-lint.yaml", "version: 1\n")
		os.Chmod(cfg, 0)
		c.closed(".rivumi-lint.yaml|permission denied", "check", "AGENTS.md")
		c.closed(".rivumi-lint.yaml|permission denied", "check")
		c.closed(".rivumi-lint.yaml|permission denied", "preview")
		c.closed("permission denied", "check", "--config", cfg, "AGENTS.md")
		os.Remove(cfg)
		// The Git objects cannot be read.
		objects := filepath.Join(g.Dir, ".git", "objects")
		os.Chmod(objects, 0)
		t.Cleanup(func() { os.Chmod(objects, 0o755) })
		c.closed("permission denied|object|missing", "check", "--base", "HEAD~1")
		g.Write("a/AGENTS.md", "staged\n")
		os.Chmod(objects, 0o755)
		g.Git("add", "a/AGENTS.md")
		os.Chmod(objects, 0)
		c.closed("permission denied|object|missing", "check", "--staged")
	})

	t.Run("truncated pack", func(t *testing.T) {
		// §10: every object is in one pack, cut to a quarter.
		t.Parallel()
		g := failRepo(t)
		g.Write("a/b/AGENTS.md", "b staged\n")
		g.Git("add", "a/b/AGENTS.md")
		g.Git("gc", "-q", "--prune=now")
		packs, _ := filepath.Glob(filepath.Join(g.Dir, ".git", "objects", "pack", "*.pack"))
		if len(packs) != 1 {
			t.Fatalf("packs: %v", packs)
		}
		fi, err := os.Stat(packs[0])
		if err != nil {
			t.Fatal(err)
		}
		os.Chmod(packs[0], 0o644)
		if err := os.Truncate(packs[0], fi.Size()/4); err != nil {
			t.Fatal(err)
		}
		c := newCLI(t, g.Dir)
		for _, f := range []string{"text", "json", "sarif"} {
			c.closed("object|pack|eof|missing|corrupt", "check", "--format", f, "--base", "HEAD~1")
			c.closed("object|pack|eof|missing|corrupt", "check", "--format", f, "--staged")
			c.closed("object|pack|eof|missing|corrupt", "check", "--format", f, "--base", "HEAD~1", "--head", "HEAD")
		}
	})

	t.Run("missing object", func(t *testing.T) {
		// §10: "A missing object is an error, never a shorter diff": the
		// base's subtree a/b, then the head's blob a/b/AGENTS.md.
		t.Parallel()
		g := failRepo(t)
		c := newCLI(t, g.Dir)
		loose := func(rev string) string {
			h := strings.TrimSpace(g.Git("rev-parse", rev))
			return filepath.Join(g.Dir, ".git", "objects", h[:2], h[2:])
		}
		tree := loose("HEAD~1:a/b")
		saved, err := os.ReadFile(tree)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(tree)
		c.closed("missing", "check", "--base", "HEAD~1")
		c.closed("missing", "check", "--format", "json", "--base", "HEAD~1")
		os.WriteFile(tree, saved, 0o444)
		os.Remove(loose("HEAD:a/b/AGENTS.md"))
		c.closed("missing", "check", "--base", "HEAD~1")
		g.Write("a/b/c/x.go", "package c // staged\n")
		g.Git("add", "a/b/c/x.go")
		c.closed("missing", "check", "--staged")
		// The head commit itself.
		os.Remove(loose("HEAD"))
		c.closed("missing|HEAD|object", "check", "--base", "HEAD~1")
		c.closed("missing|HEAD|object", "check", "--staged")
	})

	t.Run("corrupt index", func(t *testing.T) {
		// §10: an index that is not an index is exit 2 in every scope that
		// reads it (the worktree scopes read it for C1's recorded modes).
		t.Parallel()
		g := failRepo(t)
		g.Write("a/AGENTS.md", "staged\n")
		g.Git("add", "a/AGENTS.md")
		c := newCLI(t, g.Dir)
		index := filepath.Join(g.Dir, ".git", "index")
		os.WriteFile(index, bytes.Repeat([]byte("not an index\n"), 40), 0o644)
		for _, args := range [][]string{{"check"}, {"check", "a/AGENTS.md"}, {"check", "--staged"}, {"preview", "a"}} {
			c.closed("index", args...)
		}
	})

	t.Run("unwritable output", func(t *testing.T) {
		// §6: a report that cannot be written is exit 2, never exit 0
		// (a finding makes every format write something).
		t.Parallel()
		g := failRepo(t)
		g.Write("AGENTS.md", "root \u202e\n")
		c := newCLI(t, g.Dir)
		for _, f := range checkFormats {
			c.closed("--output|no such file", "check", "--format", f, "--output", filepath.Join(t.TempDir(), "missing", "dir", "out"))
			if _, err := os.Stat("/dev/full"); err == nil {
				c.closed("write|no space", "check", "--format", f, "--output", "/dev/full")
			}
		}
		for _, f := range previewFormats {
			c.closed("--output|no such file", "preview", "--format", f, "--output", filepath.Join(t.TempDir(), "missing", "out"))
			if _, err := os.Stat("/dev/full"); err == nil {
				c.closed("write|no space", "preview", "--format", f, "--output", "/dev/full")
			}
		}
	})
}

// TestFailClosedTruncatedIndex is §10 fail-closed for an index cut short
// (60 bytes: the header and part of the first entry). git status refuses
// it, go-git's decoder says "unexpected EOF" and rivumi-lint's own index
// parser (--staged) says the entries cannot fit; the worktree scopes (the
// whole worktree, PATHs, preview), which read the index for the modes Git
// records (C1), must not carry on without it and end in exit 0.
func TestFailClosedTruncatedIndex(t *testing.T) {
	g := failRepo(t)
	g.Write("a/AGENTS.md", "staged\n")
	g.Git("add", "a/AGENTS.md")
	c := newCLI(t, g.Dir)
	index := filepath.Join(g.Dir, ".git", "index")
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(index, b[:60], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Try("status"); err == nil {
		t.Fatalf("git status accepts the truncated index; the test needs one it refuses")
	}
	for _, args := range [][]string{{"check", "--staged"}, {"check"}, {"check", "a/AGENTS.md"}, {"preview", "a"}} {
		c.closed("index", args...)
	}
}

// TestPanicIsExit2 is §6 ("Never 0 on an internal error"): the recover in
// run turns a panic anywhere below it into exit 2 with a one-line message
// (a panic value may quote a file name: no forged lines, §10).
func TestPanicIsExit2(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	code := run([]string{"preview", "--watch", "--root", t.TempDir()}, env{Stdout: &stdout, Stderr: &stderr,
		WatchContext: func() (context.Context, context.CancelFunc) {
			panic("injected failure in x\n::error::forged/AGENTS.md")
		}})
	if code != exitError {
		t.Fatalf("exit %d after a panic, want 2; stderr %q", code, stderr.String())
	}
	if got := stderr.String(); !strings.HasPrefix(got, "rivumi-lint: internal error: injected failure in x") || strings.Count(got, "\n") != 1 {
		t.Errorf("stderr %q: want one line naming the internal error", got)
	}
}
