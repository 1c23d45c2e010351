package repo

// F3 index layouts: --staged equals what `git diff --cached` and
// `git ls-files -s` say, on the native reader and on the git ls-files
// fall-back alike, for index versions 2, 3 and 4, split indexes (entries
// in the shared index, replaced, deleted and added by the split file),
// sparse indexes (sparse directory entries), intent-to-add entries,
// skip-worktree entries, conflict stages and a GIT_INDEX_FILE index; with
// one reading goroutine and with two (F1).

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// layoutCase is one repository state to compare with Git.
type layoutCase struct {
	name string
	// shape is what the index file must hold for the case to test what it
	// says: its version, a link extension, nameless (replaced) entries,
	// sparse directory entries.
	shape indexShape
	// build makes the state; it returns the GIT_INDEX_FILE to read ("" for
	// the worktree's index) and the paths added with `git add -N`.
	build func(t *testing.T, g *gittest.Repo) (indexFile string, ita []string)
}

// layoutBase commits every kind of entry: files at several depths, "a.b"
// beside "a/" (index order is not tree order), a symlink, an executable,
// a submodule, an empty-named-like candidate directory.
func layoutBase(t *testing.T) *gittest.Repo {
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "a/AGENTS.md", "a\n", "a/b/RIVUMI.md", "ab\n", "a.b", "file\n",
		"c/d/AGENTS.md", "cd\n", "c/notes.txt", "n\n", "c/e/f/g.txt", "g\n", "e/f/h.txt", "h\n",
		"x/AGENTS.md/inner.txt", "a directory named AGENTS.md\n", "conf.txt", "base\n", "gone.txt", "gone\n",
		"s/t/AGENTS.md", "st\n", "s/t/u/v.txt", "v\n")
	g.Symlink("a", "link")
	g.Symlink("../../a", "s/t/link")
	g.Write("run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(g.Dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.Git("add", "-A")
	g.Git("update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,mods/sub")
	g.Git("commit", "-q", "-m", "base")
	return g
}

// stageChanges stages an edit, an addition, a removal, a mode change and
// an intent-to-add path; it returns the intent-to-add paths.
func stageChanges(t *testing.T, g *gittest.Repo) []string {
	g.Write("a/AGENTS.md", "staged <rivumi:x>\n", "new/AGENTS.md", "new\n", "b/AGENTS.md", "b\n")
	g.Git("add", "a/AGENTS.md", "new/AGENTS.md", "b/AGENTS.md")
	g.Git("rm", "-q", "--cached", "--sparse", "c/notes.txt")
	g.Git("update-index", "--chmod=+x", "conf.txt")
	g.Write("b/RIVUMI.md", "not staged\n", "x/AGENTS.md/ita.txt", "ita\n")
	g.Git("add", "-N", "b/RIVUMI.md", "x/AGENTS.md/ita.txt")
	return []string{"b/RIVUMI.md", "x/AGENTS.md/ita.txt"}
}

