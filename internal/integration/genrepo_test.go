package integration

// Generated repositories for the differential test (differential_test.go):
// from a seed, deterministically, a base commit, a head commit and a
// staged state, full of what the resolution contract (SPEC §2, §3) and the
// field conditions (§11) must get right: nested candidates with every kind
// of content, symbolic links to files and directories, gitlinks,
// directories named like candidates, type and mode changes, odd names,
// nested ignore files, and submodules and nested repositories (R1); the
// differential test adds issue #38's inner-repository cases
// (innergen_test.go: uninitialised submodules, core.worktree pointing
// anywhere, a linked worktree).

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Git modes as the index and trees record them.
const (
	modeFile    = "100644"
	modeExec    = "100755"
	modeLink    = "120000"
	modeGitlink = "160000"
	modeTree    = "040000"
)

// genEntry is one non-directory entry of a generated snapshot: a blob
// (file, executable, symbolic link, whose data is the target text) or a
// gitlink (data is the commit id it records).
type genEntry struct {
	mode string
	data []byte
}

// genTree is a snapshot: slash path → entry. Directories are implied.
type genTree map[string]genEntry

func (m genTree) clone() genTree {
	out := make(genTree, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// configName is never touched by a mutation: F7 changes which side's
// config a diff mode uses, and this test holds the config equal on every
// side so both readings agree.
const configName = ".rivumi-lint.yaml"

// put adds p, removing what a checkout could not hold beside it: entries
// at its ancestors (a file becomes a directory) and below it (a directory
// becomes a file). It refuses to remove the config.
func (m genTree) put(p string, e genEntry) bool {
	if p == configName && e.mode != modeFile {
		return false
	}
	var drop []string
	for d := pathParent(p); d != ""; d = pathParent(d) {
		if _, ok := m[d]; ok {
			drop = append(drop, d)
		}
	}
	for q := range m {
		if strings.HasPrefix(q, p+"/") {
			drop = append(drop, q)
		}
	}
	for _, q := range drop {
		if q == configName {
			return false
		}
	}
	for _, q := range drop {
		delete(m, q)
	}
	m[p] = e
	return true
}

// dirs returns every directory the snapshot implies, "" included, sorted.
func (m genTree) dirs() []string {
	set := map[string]bool{"": true}
	for p := range m {
		for d := pathParent(p); d != ""; d = pathParent(d) {
			set[d] = true
		}
	}
	return sortedKeys(set)
}

func (m genTree) paths() []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func pathParent(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func pathJoin(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// genSpec is one generated case.
type genSpec struct {
	seed         uint64
	maxFileBytes int64 // the limit in force (R2's default or the config's)
	base, head   genTree
	staged       genTree           // the index after staging, intent-to-add entries excluded
	ita          map[string][]byte // intent-to-add paths (git add -N) and their worktree bytes
	subdir       string            // a real directory of the head, the second working directory
	untracked    map[string][]byte // files left untracked in the worktree (F4)
	exclude      string            // .git/info/exclude
	inner        []innerRepo       // a submodule and/or a nested repository (R1)
	uninit       []uninitSub       // uninitialised submodules (innergen_test.go)
	elsewhere    []elsewhereRepo   // inner repositories that set core.worktree (innergen_test.go)
	linked       bool              // check a linked worktree of it too (innergen_test.go)
	both         []string          // directories real at the head and when staged, where inner repositories go
}

// innerRepo is a repository inside the generated one: a submodule (a
// second generated repository, `git submodule add`) or a nested
// repository (its own `git init`, untracked by the outer one). R1: the
// whole-worktree scope, --staged and --base/--head never descend into one;
// a PATH inside it is checked in it, as running there would.
type innerRepo struct {
	path         string // slash path in the outer worktree
	submodule    bool
	tree         genTree
	maxFileBytes int64
	dirs         []string // the directories the PATH cases check: "" (its top) and one below
}

func (in innerRepo) kind() string {
	if in.submodule {
		return "submodule"
	}
	return "nested repository"
}

var (
	genCandidates = []string{"RIVUMI.override.md", "AGENTS.override.md", "RIVUMI.md", "AGENTS.md"}
	genDirNames   = []string{"a", "b", "c", "sub", "docs", "deep", "x", "AGENTS.md", "RIVUMI.override.md",
		"with space", "ünï", "p%41", "com,ma", "-dash", "tmp1", "build"}
	genOtherNames = []string{"notes.txt", "agents.md", "AGENT.md", "README.md", ".gitignore", "-lead.md", "a%2Cb,c.md", "ü.md"}
	genIgnores    = []string{"*.md\n", "AGENTS.md\n", "sub/\n", "*\n!RIVUMI.md\n", "tmp[!0-9]\n", "?\n", "a\n!b\n", "/build\n", "**/docs\n"}
)

// generate builds the case of seed. Everything follows from the seed, so a
// mismatch is reproduced with RIVUMI_DIFF_SEED alone.
func generate(seed uint64) *genSpec {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	g := &genSpec{seed: seed, maxFileBytes: 32768, ita: map[string][]byte{}}
	base := genTree{}
	if r.IntN(2) == 0 {
		// A small limit makes C3 cheap to reach; the config is the same on
		// every side (see configName).
		g.maxFileBytes = int64(40 + r.IntN(60))
		base[configName] = genEntry{modeFile, fmt.Appendf(nil, "version: 1\nlimits:\n  max_file_bytes: %d\n", g.maxFileBytes)}
	}
	// Some fixed shapes the issue names, then random entries.
	base.put("AGENTS.md", genEntry{modeFile, g.content(r)})
	if r.IntN(2) == 0 {
		base.put("x/AGENTS.md/notes.txt", genEntry{modeFile, []byte("a directory named like a candidate\n")})
		base.put("x/keep.txt", genEntry{modeFile, []byte("keeps x\n")})
	}
	for n := 8 + r.IntN(30); n > 0; n-- {
		g.addRandom(r, base)
	}
	g.base = base
	head := base.clone()
	for n := 1 + r.IntN(8); n > 0; n-- {
		g.mutate(r, head)
	}
	if r.IntN(3) == 0 {
		head.put("AGENTS.md", genEntry{modeFile, g.content(r)}) // R7: reaches every chain
	}
	g.head = head
	staged := head.clone()
	for n := r.IntN(6); n > 0; n-- {
		g.mutate(r, staged)
	}
	g.staged = staged
	// Intent-to-add files (F3): in real directories of both the head (the
	// worktree holds it) and the staged snapshot, under a free name.
	realHead, realStaged := realDirs(head), realDirs(staged)
	var both []string
	for _, d := range realHead {
		if contains(realStaged, d) {
			both = append(both, d)
		}
	}
	for n := r.IntN(3); n > 0 && len(both) > 0; n-- {
		d := both[r.IntN(len(both))]
		p := pathJoin(d, genCandidates[r.IntN(len(genCandidates))])
		if _, ok := head[p]; ok {
			continue
		}
		if _, ok := staged[p]; ok {
			continue
		}
		if hasPrefixEntry(head, p) || hasPrefixEntry(staged, p) {
			continue
		}
		g.ita[p] = g.content(r)
	}
	// Untracked files for the whole-worktree mode, where ignore rules
	// decide (F4): in new directories and old ones.
	g.untracked = map[string][]byte{}
	g.exclude = genIgnores[r.IntN(len(genIgnores))]
	newDirs := []string{"tmp1", "tmpx", "ü", "b/a", "a/b", "build", "docs/tmp1", "q"}
	for n := r.IntN(6); n > 0; n-- {
		d := newDirs[r.IntN(len(newDirs))]
		if r.IntN(2) == 0 {
			d = realHead[r.IntN(len(realHead))]
		}
		g.untracked[pathJoin(d, g.randName(r))] = g.content(r)
	}
	var subs []string
	for _, d := range realHead {
		if d != "" {
			subs = append(subs, d)
		}
	}
	if len(subs) > 0 {
		g.subdir = subs[r.IntN(len(subs))]
	}
	g.addInner(both)
	g.both = both
	return g
}

// addInner gives g a submodule and/or a nested repository, in directories
// real at the head and when staged. They draw from a stream of their own,
// so every other part of a seed's case is what it was before they existed.
func (g *genSpec) addInner(both []string) {
	r := rand.New(rand.NewPCG(g.seed, 0x1a7e))
	for _, sub := range []bool{true, false} {
		if r.IntN(2) == 0 || len(both) == 0 {
			continue
		}
		name := "nest"
		if sub {
			name = "mod"
		}
		p := pathJoin(both[r.IntN(len(both))], name)
		if _, ok := g.head[p]; ok || hasPrefixEntry(g.head, p) || hasPrefixEntry(g.staged, p) || !plainDirs(p, g.head, g.staged, g.untracked) {
			continue
		}
		if sub && strings.HasPrefix(p, "-") || strings.Contains(p, "/-") {
			continue // `git submodule add` takes a path starting with - for an option, even after --
		}
		if _, ok := g.staged[p]; ok {
			continue
		}
		for q := range g.untracked {
			if q == p || strings.HasPrefix(q, p+"/") {
				delete(g.untracked, q)
			}
		}
		in := innerRepo{path: p, submodule: sub, maxFileBytes: 32768, tree: genTree{}}
		ig := &genSpec{seed: g.seed, maxFileBytes: in.maxFileBytes}
		if r.IntN(2) == 0 {
			// Its own config: a PATH inside it must be checked with it.
			in.maxFileBytes = int64(40 + r.IntN(60))
			ig.maxFileBytes = in.maxFileBytes
			in.tree[configName] = genEntry{modeFile, fmt.Appendf(nil, "version: 1\nlimits:\n  max_file_bytes: %d\n", in.maxFileBytes)}
		}
		// Files the engine rejects, so a descent from the outer checks shows.
		top := []byte("\xff\xfeA\x00G\x00") // UTF-16: C4
		switch r.IntN(3) {
		case 0:
			top = bytes.Repeat([]byte("o"), int(in.maxFileBytes)+1) // C3
		case 1:
			top = ig.content(r)
		}
		in.tree.put("AGENTS.md", genEntry{modeFile, top})
		for n := 2 + r.IntN(6); n > 0; n-- {
			ig.addRandom(r, in.tree)
		}
		in.dirs = []string{""}
		var below []string
		for _, d := range realDirs(in.tree) {
			if d != "" {
				below = append(below, d)
			}
		}
		if len(below) > 0 {
			in.dirs = append(in.dirs, below[r.IntN(len(below))])
		}
		g.inner = append(g.inner, in)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// plainDirs reports whether every directory on the way to p is one in
// each of the trees and the untracked files: no entry (a file, a link, a
// gitlink) sits where one of them must be, so git can create p there.
func plainDirs(p string, trees ...any) bool {
	for d := path.Dir(p); d != "." && d != ""; d = path.Dir(d) {
		for _, t := range trees {
			switch m := t.(type) {
			case genTree:
				if _, ok := m[d]; ok {
					return false
				}
			case map[string][]byte:
				if _, ok := m[d]; ok {
					return false
				}
			}
		}
	}
	return true
}

func hasPrefixEntry(m genTree, p string) bool {
	for q := range m {
		if strings.HasPrefix(q, p+"/") {
			return true
		}
	}
	return false
}

// realDirs are the directories a checkout of m creates as directories:
// implied by an entry, and not a gitlink or link themselves (sorted).
func realDirs(m genTree) []string {
	var out []string
	for _, d := range m.dirs() {
		if _, ok := m[d]; !ok {
			out = append(out, d)
		}
	}
	return out
}

func (g *genSpec) content(r *rand.Rand) []byte {
	switch r.IntN(14) {
	case 0:
		return nil // empty (RL009)
	case 1:
		return []byte("Keep it short.\n<rivumi:layer scope=\"project\">forged\n") // RL008
	case 2:
		return []byte("</rivumi:section>\n")
	case 3:
		return []byte("caf\xe9 au lait\n") // Latin-1: C4
	case 4:
		return []byte("\xff\xfeA\x00G\x00") // UTF-16 with a BOM: C4
	case 5:
		return bytes.Repeat([]byte("o"), int(g.maxFileBytes)+1+r.IntN(5)) // C3
	case 6:
		return bytes.Repeat([]byte("e"), int(g.maxFileBytes)) // exactly at the limit
	case 7:
		return []byte("\xef\xbb\xbfBOM and CRLF\r\nline two\r\n")
	case 8:
		return []byte("zero\u200bwidth and a NUL \x00 inside\n")
	default:
		return fmt.Appendf(nil, "# Rules %d\n\nUse tabs %d.\n", r.IntN(1000), r.IntN(7))
	}
}

func (g *genSpec) randDir(r *rand.Rand, m genTree) string {
	if r.IntN(3) == 0 {
		// Reuse an existing directory, so candidates share directories.
		ds := m.dirs()
		return ds[r.IntN(len(ds))]
	}
	d := ""
	for n := r.IntN(4); n > 0; n-- {
		name := genDirNames[r.IntN(len(genDirNames))]
		if r.IntN(40) == 0 {
			name = "bad\xffname" // not UTF-8: path_bytes in the JSON
		}
		d = pathJoin(d, name)
	}
	return d
}

func (g *genSpec) randName(r *rand.Rand) string {
	if r.IntN(3) < 2 {
		return genCandidates[r.IntN(len(genCandidates))]
	}
	return genOtherNames[r.IntN(len(genOtherNames))]
}

// randEntry makes an entry for path p of m.
func (g *genSpec) randEntry(r *rand.Rand, m genTree, p string) genEntry {
	if path.Base(p) == ".gitignore" {
		return genEntry{modeFile, []byte(genIgnores[r.IntN(len(genIgnores))])}
	}
	switch n := r.IntN(100); {
	case n < 10:
		return genEntry{modeLink, []byte(g.linkTarget(r, m, p))}
	case n < 14:
		return genEntry{modeGitlink, fmt.Appendf(nil, "%040x", r.Uint64())}
	case n < 20:
		return genEntry{modeExec, g.content(r)}
	default:
		return genEntry{modeFile, g.content(r)}
	}
}

// linkTarget is a link text for a link at p: a directory or file of m
// (relative), a missing path, an absolute path or a loop.
func (g *genSpec) linkTarget(r *rand.Rand, m genTree, p string) string {
	up := strings.Repeat("../", strings.Count(p, "/"))
	switch r.IntN(8) {
	case 0, 1, 2:
		ds := m.dirs()
		d := ds[r.IntN(len(ds))]
		if d == "" {
			return up + "."
		}
		return up + d
	case 3, 4:
		ps := m.paths()
		if len(ps) == 0 {
			return "missing"
		}
		return up + ps[r.IntN(len(ps))]
	case 5:
		return "missing/AGENTS.md"
	case 6:
		return "/etc/passwd"
	default:
		return path.Base(p) // a link to itself: a loop
	}
}

func (g *genSpec) addRandom(r *rand.Rand, m genTree) {
	p := pathJoin(g.randDir(r, m), g.randName(r))
	m.put(p, g.randEntry(r, m, p))
}

// mutate changes m the ways a commit can: content, mode and type changes
// (file → link, file → directory and back), deletions, additions.
func (g *genSpec) mutate(r *rand.Rand, m genTree) {
	ps := m.paths()
	pick := func() string {
		if len(ps) == 0 {
			return ""
		}
		return ps[r.IntN(len(ps))]
	}
	switch r.IntN(11) {
	case 0, 1: // edit
		if p := pick(); p != "" && p != configName {
			switch e := m[p]; e.mode {
			case modeLink:
				m.put(p, genEntry{modeLink, []byte(g.linkTarget(r, m, p))})
			case modeGitlink:
				m.put(p, genEntry{modeGitlink, fmt.Appendf(nil, "%040x", r.Uint64())})
			default:
				m.put(p, genEntry{e.mode, g.content(r)})
			}
		}
	case 2, 3: // add
		g.addRandom(r, m)
	case 4: // delete a file
		if p := pick(); p != "" && p != configName {
			delete(m, p)
		}
	case 5: // delete a directory
		ds := m.dirs()
		if d := ds[r.IntN(len(ds))]; d != "" {
			for _, p := range ps {
				if strings.HasPrefix(p, d+"/") && p != configName {
					delete(m, p)
				}
			}
		}
	case 6: // file → symbolic link, or link → file
		if p := pick(); p != "" && p != configName {
			if m[p].mode == modeLink {
				m.put(p, genEntry{modeFile, g.content(r)})
			} else {
				m.put(p, genEntry{modeLink, []byte(g.linkTarget(r, m, p))})
			}
		}
	case 7: // file → directory
		if p := pick(); p != "" && p != configName {
			m.put(p+"/"+g.randName(r), genEntry{modeFile, g.content(r)})
		}
	case 8: // directory → file
		ds := m.dirs()
		if d := ds[r.IntN(len(ds))]; d != "" {
			m.put(d, g.randEntry(r, m, d))
		}
	case 9: // exec bit
		if p := pick(); p != "" && p != configName {
			switch e := m[p]; e.mode {
			case modeFile:
				m[p] = genEntry{modeExec, e.data}
			case modeExec:
				m[p] = genEntry{modeFile, e.data}
			}
		}
	case 10: // the x/AGENTS.md/notes.txt case of R7: delete below a candidate-named directory
		for _, p := range ps {
			for _, c := range genCandidates {
				if strings.Contains("/"+p, "/"+c+"/") {
					delete(m, p)
					return
				}
			}
		}
	}
}

// gitCmd runs git in dir with input, extra environment, and fails the
// test on a non-zero exit.
func gitCmd(t *testing.T, dir string, stdin []byte, extra []string, args ...string) string {
	t.Helper()
	var in *bytes.Reader
	if stdin != nil {
		in = bytes.NewReader(stdin)
	}
	e := env(t, append([]string{"GIT_AUTHOR_DATE=2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2024-01-01T00:00:00Z"}, extra...)...)
	var r result
	if in != nil {
		r = run(t, dir, e, in, "git", args...)
	} else {
		r = run(t, dir, e, nil, "git", args...)
	}
	if r.code != 0 {
		t.Fatalf("git %s in %s: %s", strings.Join(args, " "), dir, r)
	}
	return r.stdout
}

// writeBlobs writes the data of entries into the object database of dir,
// returning the object ids (blobs; a gitlink keeps its recorded id).
func writeBlobs(t *testing.T, dir, tmp string, m genTree, paths []string) map[string]string {
	t.Helper()
	ids := map[string]string{}
	var list bytes.Buffer
	var order []string
	for i, p := range paths {
		e := m[p]
		if e.mode == modeGitlink {
			ids[p] = string(e.data)
			continue
		}
		f := filepath.Join(tmp, fmt.Sprintf("blob%d", i))
		if err := os.WriteFile(f, e.data, 0o644); err != nil {
			t.Fatal(err)
		}
		list.WriteString(f + "\n")
		order = append(order, p)
	}
	if len(order) == 0 {
		return ids
	}
	out := strings.Fields(gitCmd(t, dir, list.Bytes(), nil, "hash-object", "-w", "--no-filters", "--stdin-paths"))
	if len(out) != len(order) {
		t.Fatalf("git hash-object wrote %d objects for %d files", len(out), len(order))
	}
	for i, p := range order {
		ids[p] = out[i]
	}
	return ids
}

// indexInfo is input for `git update-index -z --index-info` that sets the
// given paths of m (and removes the paths in del).
func indexInfo(m genTree, ids map[string]string, set, del []string) []byte {
	var b bytes.Buffer
	for _, p := range del {
		fmt.Fprintf(&b, "0 %040d\t%s\x00", 0, p)
	}
	for _, p := range set {
		fmt.Fprintf(&b, "%s %s\t%s\x00", m[p].mode, ids[p], p)
	}
	return b.Bytes()
}

// commitTree writes m as a commit (with parent, if any) through a private
// index, and returns its id.
func commitTree(t *testing.T, dir string, m genTree, parent, msg string) string {
	t.Helper()
	tmp := t.TempDir()
	ps := m.paths()
	ids := writeBlobs(t, dir, tmp, m, ps)
	idx := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	gitCmd(t, dir, indexInfo(m, ids, ps, nil), idx, "update-index", "--add", "--replace", "-z", "--index-info")
	tree := strings.TrimSpace(gitCmd(t, dir, nil, idx, "write-tree"))
	args := []string{"commit-tree", tree, "-m", msg}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	return strings.TrimSpace(gitCmd(t, dir, nil, nil, args...))
}

// committed is a generated repository with the base and head commits, the
// head checked out, before anything is staged.
type committed struct {
	dir        string
	base, head string
}

// buildCommitted makes the repository of g under parent.
func buildCommitted(t *testing.T, g *genSpec, parent string) committed {
	t.Helper()
	dir := filepath.Join(parent, "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, dir, nil, nil, "init", "-q")
	for _, kv := range [][2]string{{"gc.auto", "0"}, {"maintenance.auto", "false"}, {"core.autocrlf", "false"}, {"core.symlinks", "true"}} {
		gitCmd(t, dir, nil, nil, "config", kv[0], kv[1])
	}
	c := committed{dir: dir}
	c.base = commitTree(t, dir, g.base, "", "base")
	c.head = commitTree(t, dir, g.head, c.base, "head")
	gitCmd(t, dir, nil, nil, "update-ref", "refs/heads/main", c.head)
	gitCmd(t, dir, nil, nil, "reset", "-q", "--hard", "main")
	for i, in := range g.inner {
		at := filepath.Join(dir, filepath.FromSlash(in.path))
		if !in.submodule {
			initRepo(t, at, in.tree)
			continue
		}
		// A submodule is a second repository, cloned in by Git itself and
		// committed: the head gains the gitlink and .gitmodules.
		src := filepath.Join(parent, fmt.Sprintf("inner-%d", i))
		initRepo(t, src, in.tree)
		gitCmd(t, dir, nil, nil, "-c", "protocol.file.allow=always", "submodule", "add", "-q", "-f", "--", src, in.path) // -f: the parent may be ignored
		gitCmd(t, dir, nil, nil, "commit", "-q", "-m", "submodule")
		c.head = strings.TrimSpace(gitCmd(t, dir, nil, nil, "rev-parse", "HEAD"))
	}
	c.head = buildInnerCases(t, g, parent, dir, c.head)
	return c
}

// initRepo makes a repository at dir whose one commit, checked out, is m.
func initRepo(t *testing.T, dir string, m genTree) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, dir, nil, nil, "init", "-q")
	for _, kv := range [][2]string{{"gc.auto", "0"}, {"maintenance.auto", "false"}, {"core.autocrlf", "false"}, {"core.symlinks", "true"}} {
		gitCmd(t, dir, nil, nil, "config", kv[0], kv[1])
	}
	gitCmd(t, dir, nil, nil, "update-ref", "refs/heads/main", commitTree(t, dir, m, "", "inner"))
	gitCmd(t, dir, nil, nil, "reset", "-q", "--hard", "main")
}

// stage makes the index hold g.staged (with plumbing, which works the same
// in every index layout), then adds the intent-to-add files unless noITA.
func stage(t *testing.T, g *genSpec, dir string, noITA bool) {
	t.Helper()
	var set, del []string
	for _, p := range g.head.paths() {
		if _, ok := g.staged[p]; !ok {
			del = append(del, p)
		}
	}
	for _, p := range g.staged.paths() {
		if e, ok := g.head[p]; !ok || e.mode != g.staged[p].mode || !bytes.Equal(e.data, g.staged[p].data) {
			set = append(set, p)
		}
	}
	if len(set)+len(del) > 0 {
		ids := writeBlobs(t, dir, t.TempDir(), g.staged, set)
		gitCmd(t, dir, indexInfo(g.staged, ids, set, del), nil, "update-index", "--add", "--remove", "--replace", "-z", "--index-info")
	}
	if noITA {
		return
	}
	for _, p := range sortedKeys(mapKeys(g.ita)) {
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, g.ita[p], 0o644); err != nil {
			t.Fatal(err)
		}
		gitCmd(t, dir, nil, []string{"GIT_LITERAL_PATHSPECS=1"}, "add", "-N", "-f", "--", p)
	}
}

func mapKeys(m map[string][]byte) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// addUntracked writes the info/exclude file of dir and g.untracked into
// its worktree (writeUntracked).
func addUntracked(t *testing.T, g *genSpec, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte(g.exclude), 0o644); err != nil {
		t.Fatal(err)
	}
	writeUntracked(t, g, dir)
}

// writeUntracked writes g.untracked into the worktree dir where the disk
// has room for it (nothing in the way, no link on the way).
func writeUntracked(t *testing.T, g *genSpec, dir string) {
	t.Helper()
next:
	for _, p := range sortedKeys(mapKeys(g.untracked)) {
		parts := strings.Split(p, "/")
		for i := 1; i <= len(parts); i++ {
			fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(strings.Join(parts[:i], "/"))))
			switch {
			case os.IsNotExist(err):
			case err != nil:
				t.Fatal(err)
			case i == len(parts) || !fi.IsDir():
				continue next // taken, or a file or link on the way
			}
		}
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, g.untracked[p], 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
