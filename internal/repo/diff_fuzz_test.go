package repo

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"sort"
	"strings"
	"sync"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// fuzzFile is one file of a generated tree.
type fuzzFile struct {
	mode    uint32
	content string
}

var (
	fuzzNames    = []string{"a", "b", "a.b", "a-b", "a0", "AGENTS.md"}
	fuzzModes    = []uint32{ModeRegular, ModeExecutable, ModeSymlink, ModeGitlink}
	fuzzContents = []string{"x", "y", "z\n"}
)

// fuzzTrees decodes two file sets from data: records of 4 bytes
// (op, path, path, content). The first half builds A, the second half
// edits a copy of A into B, so the two share subtrees as real commits do.
func fuzzTrees(data []byte) (a, b map[string]fuzzFile) {
	a = map[string]fuzzFile{}
	half := len(data) / 2 &^ 3
	apply := func(m map[string]fuzzFile, rec []byte, edits bool) {
		depth := 1 + int(rec[1])%3
		comps := []string{fuzzNames[int(rec[1]/3)%len(fuzzNames)], fuzzNames[int(rec[2])%len(fuzzNames)], fuzzNames[int(rec[2]/6)%len(fuzzNames)]}
		p := strings.Join(comps[:depth], "/")
		if edits && rec[0]&1 == 1 {
			delete(m, p)
			for q := range m {
				if strings.HasPrefix(q, p+"/") {
					delete(m, q)
				}
			}
			return
		}
		// No path may be both a file and a directory.
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			delete(m, d)
		}
		for q := range m {
			if strings.HasPrefix(q, p+"/") {
				delete(m, q)
			}
		}
		m[p] = fuzzFile{mode: fuzzModes[int(rec[3])%len(fuzzModes)], content: fuzzContents[int(rec[3]/4)%len(fuzzContents)]}
	}
	for i := 0; i+4 <= half; i += 4 {
		apply(a, data[i:i+4], false)
	}
	b = make(map[string]fuzzFile, len(a))
	for k, v := range a {
		b[k] = v
	}
	for i := half; i+4 <= len(data); i += 4 {
		apply(b, data[i:i+4], true)
	}
	return a, b
}

func putObject(t testing.TB, st storage.Storer, typ plumbing.ObjectType, content []byte) plumbing.Hash {
	o := st.NewEncodedObject()
	o.SetType(typ)
	w, err := o.Writer()
	if err != nil {
		t.Fatal(err)
	}
	w.Write(content)
	w.Close()
	h, err := st.SetEncodedObject(o)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// writeTree stores the files as tree objects (Git's entry order) and a
// commit, and returns the commit id.
func writeTree(t testing.TB, st storage.Storer, files map[string]fuzzFile) string {
	var build func(prefix string) plumbing.Hash
	build = func(prefix string) plumbing.Hash {
		type ent struct {
			name string
			mode uint32
			hash plumbing.Hash
		}
		var ents []ent
		seenDir := map[string]bool{}
		for p, f := range files {
			if prefix != "" && !strings.HasPrefix(p, prefix+"/") {
				continue
			}
			rest := strings.TrimPrefix(p, prefix+"/")
			if prefix == "" {
				rest = p
			}
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				name := rest[:i]
				if !seenDir[name] {
					seenDir[name] = true
					ents = append(ents, ent{name, ModeTree, build(join(prefix, name))})
				}
				continue
			}
			var h plumbing.Hash
			if f.mode == ModeGitlink {
				h = plumbing.ComputeHash(plumbing.CommitObject, []byte(f.content))
			} else {
				h = putObject(t, st, plumbing.BlobObject, []byte(f.content))
			}
			ents = append(ents, ent{rest, f.mode, h})
		}
		sort.Slice(ents, func(i, j int) bool {
			return gitCompare(ents[i].name, ents[i].mode == ModeTree, ents[j].name, ents[j].mode == ModeTree) < 0
		})
		var buf bytes.Buffer
		for _, e := range ents {
			fmt.Fprintf(&buf, "%o %s\x00", e.mode, e.name)
			buf.Write(e.hash[:])
		}
		return putObject(t, st, plumbing.TreeObject, buf.Bytes())
	}
	tree := build("")
	c := fmt.Sprintf("tree %s\nauthor F <f@example.com> 0 +0000\ncommitter F <f@example.com> 0 +0000\n\nfuzz\n", tree)
	return putObject(t, st, plumbing.CommitObject, []byte(c)).String()
}

// FuzzTreeDiff: for random commit pairs, DiffTrees gives exactly the paths
// of `git diff --name-only -z --no-renames A B`, in the same order.
func FuzzTreeDiff(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 1, 0, 0, 0})
	f.Add([]byte{0, 4, 7, 0, 0, 5, 20, 5, 0, 2, 30, 9, 0, 4, 7, 4, 1, 5, 20, 0, 0, 2, 1, 3})
	f.Add([]byte("AGENTS.md AGENTS.md a/b/c a-b a.b swap dir file"))
	f.Add(bytes.Repeat([]byte{3, 9, 27, 81, 2, 8, 200, 17}, 8))
	env := gittest.Env(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			return
		}
		a, b := fuzzTrees(data)
		dir, gg, r := fuzzRepo(t)
		ca, cb := writeTree(t, gg.Storer, a), writeTree(t, gg.Storer, b)
		ta, tb := commitHash(t, r, ca), commitHash(t, r, cb)
		cs, err := r.DiffTrees(ta, tb)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("git", "diff", "--name-only", "-z", "--no-renames", ca, cb)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git diff: %v", err)
		}
		got, want := strings.Join(paths(cs), "\x00"), strings.Join(gittest.Nul(string(out)), "\x00")
		if got != want {
			t.Fatalf("A=%v\nB=%v\n got %q\nwant %q", a, b, got, want)
		}
		for _, c := range cs {
			if c.Kind == Modified && c.Old == c.New && c.OldMode == c.NewMode {
				t.Fatalf("%s reported modified without a change", c.Path)
			}
		}
	})
}

