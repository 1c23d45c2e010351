package repo

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
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
// path, the layers' blobs, the listings), with n goroutines reading, and
// describes every answer as text. Each listing and blob is also compared
// with what git prints, so a snapshot that both paths get wrong alike
// still fails.
func twinSnapshot(t *testing.T, g *gittest.Repo, n int) string {
	t.Helper()
	var b strings.Builder
	revs := gittest.Lines(g.Git("rev-list", "--reverse", "--topo-order", "main"))
	for i, rev := range revs {
		r := openPar(t, g.Dir, n) // caches as a run starts: each commit its own
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
		ht.Prefetch(dirs, candNames, 1<<15)
		if i > 0 {
			r.Tree(base, "base").Prefetch(dirs, candNames, 1<<15)
		}
		all, err := ht.DirsBelow("")
		if err != nil {
			t.Fatal(err)
		}
		want := lsTree(g, rev)
		for _, d := range append(dirs, all...) {
			describeDir(t, &b, want, ht, d)
		}
		// Every directory holding a candidate is found (R7), whatever
		// else the walk lists.
		for _, d := range want.candidateDirs() {
			if !slices.Contains(dirs, d) && slices.ContainsFunc(cs, func(c Change) bool { return parentDir(c.Path) == "" }) {
				t.Errorf("commit %d: %q holds a candidate, CandidateDirsBelow gave %q", i, d, dirs)
			}
		}
	}
	return b.String()
}

// describeDir writes the listing of d and the content hash of every
// candidate in it, and checks both against git ls-tree.
func describeDir(t *testing.T, b *strings.Builder, want *gitListing, tr *Tree, d string) {
	t.Helper()
	ents, err := tr.List(d)
	if link, lerr := tr.DirLink(d); lerr != nil {
		t.Fatalf("DirLink(%q): %v", d, lerr)
	} else if isAbsent(err) && link {
		fmt.Fprintf(b, "  %q: a link to a directory\n", d) // listed, never opened (C1)
		return
	}
	if err != nil {
		t.Fatalf("List(%q): %v", d, err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name)
	}
	if strings.Join(names, "/") != strings.Join(want.dirs[d], "/") {
		t.Errorf("List(%q) = %q, git ls-tree gives %q", d, names, want.dirs[d])
	}
	fmt.Fprintf(b, "  %q: %q\n", d, names)
	for _, n := range candNames {
		p := join(d, n)
		data, kind, size, err := tr.Read(p, 1<<15)
		if err != nil {
			continue
		}
		fmt.Fprintf(b, "    %s %v %d %x\n", n, kind, size, sha256.Sum256(data))
		if kind == resolve.Regular && blobID(data) != want.blobs[p] {
			t.Errorf("Read(%q) = %q (blob %s), git ls-tree gives blob %s", p, data, blobID(data), want.blobs[p])
		}
	}
}