var layoutCases = []layoutCase{
	{"v2", indexShape{version: 2}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		// Intent-to-add needs extended flags: Git writes version 3 then.
		g.Git("update-index", "--index-version", "2")
		g.Write("a/AGENTS.md", "v2\n")
		g.Git("add", "a/AGENTS.md")
		return "", nil
	}},
	{"v3", indexShape{version: 3}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		g.Git("update-index", "--index-version", "3")
		return "", stageChanges(t, g)
	}},
	{"v4", indexShape{version: 4}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		g.Git("update-index", "--index-version", "4")
		return "", stageChanges(t, g)
	}},
	{"split, all shared", indexShape{version: 2, link: true}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		ita := stageChanges(t, g)
		g.Git("update-index", "--split-index")
		return "", ita
	}},
	{"split, changes in the split file", indexShape{version: 3, link: true, replaced: true}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		g.Git("update-index", "--split-index")
		return "", stageChanges(t, g)
	}},
	{"split v4, replaced twice", indexShape{version: 4, link: true, replaced: true}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		g.Git("update-index", "--index-version", "4")
		ita := stageChanges(t, g)
		g.Git("update-index", "--split-index")
		g.Write("a/AGENTS.md", "again\n", "conf.txt", "edited\n")
		g.Git("add", "a/AGENTS.md", "conf.txt")
		g.Git("rm", "-q", "--cached", "e/f/h.txt")
		return "", ita
	}},
	{"sparse index", indexShape{version: 3, dirs: true}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		g.Git("sparse-checkout", "set", "--cone", "--sparse-index", "a", "b", "new", "x")
		if !strings.Contains(g.Git("ls-files", "--sparse"), "c/\n") {
			t.Fatal("git wrote no sparse directory entry for c/")
		}
		// A staged change below a sparse directory. (Git 2.39 corrupts a
		// sparse index that it rewrites while it holds an intent-to-add
		// entry, duplicating entries: stageChanges adds that entry last.)
		blob := strings.TrimSpace(g.Input("sparse <rivumi:y>\n", "hash-object", "-w", "--stdin"))
		g.Git("update-index", "--cacheinfo", "100644,"+blob+",e/f/h.txt")
		ita := stageChanges(t, g)
		if !strings.Contains(g.Git("ls-files", "--sparse"), "s/\n") {
			t.Fatal("git wrote no sparse directory entry for s/:\n" + g.Git("ls-files", "--sparse"))
		}
		return "", ita
	}},
	{"sparse index v4", indexShape{version: 4, dirs: true}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		g.Git("update-index", "--index-version", "4")
		g.Git("sparse-checkout", "set", "--cone", "--sparse-index", "a")
		return "", nil
	}},
	{"skip-worktree", indexShape{version: 3}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		ita := stageChanges(t, g)
		g.Git("update-index", "--skip-worktree", "e/f/h.txt", "a/AGENTS.md")
		return "", ita
	}},
	{"conflict stages", indexShape{version: 2}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		g.Git("checkout", "-q", "-b", "side")
		g.Write("conf.txt", "side\n", "a/AGENTS.md", "side a\n")
		g.Remove("gone.txt")
		g.Commit("side")
		g.Git("checkout", "-q", "main")
		g.Write("conf.txt", "main\n", "gone.txt", "main edit\n", "a/AGENTS.md", "main a\n")
		g.Commit("main")
		if _, err := g.Try("merge", "-q", "side"); err == nil {
			t.Fatal("the merge did not conflict")
		}
		return "", nil
	}},
	// Whether Git writes the conflicted entries as replacements or as new
	// ones varies from run to run (it may refresh or rewrite the shared
	// index): the case is about stages on a split index, either way.
	{"conflict stages, split", indexShape{version: 2, link: true}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		g.Git("update-index", "--split-index")
		g.Git("checkout", "-q", "-b", "side")
		g.Write("conf.txt", "side\n")
		g.Commit("side")
		g.Git("checkout", "-q", "main")
		g.Write("conf.txt", "main\n")
		g.Commit("main")
		if _, err := g.Try("merge", "-q", "side"); err == nil {
			t.Fatal("the merge did not conflict")
		}
		return "", nil
	}},
	{"GIT_INDEX_FILE", indexShape{version: 3}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		// The worktree's index has one change, the temporary one others:
		// `git commit PATH` checks such an index in its pre-commit hook.
		g.Write("a/AGENTS.md", "in the worktree index\n")
		g.Git("add", "a/AGENTS.md")
		tmp := filepath.Join(t.TempDir(), "next-index")
		b, err := os.ReadFile(filepath.Join(g.Dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			t.Fatal(err)
		}
		other := &gittest.Repo{TB: t, Dir: g.Dir, Env: append(append([]string{}, g.Env...), "GIT_INDEX_FILE="+tmp)}
		other.Git("reset", "-q", "HEAD", "--", "a/AGENTS.md")
		other.Write("c/d/AGENTS.md", "in the other index\n")
		other.Git("add", "c/d/AGENTS.md")
		other.Write("c/d/RIVUMI.md", "ita\n")
		other.Git("add", "-N", "c/d/RIVUMI.md")
		return tmp, []string{"c/d/RIVUMI.md"}
	}},
	{"GIT_INDEX_FILE, split", indexShape{version: 2, link: true, replaced: true}, func(t *testing.T, g *gittest.Repo) (string, []string) {
		// A split index elsewhere finds its shared index in the Git
		// directory.
		g.Git("update-index", "--split-index")
		tmp := filepath.Join(t.TempDir(), "next-index")
		b, err := os.ReadFile(filepath.Join(g.Dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			t.Fatal(err)
		}
		other := &gittest.Repo{TB: t, Dir: g.Dir, Env: append(append([]string{}, g.Env...), "GIT_INDEX_FILE="+tmp)}
		other.Write("c/d/AGENTS.md", "in the other index\n")
		other.Git("add", "c/d/AGENTS.md")
		return tmp, nil
	}},
}