// The fuzz repository is made once per process and shared by every input
// (objects are content-addressed, so inputs cannot disturb each other);
// TestMain removes it.
var (
	fuzzOnce sync.Once
	fuzzDir  string
	fuzzGG   *git.Repository
	fuzzR    *Repo
	fuzzErr  error
)

func fuzzRepo(t *testing.T) (string, *git.Repository, *Repo) {
	fuzzOnce.Do(func() {
		if fuzzDir, fuzzErr = os.MkdirTemp("", "fuzz-tree-diff"); fuzzErr != nil {
			return
		}
		if fuzzGG, fuzzErr = git.PlainInit(fuzzDir, false); fuzzErr != nil {
			return
		}
		fuzzR, fuzzErr = Open(fuzzDir)
	})
	if fuzzErr != nil {
		t.Fatal(fuzzErr)
	}
	return fuzzDir, fuzzGG, fuzzR
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fuzzR != nil {
		fuzzR.Close()
	}
	if fuzzDir != "" {
		os.RemoveAll(fuzzDir)
	}
	os.Exit(code)
}

// BenchmarkDiff measures the hash-pruned walk on a generated repository
// of 3,200 files in 400 directories, packed as git gc leaves it, next to
// `git diff --name-only` on the same commits. Each iteration opens the
// repository afresh, as a run of the command does.
func BenchmarkDiff(b *testing.B) {
	g := benchRepo(b, 400, 8, 40)
	b.Run("base-head", func(b *testing.B) {
		for b.Loop() {
			r, err := Open(g.Dir)
			if err != nil {
				b.Fatal(err)
			}
			h1, _ := r.ResolveCommit("HEAD~1", "base")
			h2, _ := r.ResolveCommit("HEAD", "head")
			t1, _ := r.CommitTree(h1)
			t2, _ := r.CommitTree(h2)
			cs, err := r.DiffTrees(t1, t2)
			if err != nil || len(cs) == 0 {
				b.Fatal(err)
			}
			r.Close()
		}
	})
	b.Run("git-diff-name-only", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("git", "diff", "--name-only", "HEAD~1", "HEAD")
			cmd.Dir, cmd.Env = g.Dir, g.Env
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("staged", func(b *testing.B) {
		for b.Loop() {
			r, err := Open(g.Dir)
			if err != nil {
				b.Fatal(err)
			}
			x, err := r.Index()
			if err != nil {
				b.Fatal(err)
			}
			c, _, _ := r.Head()
			th, _ := r.CommitTree(c)
			if _, err := r.DiffIndex(th, x); err != nil {
				b.Fatal(err)
			}
			r.Close()
		}
	})
	b.Run("git-diff-cached", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("git", "diff", "--cached", "--name-only")
			cmd.Dir, cmd.Env = g.Dir, g.Env
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchRepo generates dirs directories of files files each with
// git fast-import, then a second commit that edits changed directories,
// and packs the repository. The worktree is checked out (for the index).
func benchRepo(tb testing.TB, dirs, files, changed int) *gittest.Repo {
	g := gittest.New(tb)
	var s strings.Builder
	commit := func(mark int, msg string, edit func(d, f int) (string, bool)) {
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\ncommitter B <b@example.com> %d +0000\ndata %d\n%s\n", mark, 1700000000+mark, len(msg), msg)
		if mark > 1 {
			fmt.Fprintf(&s, "from :%d\n", mark-1)
		}
		for d := 0; d < dirs; d++ {
			dir := fmt.Sprintf("svc%02d/pkg%02d/mod%d", d%20, d/20, d%3)
			for f := 0; f < files; f++ {
				content, ok := edit(d, f)
				if !ok {
					continue
				}
				name := fmt.Sprintf("%s/file%d.go", dir, f)
				if f == 0 && d%4 == 0 {
					name = dir + "/AGENTS.md"
				}
				fmt.Fprintf(&s, "M 100644 inline %s\ndata %d\n%s\n", name, len(content), content)
			}
		}
	}
	commit(1, "generated", func(d, f int) (string, bool) { return fmt.Sprintf("package p%d // %d\n", d, f), true })
	commit(2, "edit", func(d, f int) (string, bool) {
		if d%(dirs/changed) != 0 || f > 2 {
			return "", false
		}
		return fmt.Sprintf("package p%d // %d edited\n", d, f), true
	})
	g.Input(s.String(), "fast-import", "--quiet")
	g.Git("gc", "-q")
	g.Git("checkout", "-q", "-f", "main")
	if _, err := os.Stat(g.Dir + "/.git/index"); err != nil {
		tb.Fatal(err)
	}
	return g
}
