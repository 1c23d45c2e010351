package repo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// lsFiles is `git ls-files --stage` as entries, for comparison.
func lsFiles(g *gittest.Repo) []string {
	out := gittest.Nul(g.Git("ls-files", "--stage", "-z"))
	sort.Strings(out)
	return out
}

func entriesAsLsFiles(x *Index) []string {
	var out []string
	for _, e := range x.Entries() {
		out = append(out, strings.TrimLeft(modeString(e.Mode), "0")+" "+e.Hash.String()+" 0\t"+e.Path)
	}
	sort.Strings(out)
	return out
}

func modeString(m uint32) string {
	const digits = "01234567"
	b := make([]byte, 6)
	for i := 5; i >= 0; i-- {
		b[i] = digits[m&7]
		m >>= 3
	}
	return string(b)
}

// TestIndexVersions reads index versions 2, 3 and 4 (prefix-compressed
// paths) and checks every entry against git ls-files.
func TestIndexVersions(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "r\n", "a/AGENTS.md", "a\n", "a/aa/long-name-here.txt", "x\n", "a/ab/long-name-here.txt", "y\n", "b", "b\n")
	g.Symlink("AGENTS.md", "l")
	g.Commit("c")
	for _, v := range []string{"2", "3", "4"} {
		g.Git("update-index", "--index-version", v)
		if v == "3" {
			g.Git("update-index", "--skip-worktree", "b") // extended flags
		}
		r := open(t, g.Dir)
		x := mustIndex(t, r)
		if x.Via() != "" {
			t.Fatalf("v%s: read via %s", v, x.Via())
		}
		if got, want := entriesAsLsFiles(x), lsFiles(g); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("v%s:\n got %q\nwant %q", v, got, want)
		}
	}
}

// TestGitIndexFile: a pre-commit hook of `git commit -a` names the index
// being committed in GIT_INDEX_FILE; that is the staged content.
func TestGitIndexFile(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "committed\n")
	g.Commit("c")
	alt := filepath.Join(t.TempDir(), "alt-index")
	g.Write("AGENTS.md", "in the other index\n")
	g.Env = append(g.Env, "GIT_INDEX_FILE="+alt)
	g.Git("add", "AGENTS.md")
	t.Setenv("GIT_INDEX_FILE", alt)
	r := open(t, g.Dir)
	x := mustIndex(t, r)
	data, _, _, err := x.Read("AGENTS.md", 100)
	if err != nil || string(data) != "in the other index\n" {
		t.Fatalf("Read = %q, %v", data, err)
	}
}

// TestSplitIndex is §10 and F3: a split index (extension link) is read
// natively, merged with its shared index: no fall-back, no note.
func TestSplitIndex(t *testing.T) {
	gittest.SetEnv(t)
	g := gittest.New(t)
	g.Write("AGENTS.md", "r\n", "a/AGENTS.md", "a\n")
	g.Commit("c")
	g.Git("update-index", "--split-index")
	g.Write("a/AGENTS.md", "staged\n")
	g.Git("add", "a/AGENTS.md")
	if _, err := os.Stat(filepath.Join(g.Dir, ".git")); err != nil {
		t.Fatal(err)
	}
	r := open(t, g.Dir)
	x := mustIndex(t, r)
	if x.Via() != "" || len(r.Notes()) != 0 {
		t.Fatalf("split index read via %q, notes %q; want the native reader", x.Via(), r.Notes())
	}
	data, _, _, err := x.Read("a/AGENTS.md", 100)
	if err != nil || string(data) != "staged\n" {
		t.Fatalf("Read = %q, %v", data, err)
	}
	head, _ := r.CommitTree(mustHead(t, r))
	cs, err := r.DiffIndex(head, x)
	if err != nil || strings.Join(paths(cs), ",") != "a/AGENTS.md" {
		t.Fatalf("DiffIndex = %v, %v", paths(cs), err)
	}
}

func mustHead(t *testing.T, r *Repo) Hash {
	t.Helper()
	c, ok, err := r.Head()
	if err != nil || !ok {
		t.Fatalf("Head: %v %v", ok, err)
	}
	return c
}