type indexShape struct {
	version              uint32
	link, replaced, dirs bool
}

// shapeOf decodes the index file name's layout.
func shapeOf(t *testing.T, name string) indexShape {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	ents, tail, err := parseIndex(data, 20)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sh := indexShape{version: uint32(data[7]), link: tail.link != nil, dirs: tail.dirs > 0}
	for _, e := range ents {
		sh.replaced = sh.replaced || e.Path == ""
	}
	return sh
}

// gitIndex is what Git says of an index: `git ls-files -s -z` (every
// entry), `-t` (skip-worktree tags) and `git diff --cached`.
type gitIndex struct {
	ents    []IndexEntry // Path, Mode, Hash, Stage only
	skip    []string     // skip-worktree paths
	changed []string
}

func askGit(t *testing.T, g *gittest.Repo, indexFile string) gitIndex {
	t.Helper()
	q := g
	if indexFile != "" {
		q = &gittest.Repo{TB: t, Dir: g.Dir, Env: append(append([]string{}, g.Env...), "GIT_INDEX_FILE="+indexFile)}
	}
	var out gitIndex
	for _, rec := range gittest.Nul(q.Git("ls-files", "-s", "-z")) {
		meta, name, _ := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		mode, _ := strconv.ParseUint(f[0], 8, 32)
		h, ok := ParseHash(f[1])
		stage, _ := strconv.Atoi(f[2])
		if len(f) != 3 || !ok {
			t.Fatalf("ls-files record %q", rec)
		}
		out.ents = append(out.ents, IndexEntry{Path: name, Mode: CanonMode(uint32(mode)), Hash: h, Stage: uint8(stage)})
	}
	for _, rec := range gittest.Nul(q.Git("ls-files", "-t", "-z")) {
		if tag, name, _ := strings.Cut(rec, " "); tag == "S" {
			out.skip = append(out.skip, name)
		}
	}
	out.changed = gittest.Nul(q.Git("diff", "--cached", "--name-only", "-z", "--no-renames"))
	return out
}