// blobID is the SHA-1 object id of a blob with content data.
func blobID(data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// gitListing is a commit as `git ls-tree -r -t` prints it: each
// directory's entry names in Git's order, each file's blob id.
type gitListing struct {
	dirs  map[string][]string
	blobs map[string]string
}

// gitListings memoises lsTree by commit id (objects are
// content-addressed: the same for every layout and repository).
var gitListings sync.Map

func lsTree(g *gittest.Repo, rev string) *gitListing {
	if l, ok := gitListings.Load(rev); ok {
		return l.(*gitListing)
	}
	l := &gitListing{dirs: map[string][]string{"": nil}, blobs: map[string]string{}}
	for _, line := range gittest.Nul(g.Git("ls-tree", "-r", "-t", "-z", rev)) {
		meta, p, _ := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		l.dirs[parentDir(p)] = append(l.dirs[parentDir(p)], path.Base(p))
		switch f[1] {
		case "tree":
			if l.dirs[p] == nil {
				l.dirs[p] = []string{}
			}
		case "blob":
			l.blobs[p] = f[2]
		}
	}
	gitListings.Store(rev, l)
	return l
}

// candidateDirs lists the directories that hold an entry named like a
// candidate.
func (l *gitListing) candidateDirs() []string {
	var out []string
	for d, names := range l.dirs {
		if slices.ContainsFunc(names, func(n string) bool { return slices.Contains(candNames, n) }) {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// checkTwins is F1: the serial path (parallelism 1, as with GOMAXPROCS=1)
// and the parallel one give the same answers, and both are git's.
func checkTwins(t *testing.T, g *gittest.Repo, layout string) string {
	t.Helper()
	var snaps []string
	for _, n := range []int{1, 2} {
		snaps = append(snaps, twinSnapshot(t, g, n))
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
	t.Parallel() // each opens its own Repo with its own options (#22)
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
	pack := g.Pack()
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

// twinRepo makes a history with the shapes the parallel paths split
// differently from the serial ones: identical subtrees, a dozen sibling
// directories whose trees are near copies (so a pack deltas them against
// each other), deep chains, a symlinked directory, and changes at the root,
// in the middle and at the leaves.
func twinRepo(t *testing.T) *gittest.Repo {
	g := gittest.New(t)
	files := func(dir string, n, variant int) {
		for i := range n {
			body := fmt.Sprintf("file %d of a directory like its siblings\n", i)
			if i == variant {
				body += dir + "\n"
			}
			g.Write(join(dir, fmt.Sprintf("f%02d.txt", i)), body)
		}
	}
	g.Write("AGENTS.md", "root\n")
	for i := range 12 {
		d := fmt.Sprintf("s%02d", i)
		files(d, 30, i)
		g.Write(d+"/AGENTS.md", fmt.Sprintf("sibling %d\n", i))
		if i%3 == 0 {
			g.Write(d+"/AGENTS.md", fmt.Sprintf("sibling %d\n</rivumi:layer>\n", i))
		}
	}
	for _, d := range []string{"deep/a", "deep/a/b", "deep/a/b/c", "deep/a/b/c/d"} {
		files(d, 8, 1)
		g.Write(d+"/RIVUMI.md", d+"\n")
	}
	for _, d := range []string{"copy1/x", "copy2/x", "copy3/x"} {
		g.Write(d+"/AGENTS.md", "same\n", d+"/notes.txt", "same\n")
	}
	g.Write("copy3/tail/notes.txt", "after the copies\n")
	g.Symlink("deep/a", "link")
	g.Commit("one")

	g.Write("AGENTS.md", "root changed\n")
	g.Commit("root")

	g.Write("deep/a/b/c/f03.txt", "leaf change\n", "s05/AGENTS.override.md", "override\n")
	g.Remove("s07/f10.txt")
	g.Commit("leaves")

	g.Write("AGENTS.md", "root changed again\n", "copy2/x/AGENTS.md", "no longer the same\n")
	g.Remove("copy1")
	g.Commit("root and copies")
	return g
}

// TestF1SerialTwins is F1: every parallel path of this package
// (candidateDirsParallel, loadTrees under prefetchDiff and
// prefetchIndexDiff, prefetchBlobs under Tree and Index Prefetch)
// gives what its serial twin gives, over every pack layout, and both give
// git's answer.
func TestF1SerialTwins(t *testing.T) {
	t.Parallel() // each opens its own Repo with its own options (#22)
	g := twinRepo(t)
	layouts := []struct {
		name string
		do   func()
	}{
		{"loose", func() {}},
		{"window=0", func() { g.Git("repack", "-adfq", "--window=0") }},
		{"ofs-delta", func() { g.Git("repack", "-adfq", "--window=250", "--depth=250") }},
		{"ref-delta", func() {
			g.Git("-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq", "--window=250", "--depth=250")
		}},
		{"loose again", func() { unpackAll(t, g) }},
	}
	// A staged change for the index paths.
	g.Write("AGENTS.md", "staged root\n", "new/dir/AGENTS.md", "new\n", "deep/a/b/c/d/f00.txt", "staged\n")
	for i := range 6 {
		g.Write(fmt.Sprintf("s%02d/AGENTS.md", i), fmt.Sprintf("staged %d\n", i))
	}
	g.Remove("s09")
	g.Git("add", "-A")
	for _, l := range layouts {
		l.do()
		checkTwins(t, g, l.name)
		var snaps []string
		for _, n := range []int{1, 2} {
			snaps = append(snaps, indexSnapshot(t, g, n))
		}
		if snaps[0] != snaps[1] {
			t.Errorf("%s: index, parallelism 1 and 2 differ (F1):\n--- 1:\n%s--- 2:\n%s", l.name, snaps[0], snaps[1])
		}
	}
}

// indexSnapshot is twinSnapshot for the staged content against HEAD.
func indexSnapshot(t *testing.T, g *gittest.Repo, n int) string {
	t.Helper()
	r := openPar(t, g.Dir, n)
	var b strings.Builder
	head := commitHash(t, r, "HEAD")
	x := mustIndex(t, r)
	cs, err := r.DiffIndex(head, x)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(paths(cs), ","), strings.Join(cachedNames(g), ","); got != want {
		t.Errorf("DiffIndex = %q, git diff --cached gives %q", got, want)
	}
	var dirs []string
	for _, c := range cs {
		fmt.Fprintf(&b, "%s %s\n", c.Kind, c.Path)
		below, err := x.CandidateDirsBelow(parentDir(c.Path), candNames)
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, below...)
	}
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	fmt.Fprintf(&b, "candidate dirs %q\n", dirs)
	x.Prefetch(dirs, candNames, 1<<15)
	r.Tree(head, "HEAD").Prefetch(dirs, candNames, 1<<15)
	staged := map[string]string{}
	for _, line := range gittest.Nul(g.Git("ls-files", "-s", "-z")) {
		meta, p, _ := strings.Cut(line, "\t")
		staged[p] = strings.Fields(meta)[1]
	}
	for _, d := range dirs {
		for _, n := range candNames {
			p := join(d, n)
			data, kind, size, err := x.Read(p, 1<<15)
			if err != nil {
				continue
			}
			fmt.Fprintf(&b, "  %s %v %d %x\n", p, kind, size, sha256.Sum256(data))
			if kind == resolve.Regular && blobID(data) != staged[p] {
				t.Errorf("index Read(%q) = %q (blob %s), git ls-files gives %s", p, data, blobID(data), staged[p])
			}
		}
	}
	return b.String()
}
