package repo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/repo/internal/odb"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

func open(t *testing.T, dir string) *Repo {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// openPar is open with n goroutines reading objects (F1's twins: 1 and 2).
func openPar(t *testing.T, dir string, n int) *Repo {
	t.Helper()
	r := open(t, dir)
	r.opts.parallelism = n
	return r
}

func headTree(t *testing.T, r *Repo) *Tree {
	t.Helper()
	c, ok, err := r.Head()
	if err != nil || !ok {
		t.Fatalf("Head: %v %v", ok, err)
	}
	th, err := r.CommitTree(c)
	if err != nil {
		t.Fatal(err)
	}
	return r.Tree(th, "HEAD")
}

// kindsRepo commits one entry of every kind a tree can hold.
func kindsRepo(t *testing.T) *gittest.Repo {
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "run.sh", "#!/bin/sh\n", "docs/AGENTS.md", "docs\n",
		"dirfile/AGENTS.md/inner.txt", "x\n")
	if err := os.Chmod(filepath.Join(g.Dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.Symlink("../AGENTS.md", "link/AGENTS.md")
	g.Symlink("docs", "linkdir")
	g.Symlink("linkdir", "linklink")
	g.Symlink("loop", "loop")
	g.Symlink("../outside", "out")
	g.Symlink("/etc", "abs")
	g.Git("add", "-A")
	// A submodule entry (mode 160000) without a checkout of it.
	g.Git("update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,sub")
	g.Git("commit", "-q", "-m", "kinds")
	return g
}

// TestTreeKinds checks R6 and C1/C2 over a commit's tree: 120000 is a
// symbolic link (its target from the blob), 160000 a submodule, a tree a
// directory, whatever a checkout holds.
func TestTreeKinds(t *testing.T) {
	g := kindsRepo(t)
	r := open(t, g.Dir)
	for _, src := range []resolve.Source{headTree(t, r), mustIndex(t, r)} {
		t.Run(src.Name(), func(t *testing.T) {
			ents, err := src.List("")
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]resolve.Kind{}
			for _, e := range ents {
				got[e.Name] = e.Kind
			}
			want := map[string]resolve.Kind{"AGENTS.md": resolve.Regular, "run.sh": resolve.Regular, "docs": resolve.Dir,
				"dirfile": resolve.Dir, "link": resolve.Dir, "linkdir": resolve.Symlink, "sub": resolve.Submodule, "loop": resolve.Symlink}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s: kind %v, want %v (all: %v)", k, got[k], v, got)
				}
			}
			if e, _ := src.Lstat("link/AGENTS.md"); e.Kind != resolve.Symlink {
				t.Errorf("link/AGENTS.md is %v, want a symlink (C1)", e.Kind)
			}
			if got, err := src.LinkTarget("link/AGENTS.md"); got != "../AGENTS.md" || err != nil {
				t.Errorf("LinkTarget = %q, %v; want ../AGENTS.md", got, err)
			}
			if e, _ := src.Lstat("dirfile/AGENTS.md"); e.Kind != resolve.Dir {
				t.Errorf("dirfile/AGENTS.md is %v, want a directory (C2)", e.Kind)
			}
			data, kind, size, err := src.Read("docs/AGENTS.md", 100)
			if err != nil || kind != resolve.Regular || string(data) != "docs\n" || size != 5 {
				t.Errorf("Read docs/AGENTS.md = %q %v %d %v", data, kind, size, err)
			}
			if _, kind, _, err := src.Read("link/AGENTS.md", 100); kind != resolve.Symlink || err != nil {
				t.Errorf("Read of a symlink gave kind %v, %v; want Symlink and no data", kind, err)
			}
			if _, err := src.List("linkdir"); !errors.As(err, new(*resolve.LinkedDirError)) {
				t.Errorf("List(linkdir) = %v, want a LinkedDirError (C1)", err)
			}
			if _, err := src.List("nope"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("List(nope) = %v, want fs.ErrNotExist", err)
			}
			if _, err := src.List("AGENTS.md"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("List(AGENTS.md) = %v, want fs.ErrNotExist", err)
			}
			if _, err := src.List("sub"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("List(sub) = %v, want fs.ErrNotExist", err)
			}
			// Like lstat(2) in a checkout: links on the way are followed by
			// their text (never opened), the last component is not.
			for p, want := range map[string]resolve.Kind{
				"linkdir/AGENTS.md": resolve.Regular, "linkdir/nope.md": resolve.Missing,
				"loop/AGENTS.md": resolve.Missing, "out/AGENTS.md": resolve.Missing, "abs/AGENTS.md": resolve.Missing,
				"linklink/AGENTS.md": resolve.Regular, "link/AGENTS.md": resolve.Symlink,
			} {
				if e, err := src.Lstat(p); e.Kind != want || err != nil {
					t.Errorf("Lstat(%s) = %v, %v; want %v", p, e.Kind, err, want)
				}
			}
		})
	}
}

