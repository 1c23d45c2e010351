package scope

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/repo"
	"github.com/rivumi/rivumi-lint/repo/gittest"
	"github.com/rivumi/rivumi-lint/resolve"
)

// ignoreRepo has every case the whole-worktree walk decides: nested and
// negated .gitignore patterns, info/exclude, an ignored directory holding
// tracked files (and untracked ones below it), untracked directories that
// are not ignored, a nested repository, a symlinked directory.
func ignoreRepo(t *testing.T) *gittest.Repo {
	g := gittest.New(t)
	g.Write(".gitignore", "build/\n*.log\nnode_modules/\n/out\n!keep.log\n",
		"AGENTS.md", "r\n",
		"a/x.go", "x\n",
		"a/.gitignore", "gen/\n!gen/keep/\n",
		"a/b/c/AGENTS.md", "c\n",
		"svc/build/AGENTS.md", "tracked below an ignored name\n",
		"svc/build/sub/y.go", "y\n",
		"docs/out/page.md", "not /out: anchored at the root\n",
		"ex/z.go", "z\n",
	)
	g.Git("add", "-A")
	g.Git("add", "-f", "svc/build/AGENTS.md", "svc/build/sub/y.go")
	g.Commit("c")
	if err := os.WriteFile(filepath.Join(g.Dir, ".git", "info", "exclude"), []byte("private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g.Write(
		"build/out.txt", "ignored\n",
		"node_modules/pkg/lib/index.js", "ignored\n",
		"a/gen/g.go", "ignored by a/.gitignore\n",
		"a/gen/keep/k.go", "cannot be re-included below an excluded directory\n",
		"svc/build/untracked/u.txt", "untracked below an excluded directory\n",
		"svc/build/sub/deeper/d.txt", "untracked, inside a tracked directory of an excluded one\n",
		"out/o.txt", "ignored by /out\n",
		"private/p.txt", "ignored by info/exclude\n",
		"scratch/notes/AGENTS.md", "untracked, not ignored\n",
		"logs/today.log", "ignored file, directory kept\n",
		"logs/keep.log", "re-included file\n",
		"nested/.git/HEAD", "ref: refs/heads/main\n",
		"nested/inner/file.txt", "a nested repository's file\n",
		"real/target/t.txt", "t\n",
	)
	if err := os.Symlink("real", filepath.Join(g.Dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	return g
}

// gitDirs are the directories Git sees: those of tracked paths and of
// untracked files that are not ignored, with the symlinked directories the
// walk lists itself.
func gitDirs(g *gittest.Repo) []string {
	set := map[string]bool{"": true}
	files := append(gittest.Nul(g.Git("ls-files", "-z")), gittest.Nul(g.Git("ls-files", "-z", "--others", "--exclude-standard"))...)
	for _, f := range files {
		if strings.HasPrefix(f, "nested/") {
			continue // git lists the nested repository as one entry, "nested/"
		}
		for d := parent(f); d != ""; d = parent(d) {
			set[d] = true
		}
	}
	set["linkdir"] = true
	return sorted(set)
}

func walker(t *testing.T, root, prefix string) *Walker {
	return walkerN(t, root, prefix, 1)
}

func walkerN(t *testing.T, root, prefix string, workers int) *Walker {
	t.Helper()
	top := root
	if prefix != "" {
		top = strings.TrimSuffix(root, "/"+prefix)
	}
	scan, err := repo.ScanIndex(top)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wt.Close() })
	return &Walker{Top: top, GitDir: filepath.Join(top, ".git"), Prefix: prefix, Tracked: scan.Tracked, List: wt.ListKeep, Workers: workers}
}

// TestWalkerMatchesGit: the whole-worktree scope is exactly the directories
// Git does not ignore, and DirsBelow(P) is the part of it at or below P.
func TestWalkerMatchesGit(t *testing.T) {
	g := ignoreRepo(t)
	want := gitDirs(g)
	for _, n := range []int{1, 2, 8} {
		got, err := walkerN(t, g.Dir, "", n).WorktreeDirs()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("WorktreeDirs, %d workers:\n got %q\nwant %q", n, got, want)
		}
	}
	for _, p := range append(want, "build", "a/gen", "svc/build/untracked", "nested", "nested/inner", "missing", "a/x.go") {
		var sub []string
		for _, d := range want {
			if p == "" || d == p || strings.HasPrefix(d, p+"/") {
				sub = append(sub, d)
			}
		}
		got, err := walkerN(t, g.Dir, "", 1+len(p)%3).DirsBelow(p)
		if err != nil {
			t.Fatalf("DirsBelow(%q): %v", p, err)
		}
		if p == "linkdir" {
			sub = nil // a link is listed from its parent, never walked from
		}
		if strings.Join(got, "\n") != strings.Join(sub, "\n") {
			t.Errorf("DirsBelow(%q):\n got %q\nwant %q", p, got, sub)
		}
	}
	// --root a subdirectory: the ignore files above it still count.
	got, err := walker(t, filepath.Join(g.Dir, "svc"), "svc").WorktreeDirs()
	if err != nil {
		t.Fatal(err)
	}
	var wantSvc []string
	for _, d := range want {
		if d == "svc" {
			wantSvc = append(wantSvc, "")
		} else if rest, ok := strings.CutPrefix(d, "svc/"); ok {
			wantSvc = append(wantSvc, rest)
		}
	}
	sort.Strings(wantSvc)
	if strings.Join(got, "\n") != strings.Join(wantSvc, "\n") {
		t.Errorf("prefix svc:\n got %q\nwant %q", got, wantSvc)
	}
}
