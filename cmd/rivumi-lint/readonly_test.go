package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// repoState is everything R10 says no command changes: `git status
// --porcelain=v2` (read with --no-optional-locks, so that taking the
// snapshot does not itself refresh the index), the index file's bytes, the
// refs and HEAD; plus, stricter, every file under the worktree and the Git
// directory (path, type, mode, size, content hash or link target), so that
// a new object, lock or config entry shows too.
type repoState struct {
	status, refs, head string
	index              []byte
	files              map[string]string
}

func snapshot(t *testing.T, g *gittest.Repo) repoState {
	t.Helper()
	s := filesSnapshot(t, g)
	s.status = g.Git("--no-optional-locks", "status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--ignored")
	s.refs = g.Git("--no-optional-locks", "for-each-ref", "--format=%(refname) %(objectname) %(symref)")
	s.head = g.Git("--no-optional-locks", "rev-parse", "--symbolic-full-name", "HEAD") + g.Git("--no-optional-locks", "rev-parse", "HEAD")
	return s
}

// filesSnapshot is the file part of snapshot (the index, refs and HEAD are
// files too), cheap enough to take after every command.
func filesSnapshot(t *testing.T, g *gittest.Repo) repoState {
	t.Helper()
	s := repoState{files: map[string]string{}}
	gitDir := filepath.Join(g.Dir, ".git")
	var err error
	if s.index, err = os.ReadFile(filepath.Join(gitDir, "index")); err != nil {
		t.Fatal(err)
	}
	for _, top := range []string{g.Dir, gitDir} {
		filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				s.files[p] = "error: " + err.Error()
				return nil
			}
			fi, err := os.Lstat(p)
			if err != nil {
				s.files[p] = "error: " + err.Error()
				return nil
			}
			desc := fmt.Sprintf("%v %d", fi.Mode(), fi.Size())
			switch {
			case fi.Mode()&os.ModeSymlink != 0:
				target, _ := os.Readlink(p)
				desc += " -> " + target
			case fi.Mode().IsRegular():
				b, err := os.ReadFile(p)
				if err != nil {
					desc += " unreadable"
				} else {
					h := sha256.Sum256(b)
					desc += " " + hex.EncodeToString(h[:8])
				}
				// Git itself freshens the mtime of a split index's shared
				// file whenever it reads it (read-cache.c,
				// freshen_shared_index), so `git ls-files`, which reads
				// such an index, touches it as `git status` does: only its
				// bytes count.
				if !strings.HasPrefix(filepath.Base(p), "sharedindex.") {
					desc += fmt.Sprintf(" mtime %d.%09d", fi.ModTime().Unix(), fi.ModTime().Nanosecond())
				}
			case fi.Mode()&os.ModeNamedPipe != 0:
			}
			s.files[p] = desc
			return nil
		})
	}
	return s
}

