package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

func paths(cs []Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Path
	}
	return out
}

func gitDiffNames(g *gittest.Repo, args ...string) []string {
	return gittest.Nul(g.Git(append([]string{"diff", "--name-only", "-z", "--no-renames"}, args...)...))
}

func commitHash(t *testing.T, r *Repo, rev string) Hash {
	t.Helper()
	h, err := r.ResolveCommit(rev, "rev")
	if err != nil {
		t.Fatal(err)
	}
	th, err := r.CommitTree(h)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

// history makes commits exercising every kind of change: edits, adds,
// deletes, renames, mode and type changes, file/directory swaps,
// submodules. It returns the commit ids in order.
func history(t *testing.T, g *gittest.Repo) []string {
	var revs []string
	g.Write("AGENTS.md", "root\n", "a/AGENTS.md", "a\n", "a/b/c/AGENTS.md", "c\n", "a/b/c/x.go", "x\n",
		"a-b/f", "1\n", "a.b", "2\n", "swap/file", "s\n", "t/keep", "k\n")
	revs = append(revs, g.Commit("one"))
	g.Write("AGENTS.md", "root grows\n")
	g.Git("mv", "a/b/c/x.go", "a/b/y.go")
	g.Remove("a-b/f")
	g.Write("new/dir/AGENTS.override.md", "o\n")
	revs = append(revs, g.Commit("two"))
	if err := os.Chmod(filepath.Join(g.Dir, "a.b"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.Remove("swap")
	g.Write("swap", "now a file\n")
	g.Symlink("AGENTS.md", "t/AGENTS.md")
	g.Git("add", "-A")
	g.Git("update-index", "--add", "--cacheinfo", "160000,3333333333333333333333333333333333333333,mod")
	g.Git("commit", "-q", "-m", "three")
	revs = append(revs, g.Rev("HEAD"))
	g.Remove("swap", "t/AGENTS.md")
	g.Write("swap/file", "dir again\n", "t/AGENTS.md", "not a link\n")
	g.Git("add", "-A")
	g.Git("update-index", "--add", "--cacheinfo", "160000,4444444444444444444444444444444444444444,mod")
	g.Git("commit", "-q", "-m", "four")
	revs = append(revs, g.Rev("HEAD"))
	return revs
}

// TestDiffTreesMatchesGit: the changed-path set is exactly
// `git diff --name-only --no-renames A B` (renames give both sides, R7).
func TestDiffTreesMatchesGit(t *testing.T) {
	t.Parallel() // each opens its own Repo with its own options (#22)
	g := gittest.New(t)
	revs := history(t, g)
	for _, n := range []int{1, 4} {
		r := openPar(t, g.Dir, n) // a fresh cache each time
		for i := range revs {
			for j := range revs {
				a, b := commitHash(t, r, revs[i]), commitHash(t, r, revs[j])
				cs, err := r.DiffTrees(a, b)
				if err != nil {
					t.Fatal(err)
				}
				got, want := strings.Join(paths(cs), "\n"), strings.Join(gitDiffNames(g, revs[i], revs[j]), "\n")
				if got != want {
					t.Errorf("parallelism %d: diff %d..%d:\n got %q\nwant %q", n, i, j, got, want)
				}
			}
		}
	}
	r := open(t, g.Dir)
	for i := range revs {
		for j := range revs {
			a, b := commitHash(t, r, revs[i]), commitHash(t, r, revs[j])
			cs, err := r.DiffTrees(a, b)
			if err != nil {
				t.Fatal(err)
			}
			got, want := strings.Join(paths(cs), "\n"), strings.Join(gitDiffNames(g, revs[i], revs[j]), "\n")
			if got != want {
				t.Errorf("diff %d..%d:\n got %q\nwant %q", i, j, got, want)
			}
		}
	}
	// A rename is both sides.
	cs, _ := r.DiffTrees(commitHash(t, r, revs[0]), commitHash(t, r, revs[1]))
	kinds := map[string]ChangeKind{}
	for _, c := range cs {
		kinds[c.Path] = c.Kind
	}
	if kinds["a/b/c/x.go"] != Deleted || kinds["a/b/y.go"] != Added || kinds["AGENTS.md"] != Modified {
		t.Errorf("kinds = %v", kinds)
	}
	// Against the empty tree (zero Hash): every file.
	cs, err := r.DiffTrees(Hash{}, commitHash(t, r, revs[3]))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(cs), len(gittest.Nul(g.Git("ls-tree", "-r", "-z", "--name-only", revs[3]))); got != want {
		t.Errorf("empty..HEAD gave %d paths, want %d", got, want)
	}
}

// deepRepo has 8 top directories of 4 levels each, 3 files per directory.
func deepRepo(t *testing.T) *gittest.Repo {
	g := gittest.New(t)
	for i := 0; i < 8; i++ {
		d := fmt.Sprintf("top%d", i)
		for lvl := 0; lvl < 4; lvl++ {
			d += fmt.Sprintf("/l%d", lvl)
			for f := 0; f < 3; f++ {
				g.Write(fmt.Sprintf("%s/f%d.txt", d, f), d)
			}
		}
	}
	g.Commit("deep")
	return g
}

// TestDiffTreesIsHashPruned: only trees whose ids differ are loaded.
func TestDiffTreesIsHashPruned(t *testing.T) {
	g := deepRepo(t)
	g.Write("top3/l0/l1/l2/l3/f1.txt", "changed")
	g.Commit("one deep change")
	r := open(t, g.Dir)
	a, b := commitHash(t, r, "HEAD~1"), commitHash(t, r, "HEAD")
	r.treeLoads = 0
	cs, err := r.DiffTrees(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Path != "top3/l0/l1/l2/l3/f1.txt" {
		t.Fatalf("changes %v", paths(cs))
	}
	// root, top3, l0, l1, l2, l3 on each side: 12 trees of the 66 per commit.
	if r.treeLoads != 12 {
		t.Errorf("loaded %d trees, want 12 (the path of the change on both sides)", r.treeLoads)
	}
}

// looseObjectPath returns the file of a loose object.
func looseObjectPath(g *gittest.Repo, id string) string {
	return filepath.Join(g.Dir, ".git", "objects", id[:2], id[2:])
}

// TestDiffTreesMissingObject is §10: a missing subtree is an error, never
// a shorter diff (go-git's object.DiffTree would treat it as empty).
func TestDiffTreesMissingObject(t *testing.T) {
	g := deepRepo(t)
	g.Write("top5/l0/l1/new.txt", "new")
	g.Commit("add")
	sub := strings.TrimSpace(g.Git("rev-parse", "HEAD:top5/l0"))
	if err := os.Remove(looseObjectPath(g, sub)); err != nil {
		t.Fatal(err)
	}
	r := open(t, g.Dir)
	_, err := r.DiffTrees(commitHash(t, r, "HEAD~1"), commitHash(t, r, "HEAD"))
	var me *MissingObjectError
	if !errors.As(err, &me) || me.Hash.String() != sub || !strings.Contains(err.Error(), "top5/l0/") {
		t.Fatalf("err = %v, want the missing tree %s named", err, sub)
	}
	if !strings.Contains(err.Error(), "git fsck") {
		t.Errorf("the message names no fix: %v", err)
	}
	// An unchanged subtree is never loaded, so its absence does not matter.
	if _, err := r.DiffTrees(commitHash(t, r, "HEAD~1"), commitHash(t, r, "HEAD~1")); err != nil {
		t.Fatal(err)
	}
}

func cachedNames(g *gittest.Repo) []string {
	return gittest.Nul(g.Git("diff", "--cached", "--name-only", "-z", "--no-renames"))
}

func diffIndex(t *testing.T, g *gittest.Repo) ([]Change, *Repo) {
	t.Helper()
	r := open(t, g.Dir)
	x := mustIndex(t, r)
	var head Hash
	if c, ok, err := r.Head(); err != nil {
		t.Fatal(err)
	} else if ok {
		head, _ = r.CommitTree(c)
	}
	r.treeLoads = 0
	cs, err := r.DiffIndex(head, x)
	if err != nil {
		t.Fatal(err)
	}
	return cs, r
}

// TestDiffIndexMatchesGit: index against HEAD is exactly
// `git diff --cached --name-only --no-renames`: staged edits, adds,
// deletions, renames, mode and type changes; unstaged edits are not part
// of it; `git add -N` entries are not either.
func TestDiffIndexMatchesGit(t *testing.T) {
	g := gittest.New(t)
	// Unborn HEAD: everything staged is added.
	g.Write("AGENTS.md", "root\n", "a/AGENTS.md", "a\n", "a/b/x.go", "x\n", "z/keep", "k\n")
	g.Git("add", "-A")
	cs, _ := diffIndex(t, g)
	if got, want := strings.Join(paths(cs), ","), strings.Join(cachedNames(g), ","); got != want || got == "" {
		t.Fatalf("unborn HEAD: got %q, want %q", got, want)
	}
	g.Commit("one")
	if cs, _ := diffIndex(t, g); len(cs) != 0 {
		t.Fatalf("clean index: %v", paths(cs))
	}
	g.Write("AGENTS.md", "root staged\n")
	g.Git("add", "AGENTS.md")
	g.Write("AGENTS.md", "root unstaged edit\n", "unstaged.txt", "u\n")
	g.Git("mv", "a/b/x.go", "a/y.go")
	g.Git("rm", "-q", "a/AGENTS.md")
	g.Write("n/AGENTS.override.md", "n\n", "ita.md", "intent\n")
	g.Git("add", "n")
	g.Git("add", "-N", "ita.md")
	g.Git("update-index", "--chmod=+x", "z/keep")
	cs, _ = diffIndex(t, g)
	got, want := strings.Join(paths(cs), ","), strings.Join(cachedNames(g), ",")
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	for _, p := range []string{"a/AGENTS.md", "a/b/x.go", "a/y.go", "n/AGENTS.override.md", "z/keep", "AGENTS.md"} {
		if !strings.Contains(","+got+",", ","+p+",") {
			t.Errorf("%s missing from %q", p, got)
		}
	}
	if strings.Contains(got, "ita.md") || strings.Contains(got, "unstaged") {
		t.Errorf("unstaged or intent-to-add paths reported: %q", got)
	}
}

// TestDiffIndexUsesCacheTree: after a commit the index's cache-tree is
// valid, and a staged change loads only the trees on its path.
func TestDiffIndexUsesCacheTree(t *testing.T) {
	g := deepRepo(t)
	g.Write("top6/l0/l1/f0.txt", "staged")
	g.Git("add", "top6/l0/l1/f0.txt")
	cs, r := diffIndex(t, g)
	if len(cs) != 1 || cs[0].Path != "top6/l0/l1/f0.txt" {
		t.Fatalf("changes %v", paths(cs))
	}
	// root, top6, top6/l0, top6/l0/l1 of HEAD: invalidated by the add.
	if r.treeLoads > 4 {
		t.Errorf("loaded %d trees of HEAD, want at most 4 (cache-tree pruning)", r.treeLoads)
	}
}

// TestDiffIndexConflict: an unmerged path is listed, and reading it is a
// rejection with the reason, not a crash.
func TestDiffIndexConflict(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "base\n")
	g.Commit("base")
	g.Git("checkout", "-q", "-b", "other")
	g.Write("AGENTS.md", "theirs\n")
	g.Commit("theirs")
	g.Git("checkout", "-q", "main")
	g.Write("AGENTS.md", "ours\n")
	g.Commit("ours")
	if _, err := g.Try("merge", "-q", "other"); err == nil {
		t.Fatal("merge did not conflict")
	}
	cs, r := diffIndex(t, g)
	if strings.Join(paths(cs), ",") != "AGENTS.md" {
		t.Fatalf("changes %v", paths(cs))
	}
	x := mustIndex(t, r)
	var re *resolve.RejectError
	if _, _, _, err := x.Read("AGENTS.md", 100); !errors.As(err, &re) || re.Rej.Cause != resolve.CauseConflict {
		t.Fatalf("Read of an unmerged path: %v, want RL012's conflict rejection", err)
	}
}