// TestSparseCheckout is §10: `git sparse-checkout set` turns on
// extensions.worktreeConfig, which go-git's repository check refuses; the
// repository is read with go-git all the same (the extension moves config
// settings only), and the index holds the paths outside the cone.
func TestSparseCheckout(t *testing.T) {
	gittest.SetEnv(t)
	g := gittest.New(t)
	g.Write("AGENTS.md", "r\n", "in/AGENTS.md", "in\n", "out/AGENTS.md", "out\n")
	g.Commit("c")
	g.Git("sparse-checkout", "set", "in")
	if !strings.Contains(g.Git("config", "--list"), "extensions.worktreeconfig=true") {
		t.Fatal("sparse-checkout did not set extensions.worktreeConfig")
	}
	if _, err := os.Stat(filepath.Join(g.Dir, "out")); err == nil {
		t.Fatal("out/ is checked out")
	}
	r := open(t, g.Dir)
	if r.Backend != "go-git" || len(r.Notes()) != 0 {
		t.Fatalf("backend %s, notes %q", r.Backend, r.Notes())
	}
	x := mustIndex(t, r)
	data, _, _, err := x.Read("out/AGENTS.md", 100)
	if err != nil || string(data) != "out\n" {
		t.Fatalf("index Read(out/AGENTS.md) = %q, %v", data, err)
	}
	tr := r.Tree(mustTree(t, r), "HEAD")
	if data, _, _, err := tr.Read("out/AGENTS.md", 100); err != nil || string(data) != "out\n" {
		t.Fatalf("tree Read = %q, %v", data, err)
	}

	// A sparse index (directory entries): expanded natively (F3).
	g.Git("sparse-checkout", "set", "--sparse-index", "in")
	r2 := open(t, g.Dir)
	x2 := mustIndex(t, r2)
	if x2.Via() != "" {
		t.Fatalf("sparse index read via %q", x2.Via())
	}
	if data, _, _, err := x2.Read("out/AGENTS.md", 100); err != nil || string(data) != "out\n" {
		t.Fatalf("sparse index Read = %q, %v", data, err)
	}
}

func mustTree(t *testing.T, r *Repo) Hash {
	t.Helper()
	h, err := r.CommitTree(mustHead(t, r))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestLinkedWorktree is §10: a worktree made with `git worktree add` has a
// .git file; its HEAD and index are its own, objects are shared.
func TestLinkedWorktree(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "main\n")
	g.Commit("c")
	wtDir := filepath.Join(t.TempDir(), "wt")
	g.Git("worktree", "add", "-q", "-b", "feature", wtDir)
	w := gittest.At(t, wtDir)
	w.Write("AGENTS.md", "feature\n")
	w.Commit("feature")
	w.Write("AGENTS.md", "staged in the worktree\n")
	w.Git("add", "AGENTS.md")
	fi, err := os.Lstat(filepath.Join(wtDir, ".git"))
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf(".git of the worktree is %v, want a file", fi)
	}
	r := open(t, wtDir)
	if r.CommonDir == r.GitDir || r.Backend != "go-git" {
		t.Fatalf("common dir %s, git dir %s, backend %s", r.CommonDir, r.GitDir, r.Backend)
	}
	tr := r.Tree(mustTree(t, r), "HEAD")
	if data, _, _, _ := tr.Read("AGENTS.md", 100); string(data) != "feature\n" {
		t.Fatalf("HEAD of the worktree reads %q", data)
	}
	if data, _, _, _ := mustIndex(t, r).Read("AGENTS.md", 100); string(data) != "staged in the worktree\n" {
		t.Fatalf("index of the worktree reads %q", data)
	}
	if _, err := r.ResolveCommit("main", "--base"); err != nil {
		t.Fatalf("main from the worktree: %v", err)
	}
}

