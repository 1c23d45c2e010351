package repo

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/repo/gittest"
	"github.com/rivumi/rivumi-lint/resolve"
)

// candNames are the default candidate names (R2), in priority order.
var candNames = []string{"RIVUMI.override.md", "AGENTS.override.md", "RIVUMI.md", "AGENTS.md"}

// importFixture makes a repository from a git fast-import stream under
// testdata/ and checks out its main branch.
func importFixture(t *testing.T, name string) *gittest.Repo {
	t.Helper()
	stream, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	g := gittest.New(t)
	g.Input(string(stream), "fast-import", "--quiet")
	g.Git("reset", "-q", "--hard", "main")
	return g
}

// twinSnapshot reads each commit against its parent with a fresh Repo, in the order the
// diff modes do (changed paths, candidate directories below each changed
// path, the layers' blobs, the listings), at the current parallelism, and
// describes every answer as text. Each listing and blob is also compared
// with what git prints, so a snapshot that both paths get wrong alike
// still fails.
func twinSnapshot(t *testing.T, g *gittest.Repo) string {
	t.Helper()
	var b strings.Builder
	revs := gittest.Lines(g.Git("rev-list", "--reverse", "--topo-order", "main"))
	for i, rev := range revs {
		r := open(t, g.Dir) // caches as a run starts: each commit its own
		head := commitHash(t, r, rev)
		base := Hash{}
		if i > 0 {
			base = commitHash(t, r, revs[i-1])
		}
		cs, err := r.DiffTrees(base, head)
		if err != nil {
			t.Fatalf("DiffTrees %d: %v", i, err)
		}
		fmt.Fprintf(&b, "commit %d:\n", i)
		for _, c := range cs {
			fmt.Fprintf(&b, "  %s %s\n", c.Kind, c.Path)
		}
		ht := r.Tree(head, "head")
		var dirs []string
		for _, c := range cs {
			below, err := ht.CandidateDirsBelow(parentDir(c.Path), candNames)
			if err != nil {
				t.Fatalf("CandidateDirsBelow(%q): %v", parentDir(c.Path), err)
			}
			dirs = append(dirs, below...)
		}
		slices.Sort(dirs)
		dirs = slices.Compact(dirs)
		fmt.Fprintf(&b, "  candidate dirs %q\n", dirs)
		ht.PrefetchLayers(dirs, candNames, 1<<15)
		if i > 0 {
			r.Tree(base, "base").PrefetchLayers(dirs, candNames, 1<<15)
		}
		all, err := ht.DirsBelow("")
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range append(dirs, all...) {
			describeDir(t, &b, g, ht, rev, d)
		}
		if err := ht.Err(); err != nil {
			t.Fatalf("commit %d: %v", i, err)
		}
		// Every directory holding a candidate is found (R7), whatever
		// else the walk lists.
		for _, d := range gitCandidateDirs(g, rev) {
			if !slices.Contains(dirs, d) && slices.ContainsFunc(cs, func(c Change) bool { return parentDir(c.Path) == "" }) {
				t.Errorf("commit %d: %q holds a candidate, CandidateDirsBelow gave %q", i, d, dirs)
			}
		}
	}
	return b.String()
}

// describeDir writes the listing of d and the content hash of every
// candidate in it, and checks both against git ls-tree and git cat-file.
func describeDir(t *testing.T, b *strings.Builder, g *gittest.Repo, tr *Tree, rev, d string) {
	t.Helper()
	ents, err := tr.List(d)
	if err != nil {
		t.Fatalf("List(%q): %v", d, err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name)
	}
	spec := rev + ":" + d
	want := gittest.Nul(g.Git("ls-tree", "-z", "--name-only", spec))
	if strings.Join(names, "/") != strings.Join(want, "/") {
		t.Errorf("List(%q) = %q, git ls-tree %s gives %q", d, names, spec, want)
	}
	fmt.Fprintf(b, "  %q: %q\n", d, names)
	for _, n := range candNames {
		p := join(d, n)
		data, kind, size, err := tr.Read(p, 1<<15)
		if err != nil {
			continue
		}
		fmt.Fprintf(b, "    %s %v %d %x\n", n, kind, size, sha256.Sum256(data))
		if kind == resolve.Regular {
			if got := g.Git("cat-file", "blob", rev+":"+p); got != string(data) {
				t.Errorf("Read(%q) = %q, git cat-file gives %q", p, data, got)
			}
		}
	}
}

// gitCandidateDirs lists, from git ls-tree, the directories of rev that
// hold an entry named like a candidate.
func gitCandidateDirs(g *gittest.Repo, rev string) []string {
	var out []string
	for _, p := range gittest.Nul(g.Git("ls-tree", "-r", "-t", "-z", "--name-only", rev)) {
		if slices.Contains(candNames, filepath.Base(p)) && !slices.Contains(out, parentDir(p)) {
			out = append(out, parentDir(p))
		}
	}
	return out
}

// checkTwins is F1: the serial path (parallelism 1, as with GOMAXPROCS=1)
// and the parallel one give the same answers, and both are git's.
func checkTwins(t *testing.T, g *gittest.Repo, layout string) string {
	t.Helper()
	var snaps []string
	for _, n := range []int{1, 2} {
		withParallelism(t, n)
		snaps = append(snaps, twinSnapshot(t, g))
	}
	if snaps[0] != snaps[1] {
		t.Errorf("%s: parallelism 1 and 2 differ (F1):\n--- 1:\n%s--- 2:\n%s", layout, snaps[0], snaps[1])
	}
	return snaps[0]
}

// TestF1OneCPUFixture is issue #11 item 1: on the committed fixture, with
// one reader (GOMAXPROCS=1) the serial candidate walk took a cached tree's
// bytes as scratch and the next inflate overwrote a/'s and b/'s entries:
// their AGENTS.md (RL008) vanished from the check. Cached object bytes are
// never reused as scratch (F1).
func TestF1OneCPUFixture(t *testing.T) {
	g := importFixture(t, "f1_one_cpu.fi")
	for _, layout := range []string{"window=0", "deltas", "loose"} {
		switch layout {
		case "window=0":
			g.Git("repack", "-adfq", "--window=0")
		case "deltas":
			g.Git("repack", "-adfq", "--window=50", "--depth=50")
		case "loose":
			unpackAll(t, g)
		}
		snap := checkTwins(t, g, layout)
		for _, d := range []string{"a", "b", "x/y", "x/z"} {
			if !strings.Contains(snap, fmt.Sprintf("%q: [\"AGENTS.md\"]", d)) {
				t.Errorf("%s: %s/AGENTS.md is not listed:\n%s", layout, d, snap)
			}
		}
	}
}

// unpackAll turns the repository's one pack into loose objects.
func unpackAll(t *testing.T, g *gittest.Repo) {
	t.Helper()
	pack := packFile(t, g)
	data, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	// unpack-objects skips objects the repository has: move the pack
	// out of the object directory first.
	for _, ext := range []string{".pack", ".idx", ".rev", ".bitmap"} {
		os.Remove(strings.TrimSuffix(pack, ".pack") + ext)
	}
	g.Input(string(data), "unpack-objects", "-q")
}
