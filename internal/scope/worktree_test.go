package scope

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
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
		"nested/.git/objects/info/.keep", "", // a Git directory: HEAD, objects, refs (R1)
		"nested/.git/refs/heads/.keep", "",
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
		for d := resolve.ParentDir(f); d != ""; d = resolve.ParentDir(d) {
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
	scan, err := repo.ScanIndexOf(top, true)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wt.Close() })
	return &Walker{Top: top, GitDir: filepath.Join(top, ".git"), Prefix: prefix, Tracked: scan.Tracked.Has, List: wt.ListKeep, Workers: workers}
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

// listed runs the whole-worktree walk of the repository at g.Dir with Git
// directory gitDir and reports which of dirs it lists.
func listed(t *testing.T, top, gitDir string, dirs ...string) map[string]bool {
	t.Helper()
	scan, err := repo.ScanIndexOf(top, true)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := resolve.OpenWorktree(top, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Close()
	got, err := (&Walker{Top: top, GitDir: gitDir, Tracked: scan.Tracked.Has, List: wt.ListKeep, Workers: 1}).WorktreeDirs()
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]bool{}
	for _, d := range got {
		in[d] = true
	}
	out := map[string]bool{}
	for _, d := range dirs {
		out[d] = in[d]
	}
	return out
}

// checkIgnored asks git whether each path is ignored (F4's oracle).
func checkIgnored(g *gittest.Repo, paths ...string) map[string]bool {
	out, _ := g.Try(append([]string{"check-ignore", "--"}, paths...)...)
	ign := map[string]bool{}
	for _, p := range gittest.Lines(out) {
		ign[p] = true
	}
	res := map[string]bool{}
	for _, p := range paths {
		res[p] = ign[p]
	}
	return res
}

// assertGit: every directory is listed exactly when git does not ignore it.
func assertGit(t *testing.T, g *gittest.Repo, gitDir string, dirs ...string) {
	t.Helper()
	got := listed(t, g.Dir, gitDir, dirs...)
	ign := checkIgnored(g, dirs...)
	for _, d := range dirs {
		if got[d] == ign[d] {
			t.Errorf("%s: walker lists it: %v; git check-ignore says ignored: %v", d, got[d], ign[d])
		}
	}
}

// TestF4WildmatchClasses: Git's "[!0-9]" excludes digits and '?' matches
// one byte, so tmp1/ and ü/ (two bytes) are not ignored (issue 11 item 4).
func TestF4WildmatchClasses(t *testing.T) {
	g := gittest.New(t)
	g.Write(".gitignore", "tmp[!0-9]\n?\n", "AGENTS.md", "r\n")
	g.Git("add", "-A")
	g.Commit("c")
	g.Write("tmp1/AGENTS.md", "x\n", "tmpx/AGENTS.md", "x\n", "ü/AGENTS.md", "x\n", "b/AGENTS.md", "x\n", "bb/AGENTS.md", "x\n")
	assertGit(t, g, filepath.Join(g.Dir, ".git"), "tmp1", "tmpx", "ü", "b", "bb")
	if got := listed(t, g.Dir, filepath.Join(g.Dir, ".git"), "tmp1", "ü"); !got["tmp1"] || !got["ü"] {
		t.Errorf("tmp1 and ü must be checked: %v", got)
	}
}

// TestF4NoReincludeBelowExcluded: "a" then "!b" leaves b/ included but
// b/a/ excluded by basename; nothing re-includes below it (F4).
func TestF4NoReincludeBelowExcluded(t *testing.T) {
	g := gittest.New(t)
	g.Write(".gitignore", "a\n!b\n", "AGENTS.md", "r\n")
	g.Git("add", "-A")
	g.Commit("c")
	g.Write("b/a/AGENTS.md", "x\n", "b/a/c/AGENTS.md", "x\n", "b/c/AGENTS.md", "x\n")
	assertGit(t, g, filepath.Join(g.Dir, ".git"), "b", "b/a", "b/a/c", "b/c")
	if got := listed(t, g.Dir, filepath.Join(g.Dir, ".git"), "b/a"); got["b/a"] {
		t.Error("b/a is ignored by Git and must not be checked")
	}
}