func mustIndex(t *testing.T, r *Repo) *Index {
	t.Helper()
	x, err := r.Index()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// countingStore records what is asked of the object store.
type countingStore struct {
	objectStore
	sizes, reads int
	maxLimit     int64
	bytes        int
}

func (c *countingStore) Size(h Hash) (int64, error) { c.sizes++; return c.objectStore.Size(h) }
func (c *countingStore) Read(h Hash, typ odb.Type, limit int64) ([]byte, int64, error) {
	if typ == odb.Blob {
		c.reads++
		c.maxLimit = max(c.maxLimit, limit)
	}
	d, n, err := c.objectStore.Read(h, typ, limit)
	if typ == odb.Blob {
		c.bytes += len(d)
	}
	return d, n, err
}

// TestReadChecksSizeFirst checks C3 for the Git sources: the size comes
// from the object header, an oversized blob is never read, and a read asks
// for at most limit+1 bytes; loose and packed objects alike.
func TestReadChecksSizeFirst(t *testing.T) {
	g := gittest.New(t)
	big := strings.Repeat("x", 3<<20)
	g.Write("AGENTS.md", big, "small/AGENTS.md", "hello\n")
	g.Commit("big")
	for _, packed := range []bool{false, true} {
		if packed {
			g.Git("repack", "-a", "-d", "-q")
			g.Git("prune-packed")
		}
		r := open(t, g.Dir)
		cs := &countingStore{objectStore: r.objs}
		r.objs = cs
		tr := headTree(t, r)
		data, kind, size, err := tr.Read("AGENTS.md", 32768)
		if err != nil || kind != resolve.Regular || data != nil || size != int64(len(big)) {
			t.Fatalf("packed=%v: Read(big) = %d bytes, %v, size %d, %v; want no data and the size", packed, len(data), kind, size, err)
		}
		if cs.reads != 0 || cs.sizes != 1 {
			t.Fatalf("packed=%v: oversized blob: %d reads, %d size checks; want 0 and 1", packed, cs.reads, cs.sizes)
		}
		data, _, _, err = tr.Read("small/AGENTS.md", 32768)
		if err != nil || string(data) != "hello\n" || cs.maxLimit != 32768 {
			t.Fatalf("packed=%v: Read(small) = %q %v (limit %d)", packed, data, err, cs.maxLimit)
		}
		// A limit below the size: at most limit+1 bytes, whatever the size.
		d, n, err := r.objs.Read(mustEntry(t, tr, "AGENTS.md").Hash, odb.Blob, 10)
		if err != nil || len(d) != 11 || n != int64(len(big)) {
			t.Fatalf("packed=%v: read(limit 10) = %d bytes, size %d, %v; want 11 bytes", packed, len(d), n, err)
		}
	}
}

func mustEntry(t *testing.T, tr *Tree, p string) *TreeEntry {
	t.Helper()
	e, err := tr.entry(p)
	if err != nil || e == nil {
		t.Fatalf("entry %s: %v", p, err)
	}
	return e
}

func TestDirsBelow(t *testing.T) {
	g := kindsRepo(t)
	r := open(t, g.Dir)
	for _, src := range []interface {
		DirsBelow(string) ([]string, error)
	}{headTree(t, r), mustIndex(t, r)} {
		got, err := src.DirsBelow("")
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"", "dirfile", "dirfile/AGENTS.md", "docs", "link", "linkdir", "linklink"} // links to directories are listed (C1)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%T DirsBelow(\"\") = %q, want %q", src, got, want)
		}
		got, _ = src.DirsBelow("dirfile")
		if strings.Join(got, ",") != "dirfile,dirfile/AGENTS.md" {
			t.Errorf("%T DirsBelow(dirfile) = %q", src, got)
		}
		for _, none := range []string{"nope", "linkdir", "AGENTS.md", "sub"} {
			if got, err := src.DirsBelow(none); len(got) != 0 || err != nil {
				t.Errorf("%T DirsBelow(%s) = %q, %v; want none", src, none, got, err)
			}
		}
	}
}