// TestSHA256 is §10: go-git v5 does not read SHA-256 repositories; the git
// binary does, and a note says so.
func TestSHA256(t *testing.T) {
	gittest.SetEnv(t)
	g := gittest.New(t, "--object-format=sha256")
	g.Write("AGENTS.md", "one\n", "a/AGENTS.md", "a\n")
	g.Commit("one")
	g.Write("AGENTS.md", "two\n", "b/AGENTS.md", strings.Repeat("b", 5000))
	g.Commit("two")
	g.Write("a/AGENTS.md", "staged\n")
	g.Git("add", "-A")
	r := open(t, g.Dir)
	if r.Backend != "git" || r.Format != "sha256" {
		t.Fatalf("backend %s format %s", r.Backend, r.Format)
	}
	if n := fmt.Sprint(r.Notes()); !strings.Contains(n, "SHA-256") || !strings.Contains(n, "git binary") {
		t.Errorf("notes %q", n)
	}
	a, b := commitHash(t, r, "HEAD~1"), commitHash(t, r, "HEAD")
	if len(a.String()) != 64 {
		t.Fatalf("tree id %s", a)
	}
	cs, err := r.DiffTrees(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(paths(cs), ","), strings.Join(gitDiffNames(g, "HEAD~1", "HEAD"), ","); got != want {
		t.Fatalf("diff %q, want %q", got, want)
	}
	tr := r.Tree(b, "HEAD")
	data, _, size, err := tr.Read("b/AGENTS.md", 100)
	if err != nil || data != nil || size != 5000 {
		t.Fatalf("oversized Read = %d bytes, size %d, %v", len(data), size, err)
	}
	x := mustIndex(t, r)
	if x.Via() != "" {
		t.Fatalf("SHA-256 index read via %s", x.Via())
	}
	// The worktree check's scan reads 32-byte ids too.
	if s, err := ScanIndexOf(g.Dir, true); err != nil || s.Note != "" || !s.Tracked.Has("a") || !s.Tracked.Has("b") {
		t.Fatalf("ScanIndex = %+v, %v", s, err)
	}
	if data, _, _, _ := x.Read("a/AGENTS.md", 100); string(data) != "staged\n" {
		t.Fatalf("index Read = %q", data)
	}
	cs, err = r.DiffIndex(b, x)
	if err != nil || strings.Join(paths(cs), ",") != "a/AGENTS.md" {
		t.Fatalf("DiffIndex %v %v", paths(cs), err)
	}
	if _, err := r.ResolveCommit("main~1", "--base"); err != nil {
		t.Fatal(err)
	}
}

// TestShallowClone is §6: a base commit missing from a shallow clone is an
// error that names the fix.
func TestShallowClone(t *testing.T) {
	src := gittest.New(t)
	src.Write("AGENTS.md", "one\n")
	first := src.Commit("one")
	src.Write("AGENTS.md", "two\n")
	src.Commit("two")
	dst := gittest.At(t, t.TempDir())
	dst.Git("clone", "-q", "--depth", "1", "file://"+src.Dir, ".")
	r := open(t, dst.Dir)
	if !r.Shallow() {
		t.Fatal("not detected as shallow")
	}
	_, err := r.ResolveCommit(first, "--base")
	var mc *MissingCommitError
	if !errors.As(err, &mc) || !mc.Shallow {
		t.Fatalf("err = %v, want a MissingCommitError of a shallow clone", err)
	}
	for _, want := range []string{"fetch-depth: 0", "git fetch --depth=1 origin " + first, "--base " + first} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q: %v", want, err)
		}
	}
	if _, err := r.ResolveCommit("HEAD~1", "--base"); err == nil || !strings.Contains(err.Error(), "fetch-depth: 0") {
		t.Errorf("HEAD~1 in a depth-1 clone: %v", err)
	}
	// Fetching it, as the message says, fixes it.
	dst.Git("fetch", "-q", "--depth=1", "origin", first)
	r2 := open(t, dst.Dir)
	if _, err := r2.ResolveCommit(first, "--base"); err != nil {
		t.Fatalf("after the fetch: %v", err)
	}
}