// TestF4LinkedWorktreeInfoExclude: a linked worktree uses info/exclude of
// the common Git directory, not of .git/worktrees/NAME (F4).
func TestF4LinkedWorktreeInfoExclude(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "r\n")
	g.Git("add", "-A")
	g.Commit("c")
	wtDir := filepath.Join(t.TempDir(), "wt")
	g.Git("worktree", "add", "-q", wtDir)
	if err := os.WriteFile(filepath.Join(g.Dir, ".git", "info", "exclude"), []byte("private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := gittest.At(t, wtDir)
	w.Write("private/AGENTS.md", "x\n", "public/AGENTS.md", "x\n")
	gitDir, err := repo.GitDir(wtDir)
	if err != nil {
		t.Fatal(err)
	}
	assertGit(t, w, gitDir, "private", "public")
}

// TestF4CoreExcludesFile: core.excludesFile (from the global config, "~"
// expanded) and, when it is unset, $XDG_CONFIG_HOME/git/ignore count, as
// for `git status` (F4).
func TestF4CoreExcludesFile(t *testing.T) {
	gittest.SetEnv(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	xdg := filepath.Join(home, "xdg")
	t.Setenv("XDG_CONFIG_HOME", xdg)
	global := filepath.Join(home, "global.gitconfig")
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(global, "[user]\n\tname = T\n\temail = t@example.com\n[core]\n\texcludesFile = ~/my-ignore\n")
	write(filepath.Join(home, "my-ignore"), "secret/\n")
	write(filepath.Join(xdg, "git", "ignore"), "xdgonly/\n")
	g := gittest.New(t)
	g.Env = os.Environ()
	g.Write("AGENTS.md", "r\n")
	g.Git("add", "-A")
	g.Commit("c")
	g.Write("secret/AGENTS.md", "x\n", "xdgonly/AGENTS.md", "x\n", "plain/AGENTS.md", "x\n")
	gd := filepath.Join(g.Dir, ".git")
	assertGit(t, g, gd, "secret", "xdgonly", "plain")
	if got := listed(t, g.Dir, gd, "secret"); got["secret"] {
		t.Error("secret/ is ignored through core.excludesFile")
	}
	// Unset: Git's default file applies.
	write(global, "[user]\n\tname = T\n\temail = t@example.com\n")
	assertGit(t, g, gd, "secret", "xdgonly", "plain")
	if got := listed(t, g.Dir, gd, "xdgonly"); got["xdgonly"] {
		t.Error("xdgonly/ is ignored through $XDG_CONFIG_HOME/git/ignore")
	}
}

// TestF4SymlinkIsNotADirectory: "name/" matches directories only, and to
// Git a symbolic link to a directory is not one (F4, C1).
func TestF4SymlinkIsNotADirectory(t *testing.T) {
	g := gittest.New(t)
	g.Write(".gitignore", "linkdir/\n", "AGENTS.md", "r\n", "real/AGENTS.md", "x\n")
	g.Git("add", "-A")
	g.Commit("c")
	if err := os.Symlink("real", filepath.Join(g.Dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	assertGit(t, g, filepath.Join(g.Dir, ".git"), "linkdir")
}

// F4 and F1: the walk of a sparse checkout reads the skip-worktree
// .gitignore from its index blob through the caller's repository
// (Walker.Repo), asked for once however many goroutines walk, and a
// checkout that is not sparse never asks for it.
func TestWalkerSparseReadsCallersRepo(t *testing.T) {
	gittest.SetEnv(t)
	g := gittest.New(t)
	g.Write(".gitignore", "build/\n", "AGENTS.md", "r\n", "a/x.go", "x\n")
	g.Commit("c")
	gitDir := filepath.Join(g.Dir, ".git")
	for _, sparse := range []bool{false, true} {
		if sparse {
			g.Git("sparse-checkout", "set", "--no-cone", "/*", "!/.gitignore")
		}
		if err := os.MkdirAll(filepath.Join(g.Dir, "build", "deep"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 4} {
			scan, err := repo.ScanIndexOf(g.Dir, true)
			if err != nil {
				t.Fatal(err)
			}
			wt, err := resolve.OpenWorktree(g.Dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer wt.Close()
			opens := 0
			w := &Walker{Top: g.Dir, GitDir: gitDir, Tracked: scan.Tracked.Has, SkipIgnores: scan.SkipIgnores, List: wt.ListKeep, Workers: workers,
				Repo: func() (*repo.Repo, error) {
					opens++
					r, err := repo.OpenAt(g.Dir, gitDir)
					if err == nil {
						t.Cleanup(func() { r.Close() })
					}
					return r, err
				}}
			got, err := w.WorktreeDirs()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.DirsBelow("a"); err != nil {
				t.Fatal(err)
			}
			want, wantOpens := ",a", 0
			if sparse {
				wantOpens = 1
			}
			if strings.Join(got, ",") != want || opens != wantOpens {
				t.Errorf("sparse %v, %d workers: %q, %d opens; want %q, %d", sparse, workers, got, opens, want, wantOpens)
			}
		}
	}
}