// diff lists what changed between two snapshots.
func (a repoState) diff(b repoState) []string {
	var out []string
	if a.status != b.status {
		out = append(out, fmt.Sprintf("git status --porcelain=v2 changed:\n%q\n%q", a.status, b.status))
	}
	if string(a.index) != string(b.index) {
		out = append(out, fmt.Sprintf("index bytes changed (%d -> %d bytes)", len(a.index), len(b.index)))
	}
	if a.refs != b.refs {
		out = append(out, fmt.Sprintf("refs changed:\n%s\n%s", a.refs, b.refs))
	}
	if a.head != b.head {
		out = append(out, fmt.Sprintf("HEAD changed: %q -> %q", a.head, b.head))
	}
	var paths []string
	for p := range a.files {
		paths = append(paths, p)
	}
	for p := range b.files {
		if _, ok := a.files[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		if a.files[p] != b.files[p] {
			out = append(out, fmt.Sprintf("%s: %q -> %q", p, a.files[p], b.files[p]))
		}
	}
	return out
}

// dirtyRepo makes a repository with three commits, a branch, a tag and a
// stash, then staged changes (added, modified, deleted, renamed, a new
// symlink) and different unstaged changes on top of them, untracked and
// ignored files; its instruction files give findings in every rule family.
func dirtyRepo(t *testing.T, initArgs ...string) *gittest.Repo {
	t.Helper()
	g := gittest.New(t, initArgs...)
	g.Write("AGENTS.md", "root rules\n", "a/AGENTS.md", "a rules\n", "a/b/RIVUMI.md", "b rules\n",
		"c/AGENTS.md", "c\n", ".gitignore", "ignored/\n", "src/main.go", "package main\n",
		".rivumi/skills/s/SKILL.md", "---\ndescription: a skill\n---\n")
	g.Commit("one")
	g.Git("tag", "v1")
	g.Write("a/b/AGENTS.override.md", "override\n", "d/AGENTS.md", "caf\xe9\n")
	g.Commit("two")
	g.Git("branch", "topic")
	g.Write("AGENTS.md", "root rules, edited\n")
	g.Commit("three")
	g.Write("src/main.go", "package main // stashed\n")
	g.Git("stash", "-q")
	// Staged.
	g.Write("a/AGENTS.md", "a rules staged \u202e\n", "e/AGENTS.md", "new </rivumi:layer>\n")
	g.Remove("c/AGENTS.md")
	g.Git("mv", "d/AGENTS.md", "d/RIVUMI.md")
	g.Symlink("/etc/passwd", "f/AGENTS.md")
	g.Git("add", "-A")
	// Unstaged, on top.
	g.Write("a/AGENTS.md", "a rules worktree \x00\n", "e/AGENTS.md", "new, fixed\n", "g/AGENTS.md", "untracked\n",
		"ignored/AGENTS.md", "ignored\n")
	g.Remove("a/b/RIVUMI.md")
	return g
}

// TestReadOnly is R10: on repositories with staged and unstaged changes,
// no command writes to the repository, its index or its refs: check in
// every format and scope (PATHs, whole worktree, --staged, --base, --base
// --head, the GitHub event scope, --memory, --user-instructions), preview
// in every format, every --section and --watch, rules and version leave
// `git status --porcelain=v2`, the index bytes, the refs, HEAD and every
// file byte-identical. The repositories: SHA-1 read by go-git, a split
// index and SHA-256 (read through the git binary).
func TestReadOnly(t *testing.T) {
	for _, tc := range []struct {
		name string
		init []string
		prep func(g *gittest.Repo)
	}{
		{"sha1", nil, nil},
		{"split index", nil, func(g *gittest.Repo) { g.Git("update-index", "--split-index") }},
		{"sha256", []string{"--object-format=sha256"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := dirtyRepo(t, tc.init...)
			if tc.prep != nil {
				tc.prep(g)
			}
			c := newCLI(t, g.Dir)
			c.secrets = append(c.secrets, "root:x:0:0")
			out := t.TempDir()
			mem := write(t, out, "memory.jsonl", `{"type":"user_preference","text":"tabs"}`+"\nbroken\n")
			user := write(t, out, "RIVUMI.md", "user rules\n")
			event := write(t, out, "event.json", fmt.Sprintf(`{"before":%q,"after":%q}`, g.Rev("HEAD~2"), g.Rev("HEAD")))
			before := snapshot(t, g)

			var runs [][]string
			for _, f := range checkFormats {
				for _, scope := range [][]string{
					nil, {"AGENTS.md"}, {"a"}, {"a/b/AGENTS.override.md", "src/main.go"}, {"--staged"},
					{"--base", "HEAD~1"}, {"--base", "v1", "--head", "topic"}, {"--base", "HEAD~2", "--memory", mem},
					{"--user-instructions", user, "--fail-on", "never", "a/b"},
				} {
					runs = append(runs, append([]string{"check", "--format", f}, scope...))
				}
				runs = append(runs, []string{"check", "--format", f, "--output", filepath.Join(out, "report."+f)})
			}
			for _, f := range previewFormats {
				runs = append(runs, []string{"preview", "--format", f}, []string{"preview", "--format", f, "a/b"},
					[]string{"preview", "--format", f, "--memory", mem, "--user-instructions", user, "e"})
			}
			for _, s := range dynamicSections() {
				runs = append(runs, []string{"preview", "--section", s, "a/b"})
			}
			runs = append(runs, []string{"rules"}, []string{"rules", "RL001"}, []string{"version"}, []string{"help"}, []string{"schema"})
			beforeFiles := filesSnapshot(t, g)
			for _, args := range runs {
				res := c.run(args...)
				if res.code == 2 {
					t.Errorf("exit 2\n%v", res)
				}
				if d := beforeFiles.diff(filesSnapshot(t, g)); len(d) > 0 {
					t.Fatalf("R10: %q changed the repository:\n%s", args, strings.Join(d, "\n"))
				}
			}
			if d := before.diff(snapshot(t, g)); len(d) > 0 {
				t.Fatalf("R10: the commands changed the repository:\n%s", strings.Join(d, "\n"))
			}

			// The GitHub Actions event scope (§6).
			gh := *c
			gh.env = append(append([]string{}, c.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push", "GITHUB_EVENT_PATH="+event)
			if res := gh.run("check", "--format", "github"); res.code == 2 {
				t.Errorf("event scope: exit 2\n%v", res)
			}

			// preview --watch until interrupted (P6).
			if res := c.runFor(500*time.Millisecond, "preview", "--watch", "--interval", "20ms", "a"); res.code != 0 ||
				!strings.Contains(res.stdout, "rivumi:section") {
				t.Errorf("preview --watch, interrupted: want exit 0 and a render\n%v", res)
			}
			if d := before.diff(snapshot(t, g)); len(d) > 0 {
				t.Fatalf("R10: preview --watch changed the repository:\n%s", strings.Join(d, "\n"))
			}
		})
	}
}

// TestHookWritesOnlyItsHook is R10's exception (§6 hook install): in a
// repository with staged and unstaged changes, install writes exactly its
// hook file and uninstall removes exactly it; status, index, refs and
// every other file stay as they were.
func TestHookWritesOnlyItsHook(t *testing.T) {
	g := dirtyRepo(t)
	c := newCLI(t, g.Dir)
	before := snapshot(t, g)
	hookPath := filepath.Join(g.Dir, ".git", "hooks", "pre-commit")
	if res := c.run("hook", "install"); res.code != 0 {
		t.Fatalf("hook install: %v", res)
	}
	d := before.diff(snapshot(t, g))
	if len(d) != 1 || !strings.HasPrefix(d[0], hookPath+": \"\" -> ") {
		t.Fatalf("R10: hook install changed more than %s:\n%s", hookPath, strings.Join(d, "\n"))
	}
	if res := c.run("hook", "uninstall"); res.code != 0 {
		t.Fatalf("hook uninstall: %v", res)
	}
	if d := before.diff(snapshot(t, g)); len(d) > 0 {
		t.Fatalf("R10: install then uninstall left changes:\n%s", strings.Join(d, "\n"))
	}
}
