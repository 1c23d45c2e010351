package repo_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

var engineOpts = resolve.Options{
	Overrides:    []string{"RIVUMI.override.md", "AGENTS.override.md"},
	Normals:      []string{"RIVUMI.md", "AGENTS.md"},
	MaxFileBytes: 100,
}

// everyCase commits one directory per resolution case.
func everyCase(t *testing.T) *gittest.Repo {
	g := gittest.New(t)
	g.Write(
		"AGENTS.md", "root rules\r\nline two\r\n",
		"a/AGENTS.override.md", "override a\n",
		"a/AGENTS.md", "shadowed by the override\n",
		"a/x/AGENTS.md", "below the override\n",
		"b/AGENTS.md", strings.Repeat("big ", 60),
		"c/AGENTS.md", "bad \xff byte\n",
		"e/AGENTS.md/inner.txt", "a directory named AGENTS.md\n",
		"f/RIVUMI.md", "rivumi wins\n",
		"f/AGENTS.md", "shadowed\n",
		"g/AGENTS.md", "",
		"h/deep/AGENTS.override.md", "deep override\n",
		"i/AGENTS.md", "\xff\xfeu\x00t\x00f\x001\x006\x00",
		"k/AGENTS.md", "executable\n",
		"m/AGENTS.md", "marker <rivumi:section> \u202e\n",
	)
	g.Symlink("../AGENTS.md", "d/AGENTS.md")
	g.Symlink("a", "linkdir")
	if err := os.Chmod(filepath.Join(g.Dir, "k/AGENTS.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.Git("add", "-A")
	// j/AGENTS.md is a submodule (160000); Git checks an uninitialised one
	// out as an empty directory.
	g.Git("update-index", "--add", "--cacheinfo", "160000,2222222222222222222222222222222222222222,j/AGENTS.md")
	if err := os.MkdirAll(filepath.Join(g.Dir, "j/AGENTS.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.Git("commit", "-q", "-m", "every case")
	return g
}

func describe(r *resolve.Resolution) string {
	var b strings.Builder
	for _, l := range r.Layers {
		fmt.Fprintf(&b, "%s %s %s;", l.Path, l.State, l.Reason())
	}
	return b.String()
}

// TestSourcesAgree is R6 and R8: the worktree, the index and the commit's
// tree give the same resolution and the same fingerprint for the same
// content, for every kind of layer and rejection.
func TestSourcesAgree(t *testing.T) {
	g := everyCase(t)
	r, err := repo.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	scan, err := repo.ScanIndexOf(g.Dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := resolve.OpenWorktree(g.Dir, scan.Kinds)
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Close()
	c, _, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	th, err := r.CommitTree(c)
	if err != nil {
		t.Fatal(err)
	}
	tree := r.Tree(th, "HEAD")
	idx, err := r.Index()
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := tree.DirsBelow("")
	if err != nil {
		t.Fatal(err)
	}
	engines := map[string]*resolve.Engine{
		"worktree": resolve.New(wt, engineOpts),
		"index":    resolve.New(idx, engineOpts),
		"tree":     resolve.New(tree, engineOpts),
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		want, err := engines["worktree"].Chain(d)
		if err != nil {
			t.Fatalf("worktree %q: %v", d, err)
		}
		for _, name := range []string{"index", "tree"} {
			got, err := engines[name].Chain(d)
			if err != nil {
				t.Fatalf("%s %q: %v", name, d, err)
			}
			if describe(got) != describe(want) {
				t.Errorf("dir %q: %s resolves\n  %s\nthe worktree\n  %s", d, name, describe(got), describe(want))
			}
			if got.Fingerprint != want.Fingerprint {
				t.Errorf("dir %q: %s fingerprint %s, worktree %s (R8)", d, name, got.Fingerprint, want.Fingerprint)
			}
		}
		for _, l := range want.Layers {
			if l.State == resolve.Rejected {
				seen[l.Reason()] = true
			} else {
				seen[string(l.State)] = true
			}
		}
	}
	for _, k := range []string{"RL001", "RL002", "RL003", "RL004", "active", "suppressed", "shadowed"} {
		if !seen[k] {
			t.Errorf("the fixture has no %s layer", k)
		}
	}
}

// TestSymlinkUnderCoreSymlinksFalse is C1 with a checkout that holds the
// link as a plain file: the tree and the index still say symlink.
func TestSymlinkUnderCoreSymlinksFalse(t *testing.T) {
	src := gittest.New(t)
	src.Write("real.md", "text\n")
	src.Symlink("real.md", "AGENTS.md")
	src.Commit("link")
	dst := gittest.At(t, t.TempDir())
	dst.Git("clone", "-q", "-c", "core.symlinks=false", src.Dir, ".")
	fi, err := os.Lstat(filepath.Join(dst.Dir, "AGENTS.md"))
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the clone holds %v, want a plain file (core.symlinks=false)", fi.Mode())
	}
	r, err := repo.Open(dst.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c, _, _ := r.Head()
	th, _ := r.CommitTree(c)
	idx, err := r.Index()
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []resolve.Source{r.Tree(th, "HEAD"), idx} {
		res, err := resolve.New(src, engineOpts).Chain("")
		if err != nil {
			t.Fatal(err)
		}
		l := res.Layers[0]
		if l.State != resolve.Rejected || l.Rej.Cause != resolve.CauseSymlink || l.Rej.Target != "real.md" {
			t.Errorf("%s: layer %s %s %+v, want RL001 with target real.md", src.Name(), l.Path, l.State, l.Rej)
		}
	}
}