// compareIndex reads the index as Repo.Index does and compares every
// entry, flag and changed path with Git's answer, through a Repo with the
// options o.
func compareIndex(t *testing.T, g *gittest.Repo, indexFile string, ita []string, want gitIndex, via string, o options) {
	t.Helper()
	r := open(t, g.Dir)
	r.opts = o
	name := indexFile
	if name == "" {
		name = filepath.Join(r.GitDir, "index")
	}
	raw, _, gotVia, err := r.readIndex(name)
	if err != nil {
		t.Fatalf("readIndex: %v", err)
	}
	if gotVia != via {
		t.Fatalf("read via %q, want %q", gotVia, via)
	}
	var got []IndexEntry
	var gotITA, gotSkip []string
	for _, e := range raw {
		got = append(got, IndexEntry{Path: e.Path, Mode: e.Mode, Hash: e.Hash, Stage: e.Stage})
		if e.IntentToAdd {
			gotITA = append(gotITA, e.Path)
		}
		if e.SkipWorktree {
			gotSkip = append(gotSkip, e.Path)
		}
	}
	if !reflect.DeepEqual(got, want.ents) {
		t.Errorf("entries differ from git ls-files -s:\n%s", entryDiff(got, want.ents))
	}
	sort.Strings(ita)
	if fmt.Sprint(gotITA) != fmt.Sprint(ita) {
		t.Errorf("intent-to-add entries %q, want %q", gotITA, ita)
	}
	if fmt.Sprint(gotSkip) != fmt.Sprint(want.skip) {
		t.Errorf("skip-worktree entries %q, git ls-files -t says %q", gotSkip, want.skip)
	}

	// What the engine sees: one entry per path, without intent-to-add.
	if indexFile != "" {
		t.Setenv("GIT_INDEX_FILE", indexFile)
	}
	x, err := r.Index()
	if err != nil {
		t.Fatal(err)
	}
	if x.Via() != via {
		t.Fatalf("Index read via %q, want %q", x.Via(), via)
	}
	var wantPaths, gotPaths []string
	isITA := map[string]bool{}
	for _, p := range ita {
		isITA[p] = true
	}
	for i, e := range want.ents {
		if !isITA[e.Path] && (i == 0 || want.ents[i-1].Path != e.Path) {
			wantPaths = append(wantPaths, e.Path)
		}
	}
	for _, e := range x.Entries() {
		gotPaths = append(gotPaths, e.Path)
	}
	if fmt.Sprint(gotPaths) != fmt.Sprint(wantPaths) {
		t.Errorf("Index paths\n got %q\nwant %q", gotPaths, wantPaths)
	}
	head, err := r.CommitTree(mustHead(t, r))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := r.DiffIndex(head, x)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(paths(cs)) != fmt.Sprint(want.changed) {
		t.Errorf("DiffIndex %q, git diff --cached says %q", paths(cs), want.changed)
	}
	// Every staged blob reads back (nothing points at a wrong id).
	for _, e := range x.Entries() {
		if e.Stage != 0 || e.Mode != ModeRegular && e.Mode != ModeExecutable {
			continue
		}
		if _, k, _, err := x.Read(e.Path, 1<<20); err != nil || k != resolve.Regular {
			t.Errorf("Read(%s) = %v, %v", e.Path, k, err)
		}
	}
}

func entryDiff(got, want []IndexEntry) string {
	var b strings.Builder
	for i := 0; i < max(len(got), len(want)); i++ {
		var gs, ws string
		if i < len(got) {
			gs = fmt.Sprintf("%06o %s %d %s", got[i].Mode, got[i].Hash.Short(), got[i].Stage, got[i].Path)
		}
		if i < len(want) {
			ws = fmt.Sprintf("%06o %s %d %s", want[i].Mode, want[i].Hash.Short(), want[i].Stage, want[i].Path)
		}
		mark := " "
		if gs != ws {
			mark = "!"
		}
		fmt.Fprintf(&b, "%s got %-50s want %s\n", mark, gs, ws)
	}
	return b.String()
}

// compareScan checks the worktree check's scan of the worktree index
// (symbolic links, submodules, tracked directories) against git ls-files,
// through windows small enough to move in the middle of entries, with the
// options o otherwise.
func compareScan(t *testing.T, g *gittest.Repo, want gitIndex, o options) {
	t.Helper()
	kinds := map[string]resolve.Kind{}
	tracked := map[string]bool{}
	var paths []string
	for _, e := range want.ents {
		paths = append(paths, e.Path)
		switch e.Mode {
		case ModeSymlink:
			kinds[e.Path] = resolve.Symlink
		case ModeGitlink:
			kinds[e.Path] = resolve.Submodule
		}
		for d := parentDir(e.Path); d != ""; d = parentDir(d) {
			tracked[d] = true
		}
	}
	for _, win := range []int{1 << 20, 7, 100} {
		o.scanWindow = win
		s, err := scanIndexOf(g.Dir, true, o)
		if err != nil {
			t.Fatalf("ScanIndex, window %d: %v", win, err)
		}
		if got := trackedAsMap(s.Tracked, paths); fmt.Sprint(s.Kinds) != fmt.Sprint(kinds) || fmt.Sprint(got) != fmt.Sprint(tracked) {
			t.Errorf("ScanIndex, window %d:\n got %v %v\nwant %v %v", win, s.Kinds, got, kinds, tracked)
		}
		if s.Note != "" && !o.indexFallback {
			t.Errorf("ScanIndex, window %d: note %q", win, s.Note)
		}
	}
}