// TestPartialClone is §10: a blob missing from a partial clone is an error
// naming the partial clone, never a skipped file.
func TestPartialClone(t *testing.T) {
	src := gittest.New(t)
	src.Git("config", "uploadpack.allowFilter", "true")
	src.Write("AGENTS.md", "root\n", "a/AGENTS.md", "a\n")
	src.Commit("one")
	dst := gittest.At(t, t.TempDir())
	dst.Git("clone", "-q", "--filter=blob:none", "--no-checkout", "file://"+src.Dir, ".")
	r := open(t, dst.Dir)
	if r.Promisor() == "" || r.Backend != "go-git" {
		t.Fatalf("promisor %q backend %s", r.Promisor(), r.Backend)
	}
	tr := r.Tree(mustTree(t, r), "HEAD")
	_, _, _, err := tr.Read("a/AGENTS.md", 100)
	var me *MissingObjectError
	if !errors.As(err, &me) || !resolve.IsFatal(err) {
		t.Fatalf("Read = %v; want a fatal MissingObjectError (F6)", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "partial clone") || !strings.Contains(msg, "a/AGENTS.md") {
		t.Errorf("message %q", msg)
	}
	// Through the engine, the run must fail with that error, not just
	// reject a file (F6).
	_, err = resolve.New(r.Tree(mustTree(t, r), "HEAD"), resolve.Options{Normals: []string{"AGENTS.md"}, MaxFileBytes: 100}).Chain("a")
	if !errors.As(err, &me) {
		t.Errorf("Chain(a) = %v; want the MissingObjectError (F6)", err)
	}
}

// TestEmptyRepository: no commits: HEAD is unborn, the index is empty or
// holds the first commit's files; revisions do not resolve.
func TestEmptyRepository(t *testing.T) {
	g := gittest.New(t)
	r := open(t, g.Dir)
	if _, ok, err := r.Head(); ok || err != nil {
		t.Fatalf("Head of an empty repository: %v %v", ok, err)
	}
	x := mustIndex(t, r)
	if len(x.Entries()) != 0 {
		t.Fatal("entries in an empty index")
	}
	if cs, err := r.DiffIndex(Hash{}, x); err != nil || len(cs) != 0 {
		t.Fatalf("DiffIndex %v %v", cs, err)
	}
	if _, err := r.ResolveCommit("HEAD", "--head"); err == nil {
		t.Fatal("HEAD resolved in an empty repository")
	}
	ents, err := r.Tree(Hash{}, "empty").List("")
	if err != nil || len(ents) != 0 {
		t.Fatalf("empty tree List = %v %v", ents, err)
	}
}

// TestDetachedHead: HEAD is a commit id.
func TestDetachedHead(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "one\n")
	first := g.Commit("one")
	g.Write("AGENTS.md", "two\n")
	g.Commit("two")
	g.Git("checkout", "-q", "--detach", first)
	r := open(t, g.Dir)
	if c := mustHead(t, r); c.String() != first {
		t.Fatalf("HEAD = %s, want %s", c, first)
	}
	if _, err := r.ResolveCommit("main", "--base"); err != nil {
		t.Fatal(err)
	}
}

// TestRevisionForms: what go-git parses and what only Git does.
func TestRevisionForms(t *testing.T) {
	gittest.SetEnv(t)
	g := gittest.New(t)
	g.Write("AGENTS.md", "one\n")
	first := g.Commit("one")
	g.Git("tag", "-a", "-m", "annotated", "v1")
	g.Write("AGENTS.md", "two\n")
	g.Commit("two")
	r := open(t, g.Dir)
	for rev, want := range map[string]string{"HEAD~1": first, "v1": first, first[:10]: first, "main^": first, "main@{1}": first} {
		h, err := r.ResolveCommit(rev, "--base")
		if err != nil || h.String() != want {
			t.Errorf("%s = %s, %v; want %s", rev, h, err, want)
		}
	}
	for _, bad := range []string{"-x", "nope", ""} {
		if _, err := r.ResolveCommit(bad, "--base"); err == nil {
			t.Errorf("%q resolved", bad)
		}
	}
}