func TestGitCompareOrder(t *testing.T) {
	// Full paths sorted bytewise follow Git's tree order.
	names := []struct {
		name string
		tree bool
	}{{"a", true}, {"a-b", false}, {"a.b", false}, {"a0", false}, {"ab", true}, {"a", false}}
	sorted := make([]string, 0, len(names))
	for _, n := range names {
		s := n.name
		if n.tree {
			s += "/"
		}
		sorted = append(sorted, s)
	}
	sort.Strings(sorted)
	ents := make([]TreeEntry, len(names))
	for i, n := range names {
		ents[i] = TreeEntry{Name: n.name, Mode: ModeRegular}
		if n.tree {
			ents[i].Mode = ModeTree
		}
	}
	sortGit(ents)
	for i, e := range ents {
		s := e.Name
		if e.IsTree() {
			s += "/"
		}
		if s != sorted[i] {
			t.Fatalf("git order %d = %q, want %q (%v)", i, s, sorted[i], sorted)
		}
	}
}

// TestCandidateDirsBelow: for the tree and the index, the directories the
// engine finds holding a candidate are the same whether it looks at every
// directory (DirsBelow) or only at those CandidateDirsBelow returns.
func TestCandidateDirsBelow(t *testing.T) {
	t.Parallel() // each opens its own Repo with its own options (#22)
	g := kindsRepo(t)
	g.Write("a/b/RIVUMI.md", "x\n", "a/b/c/d.txt", "d\n", "a/x.txt", "x\n", "e/AGENTS.override.md", "o\n")
	g.Git("add", "-A")
	g.Git("commit", "-q", "-m", "more")
	opts := resolve.Options{Overrides: []string{"RIVUMI.override.md", "AGENTS.override.md"}, Normals: []string{"RIVUMI.md", "AGENTS.md"}, MaxFileBytes: 1 << 15}
	for _, n := range []int{1, 2, 4} {
		r := openPar(t, g.Dir, n)
		x := mustIndex(t, r)
		checkCandidateDirs(t, []candSource{headTree(t, r), x}, opts)
	}
}

type candSource interface {
	resolve.Source
	DirsBelow(string) ([]string, error)
	CandidateDirsBelow(string, []string) ([]string, error)
}

func checkCandidateDirs(t *testing.T, srcs []candSource, opts resolve.Options) {
	t.Helper()
	for _, src := range srcs {
		e := resolve.New(src, opts)
		holding := func(dirs []string) []string {
			var out []string
			for _, d := range dirs {
				if info, err := e.Dir(d); err == nil && len(info.Files) > 0 {
					out = append(out, d)
				}
			}
			return out
		}
		all, err := src.DirsBelow("")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range append(all, "missing", "AGENTS.md") {
			every, err := src.DirsBelow(p)
			if err != nil {
				t.Fatal(err)
			}
			cands, err := src.CandidateDirsBelow(p, e.Candidates())
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(holding(cands), ","), strings.Join(holding(every), ","); got != want {
				t.Errorf("%s below %q: candidates give %q, every directory %q", src.Name(), p, got, want)
			}
			if len(cands) > len(every) {
				t.Errorf("%s below %q: %d candidate directories of %d", src.Name(), p, len(cands), len(every))
			}
		}
	}
}