// TestIndexLayoutsMatchGit is F3 (and F1 for one and two goroutines): on
// every layout the native reader and the git fall-back give the entries
// of `git ls-files -s`, the intent-to-add and skip-worktree flags, and the
// changed paths of `git diff --cached --name-only --no-renames`.
func TestIndexLayoutsMatchGit(t *testing.T) {
	for _, c := range layoutCases {
		t.Run(c.name, func(t *testing.T) {
			gittest.SetEnv(t)
			g := layoutBase(t)
			indexFile, ita := c.build(t, g)
			name := indexFile
			if name == "" {
				name = filepath.Join(g.Dir, ".git", "index")
			}
			sh := shapeOf(t, name)
			if !c.shape.replaced {
				sh.replaced = false // Git may refresh racily clean entries
			}
			if sh != c.shape {
				t.Fatalf("the index is %+v, want %+v", sh, c.shape)
			}
			want := askGit(t, g, indexFile)
			for _, par := range []int{1, 2} {
				t.Run(fmt.Sprintf("native, parallelism %d", par), func(t *testing.T) {
					o := defaultOptions()
					o.parallelism = par
					compareIndex(t, g, indexFile, ita, want, "", o)
					if indexFile == "" {
						compareScan(t, g, want, o)
					}
				})
			}
			t.Run("git ls-files fall-back", func(t *testing.T) {
				o := defaultOptions()
				o.indexFallback = true
				compareIndex(t, g, indexFile, ita, want, "git ls-files", o)
			})
			// Reading never writes (R10): Git's answer is unchanged.
			if after := askGit(t, g, indexFile); !reflect.DeepEqual(after, want) {
				t.Errorf("the index changed while it was read")
			}
		})
	}
}

// FuzzApplySplit: any link extension over any shared index gives entries
// or an error, never a panic or work beyond what the bitmaps describe
// (§10); a result never holds a nameless entry.
func FuzzApplySplit(f *testing.F) {
	ewah := func(words ...uint64) []byte {
		b := make([]byte, 8, 8+8*len(words)+4)
		binary.BigEndian.PutUint32(b[4:], uint32(len(words)))
		for _, w := range words {
			b = binary.BigEndian.AppendUint64(b, w)
		}
		return append(b, 0, 0, 0, 0)
	}
	// One literal word after an empty run: bit 1 deleted, bit 0 replaced.
	link := append(bytes.Repeat([]byte{1}, 20), ewah(1<<33, 2)...)
	link = append(link, ewah(1<<33, 1)...)
	f.Add(link, uint8(3), uint8(2))
	f.Add(append(bytes.Repeat([]byte{1}, 20), ewah(1|5<<1)...), uint8(4), uint8(0))
	f.Fuzz(func(t *testing.T, ext []byte, nbase, nsplit uint8) {
		l, err := parseLink(ext, 20)
		if err != nil {
			return
		}
		var base, split []IndexEntry
		for i := range int(nbase) {
			base = append(base, IndexEntry{Path: fmt.Sprintf("p%03d", i)})
		}
		for i := range int(nsplit) {
			p := ""
			if i%2 == 1 {
				p = fmt.Sprintf("p%03d", i*3)
			}
			split = append(split, IndexEntry{Path: p, Stage: uint8(i % 4)})
		}
		out, err := applySplit(base, split, l)
		if err != nil {
			return
		}
		for _, e := range out {
			if e.Path == "" {
				t.Fatalf("nameless entry in %+v", out)
			}
		}
	})
}