// TestScanIndex: the streaming scan finds the same symbolic links,
// submodules and tracked directories as git ls-files, for index versions
// 2, 3 (extended flags) and 4 (compressed paths), long paths, and a split
// index (read in full natively, without a note: F3).
func TestScanIndex(t *testing.T) {
	g := gittest.New(t)
	long := strings.Repeat("d", 200) + "/" + strings.Repeat("e", 250)
	g.Write("AGENTS.md", "r\n", "a/AGENTS.md", "a\n", "a/aa/x.txt", "x\n", "a/ab/y.txt", "y\n", "b", "b\n",
		"deep/er/still/f.go", "f\n", long+"/g.txt", "g\n")
	g.Symlink("AGENTS.md", "l")
	g.Symlink("../b", "a/link")
	g.Git("add", "-A")
	g.Git("update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,mods/sub")
	g.Git("commit", "-q", "-m", "c")
	var paths []string
	want := func() (map[string]resolve.Kind, map[string]bool) {
		kinds := map[string]resolve.Kind{}
		tracked := map[string]bool{}
		paths = nil
		for _, rec := range gittest.Nul(g.Git("ls-files", "--stage", "-z")) {
			meta, name, _ := strings.Cut(rec, "\t")
			paths = append(paths, name)
			switch {
			case strings.HasPrefix(meta, "120000"):
				kinds[name] = resolve.Symlink
			case strings.HasPrefix(meta, "160000"):
				kinds[name] = resolve.Submodule
			}
			for d := parentDir(name); d != ""; d = parentDir(d) {
				tracked[d] = true
			}
		}
		return kinds, tracked
	}
	check := func(layout string, wantNote bool) {
		t.Helper()
		for _, win := range []int{1 << 20, 7, 64, 100} {
			o := defaultOptions()
			o.scanWindow = win
			s, err := scanIndexOf(g.Dir, true, o)
			if err != nil {
				t.Fatalf("%s, window %d: %v", layout, win, err)
			}
			k, tr := want()
			if got := trackedAsMap(s.Tracked, paths); fmt.Sprint(s.Kinds) != fmt.Sprint(k) || fmt.Sprint(got) != fmt.Sprint(tr) {
				t.Errorf("%s, window %d:\n got %v %v\nwant %v %v", layout, win, s.Kinds, got, k, tr)
			}
			if (s.Note != "") != wantNote {
				t.Errorf("%s, window %d: note %q", layout, win, s.Note)
			}
			// A check of PATHs asks for the kinds alone: the same kinds,
			// no tracked directories.
			s, err = scanIndexOf(g.Dir, false, o)
			if err != nil || s.Tracked != nil || fmt.Sprint(s.Kinds) != fmt.Sprint(k) {
				t.Errorf("%s, window %d, kinds only: %v %v, %v; want %v", layout, win, s.Kinds, s.Tracked, err, k)
			}
		}
	}
	for _, v := range []string{"2", "3", "4"} {
		g.Git("update-index", "--index-version", v)
		if v == "3" {
			g.Git("update-index", "--skip-worktree", "b")
			g.Write("new.txt", "n\n")
			g.Git("add", "-N", "new.txt") // intent-to-add: extended flags too
		}
		check("v"+v, false)
	}
	g.Git("update-index", "--index-version", "2")
	g.Git("update-index", "--split-index")
	g.Write("a/aa/x.txt", "changed\n")
	g.Git("add", "a/aa/x.txt")
	check("split index", false)
}

// TestRevisionsInEveryObjectLayout: revisions (names, steps, annotated
// tags) resolve through the native object database whether the objects
// are loose, packed with offset deltas or with reference deltas, with no
// fall-back to the git binary (§10).
func TestRevisionsInEveryObjectLayout(t *testing.T) {
	g := gittest.New(t)
	for i := range 6 {
		g.Write("AGENTS.md", strings.Repeat("the same rules again\n", 20)+strconv.Itoa(i), fmt.Sprintf("d/f%d.txt", i%3), strconv.Itoa(i))
		g.Commit(fmt.Sprintf("commit %d", i))
	}
	g.Git("tag", "-a", "-m", "annotated", "v1", "HEAD~1")
	for _, layout := range []struct {
		name string
		args []string
	}{
		{"loose", nil},
		{"ofs-delta", []string{"repack", "-adfq", "--depth=20", "--window=50"}},
		{"ref-delta", []string{"-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq", "--depth=20", "--window=50"}},
	} {
		if layout.args != nil {
			g.Git(layout.args...)
		}
		r := open(t, g.Dir)
		if r.Backend != "go-git" {
			t.Fatalf("%s: backend %s, want the native reader", layout.name, r.Backend)
		}
		for rev, want := range map[string]string{"HEAD~3": g.Rev("HEAD~3"), "v1": g.Rev("v1^{commit}"), "main^^": g.Rev("main^^"), "v1~1^1": g.Rev("v1~2")} {
			h, err := r.ResolveCommit(rev, "--base")
			if err != nil || h.String() != want {
				t.Errorf("%s: %s = %s, %v; want %s", layout.name, rev, h, err, want)
			}
		}
		if len(r.Notes()) != 0 {
			t.Errorf("%s: notes %q: no revision above needs the git binary", layout.name, r.Notes())
		}
	}
}

// A submodule whose path is not UTF-8 puts those bytes into a section
// header of .git/config (git submodule add); the config must still be
// read, as Git reads it (found by the differential run, seed 1796160275).
func TestConfigWithNonUTF8SectionHeader(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "config")
	data := "[core]\n\tbare = false\n[submodule \"bad\xffname/mod\"]\n\tactive = true\n[extensions]\n\tobjectFormat = sha256\n"
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := readGitConfig(name)
	if err != nil {
		t.Fatalf("readGitConfig: %v", err)
	}
	if got := cfg.Section("extensions").Options.Get("objectformat"); got != "sha256" {
		t.Errorf("extensions.objectFormat = %q after the header, want sha256", got)
	}
	if got := cfg.Section("submodule").Subsection("bad\xffname/mod"); got.Options.Get("active") != "true" {
		t.Errorf("submodule \"bad\\xffname/mod\" not found by its bytes: %#v", cfg.Section("submodule").Subsections)
	}
	// The submodule's own config: core.worktree names the path's bytes
	// (differential seeds 1796198325, 1796198330).
	if err := os.WriteFile(name, []byte("[core]\n\tworktree = ../../../bad\xffname/mod\n\texcludesFile = \"a\xff b\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err = readGitConfig(name)
	if err != nil {
		t.Fatalf("readGitConfig with a value that is not UTF-8: %v", err)
	}
	if got := cfg.Section("core").Options.Get("worktree"); got != "../../../bad\xffname/mod" {
		t.Errorf("core.worktree = %q, want the file's bytes", got)
	}
	if got := cfg.Section("core").Options.Get("excludesfile"); got != "a\xff b" {
		t.Errorf("core.excludesFile = %q, want the file's bytes", got)
	}
	// A code point of the escapes' range beside a byte that is not UTF-8
	// cannot be read exactly: refused, not misread.
	if err := os.WriteFile(name, []byte("[core]\n\texcludesFile = \U0010FF41\xff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readGitConfig(name); !errors.Is(err, errConfigEscape) {
		t.Errorf("readGitConfig = %v, want errConfigEscape", err)
	}
}

// FuzzGitConfigBytes: decodeGitConfig never panics, and a value of any
// bytes (no line break, quote, backslash, comment sign or edge space: what
// Git writes unquoted) reads back as those bytes.
func FuzzGitConfigBytes(f *testing.F) {
	for _, s := range []string{"a", "bad\xffname/mod", "\xc3", "\xe2\x80", "\U0010FF41", "é\xff\xfe", "x\x00y"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if e, ok := escapeBytes(v); ok && unescapeBytes(string(e)) != string(v) {
			t.Fatalf("unescape(escape(%q)) = %q", v, unescapeBytes(string(e)))
		}
		decodeGitConfig(v) // never panics
		if bytes.ContainsAny(v, "\n\r\"\\;#\x00") || len(bytes.TrimSpace(v)) != len(v) || len(v) == 0 {
			return
		}
		cfg, err := decodeGitConfig([]byte("[core]\n\texcludesFile = " + string(v) + "\n"))
		if errors.Is(err, errConfigEscape) {
			return
		}
		if err != nil {
			t.Fatalf("value %q: %v", v, err)
		}
		if got := cfg.Section("core").Options.Get("excludesfile"); got != string(v) {
			t.Fatalf("value %q read back as %q", v, got)
		}
	})
}
