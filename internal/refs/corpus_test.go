package refs

// TestCorpus measures the grammar and the resolution on real
// repositories (issue 25's precision table and history replay; the
// numbers are in docs/references.md). It runs only when
// RIVUMI_REFS_CORPUS names a directory of Git repositories (bare or not,
// one per entry):
//
//	RIVUMI_REFS_CORPUS=/tmp/refs-corpus RIVUMI_REFS_OUT=/tmp/refs-out \
//	    go test ./internal/refs -run TestCorpus -v -timeout 1h
//
// For each repository it reads the instruction files of HEAD's tree,
// extracts and resolves every reference and counts, per class, how many
// were found, resolved, unresolved and not checked; then it replays the
// last RIVUMI_REFS_COMMITS (200) commits, resolving each commit's
// references at the commit and at its first parent, and lists the
// references the commit broke (resolved before, unresolved after) and the
// ones it added that resolve on neither side. RIVUMI_REFS_OUT receives
// worktree.tsv (every unresolved or unchecked reference at HEAD, for the
// review by hand) and history.tsv (every finding of the replay).
//
// Git is read with `git cat-file --batch` (a test may start git; the
// command's packages read Git through internal/repo only).

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// instructionNames are the files the corpus reads references from.
var instructionNames = map[string]bool{
	"AGENTS.md": true, "AGENTS.override.md": true, "CLAUDE.md": true, "GEMINI.md": true,
	"RIVUMI.md": true, "RIVUMI.override.md": true, "copilot-instructions.md": true,
}

// gitObjects reads objects from one repository through one
// `git cat-file --batch`, caching trees by id.
type gitObjects struct {
	gitDir string
	cmd    *exec.Cmd
	in     *bufio.Writer
	out    *bufio.Reader
	trees  map[string][]treeEntry
	blobs  map[string][]byte
}

type treeEntry struct {
	name string
	mode string
	id   string
}

func openGit(t *testing.T, gitDir string) *gitObjects {
	cmd := exec.Command("git", "--git-dir", gitDir, "cat-file", "--batch")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("git cat-file: %v", err)
	}
	g := &gitObjects{gitDir: gitDir, cmd: cmd, in: bufio.NewWriter(stdin), out: bufio.NewReaderSize(stdout, 1<<20),
		trees: map[string][]treeEntry{}, blobs: map[string][]byte{}}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	return g
}

func (g *gitObjects) object(spec string) (string, []byte, error) {
	fmt.Fprintln(g.in, spec)
	if err := g.in.Flush(); err != nil {
		return "", nil, err
	}
	head, err := g.out.ReadString('\n')
	if err != nil {
		return "", nil, err
	}
	f := strings.Fields(head)
	if len(f) != 3 {
		return "", nil, fmt.Errorf("cat-file %s: %s", spec, strings.TrimSpace(head))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil {
		return "", nil, err
	}
	data := make([]byte, n+1)
	if _, err := io.ReadFull(g.out, data); err != nil {
		return "", nil, err
	}
	return f[1], data[:n], nil
}

func (g *gitObjects) tree(id string) ([]treeEntry, error) {
	if ents, ok := g.trees[id]; ok {
		return ents, nil
	}
	typ, data, err := g.object(id)
	if err != nil {
		return nil, err
	}
	if typ != "tree" {
		return nil, fmt.Errorf("%s is a %s", id, typ)
	}
	var ents []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+21 {
			return nil, fmt.Errorf("tree %s is corrupt", id)
		}
		ents = append(ents, treeEntry{mode: string(data[:sp]), name: string(data[sp+1 : nul]), id: fmt.Sprintf("%x", data[nul+1:nul+21])})
		data = data[nul+21:]
	}
	g.trees[id] = ents
	return ents, nil
}

func (g *gitObjects) blob(id string) ([]byte, error) {
	if b, ok := g.blobs[id]; ok {
		return b, nil
	}
	_, data, err := g.object(id)
	if err != nil {
		return nil, err
	}
	if len(g.blobs) < 20000 {
		g.blobs[id] = data
	}
	return data, nil
}

func kindOfMode(mode string) resolve.Kind {
	switch mode {
	case "40000", "040000":
		return resolve.Dir
	case "120000":
		return resolve.Symlink
	case "160000":
		return resolve.Submodule
	}
	return resolve.Regular
}

// gitTree is one commit's tree as a Source.
type gitTree struct {
	g    *gitObjects
	root string
	dirs map[string]string // dir → tree id
}

func (g *gitObjects) commitTree(commit string) (*gitTree, error) {
	typ, data, err := g.object(commit)
	if err != nil {
		return nil, err
	}
	if typ != "commit" || !bytes.HasPrefix(data, []byte("tree ")) {
		return nil, fmt.Errorf("%s is not a commit", commit)
	}
	return &gitTree{g: g, root: string(data[5:45]), dirs: map[string]string{"": string(data[5:45])}}, nil
}

func (s *gitTree) dirID(dir string) (string, error) {
	if id, ok := s.dirs[dir]; ok {
		if id == "" {
			return "", fs.ErrNotExist
		}
		return id, nil
	}
	parent, name := path.Split(dir)
	pid, err := s.dirID(strings.TrimSuffix(parent, "/"))
	if err != nil {
		return "", err
	}
	ents, err := s.g.tree(pid)
	if err != nil {
		return "", resolve.Fatal(err)
	}
	id := ""
	for _, e := range ents {
		if e.name == name && kindOfMode(e.mode) == resolve.Dir {
			id = e.id
		}
	}
	s.dirs[dir] = id
	if id == "" {
		return "", fs.ErrNotExist
	}
	return id, nil
}

func (s *gitTree) List(dir string) ([]resolve.Entry, error) {
	id, err := s.dirID(dir)
	if err != nil {
		return nil, err
	}
	ents, err := s.g.tree(id)
	if err != nil {
		return nil, resolve.Fatal(err)
	}
	out := make([]resolve.Entry, len(ents))
	for i, e := range ents {
		out[i] = resolve.Entry{Name: e.name, Kind: kindOfMode(e.mode), Size: -1}
	}
	return out, nil
}

func (s *gitTree) Read(p string, limit int64) ([]byte, resolve.Kind, int64, error) {
	dir, name := path.Split(p)
	id, err := s.dirID(strings.TrimSuffix(dir, "/"))
	if err != nil {
		return nil, resolve.Missing, 0, err
	}
	ents, err := s.g.tree(id)
	if err != nil {
		return nil, 0, 0, resolve.Fatal(err)
	}
	for _, e := range ents {
		if e.name != name {
			continue
		}
		if k := kindOfMode(e.mode); k != resolve.Regular {
			return nil, k, 0, nil
		}
		data, err := s.g.blob(e.id)
		if err != nil {
			return nil, 0, 0, resolve.Fatal(err)
		}
		size := int64(len(data))
		if size > limit+1 {
			data = data[:limit+1]
		}
		return data, resolve.Regular, size, nil
	}
	return nil, resolve.Missing, 0, fs.ErrNotExist
}

// instructionFile is one instruction file of a tree.
type instructionFile struct{ path, blob string }

// instructions lists the instruction files below tree id, regular files
// only (a CLAUDE.md that links to AGENTS.md is the same text).
func (g *gitObjects) instructions(id, dir string, memo map[string][]instructionFile) ([]instructionFile, error) {
	key := id + "\x00" + dir
	if v, ok := memo[key]; ok {
		return v, nil
	}
	ents, err := g.tree(id)
	if err != nil {
		return nil, err
	}
	var out []instructionFile
	for _, e := range ents {
		p := path.Join(dir, e.name)
		switch kindOfMode(e.mode) {
		case resolve.Dir:
			if e.name == "node_modules" {
				continue
			}
			sub, err := g.instructions(e.id, p, memo)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
		case resolve.Regular:
			if instructionNames[e.name] && (e.name != "copilot-instructions.md" || dir == ".github") {
				out = append(out, instructionFile{p, e.id})
			}
		}
	}
	memo[key] = out
	return out, nil
}

// dedupe keeps one file per directory and text: CLAUDE.md is often a
// copy of AGENTS.md beside it, whose references would count twice.
func dedupe(files []instructionFile) []instructionFile {
	seen := map[string]bool{}
	var out []instructionFile
	for _, f := range files {
		k := path.Dir(f.path) + "\x00" + f.blob
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}

func gitOutput(t *testing.T, gitDir string, args ...string) string {
	out, err := exec.Command("git", append([]string{"--git-dir", gitDir}, args...)...).Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// class is a row of the precision table: a kind, with paths split by
// whether their first name exists (the worktree mode's candidate class).
func class(r Ref, res Result) string {
	switch {
	case r.Kind == Path && res.Found > 0:
		return "path (first name exists)"
	case r.Kind == Path:
		return "path (first name missing)"
	case r.Kind == Link && res.Found > 0:
		return "link (first name exists)"
	case r.Kind == Link:
		return "link (first name missing)"
	}
	return r.Kind.String()
}

type tally struct{ found, resolved, unresolved, notChecked int }

func tsvField(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ").Replace(s)
}

func TestCorpus(t *testing.T) {
	dir := os.Getenv("RIVUMI_REFS_CORPUS")
	if dir == "" {
		t.Skip("set RIVUMI_REFS_CORPUS to a directory of Git repositories")
	}
	outDir := os.Getenv("RIVUMI_REFS_OUT")
	if outDir == "" {
		outDir = t.TempDir()
	}
	commits := 200
	if n, err := strconv.Atoi(os.Getenv("RIVUMI_REFS_COMMITS")); err == nil {
		commits = n
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := os.Create(filepath.Join(outDir, "worktree.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Close()
	hist, err := os.Create(filepath.Join(outDir, "history.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer hist.Close()
	fmt.Fprintln(wt, "repo\tfile\tline\tclass\ttool\ttarget\tdir\tstatus\twhy")
	fmt.Fprintln(hist, "repo\tcommit\tdate\tsubject\tfile\tline\tkind\ttarget\tdir\tfinding\ttrigger\twhy")

	totals := map[string]*tally{}
	var classes []string
	count := func(c string) *tally {
		if totals[c] == nil {
			totals[c] = &tally{}
			classes = append(classes, c)
		}
		return totals[c]
	}
	var heads []string
	histCommits, histFindings := 0, 0
	var wtTime, histTime time.Duration
	for _, e := range ents {
		gitDir := filepath.Join(dir, e.Name())
		if st, err := os.Stat(filepath.Join(gitDir, ".git")); err == nil && st.IsDir() {
			gitDir = filepath.Join(gitDir, ".git")
		}
		name := e.Name()
		g := openGit(t, gitDir)
		head := strings.TrimSpace(gitOutput(t, gitDir, "rev-parse", "HEAD"))
		date := strings.TrimSpace(gitOutput(t, gitDir, "log", "-1", "--format=%cs", "HEAD"))
		memo := map[string][]instructionFile{}

		start := time.Now()
		tree, err := g.commitTree(head)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		files, err := g.instructions(tree.root, "", memo)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		files = dedupe(files)
		rv := NewResolver(tree)
		nrefs := 0
		for _, f := range files {
			text, err := g.blob(f.blob)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range Extract(text) {
				nrefs++
				res := rv.Resolve(f.path, r)
				if res.Err != nil {
					t.Errorf("%s %s: %v", name, f.path, res.Err)
				}
				c := count(class(r, res))
				c.found++
				switch res.Status {
				case Resolved:
					c.resolved++
				case Unresolved:
					c.unresolved++
				case NotChecked:
					c.notChecked++
				}
				if res.Status != Resolved {
					fmt.Fprintf(wt, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", name, f.path, r.Line, class(r, res), r.Tool,
						tsvField(r.Target), r.Dir, res.Status, tsvField(res.Why))
				}
			}
		}
		wtTime += time.Since(start)
		heads = append(heads, fmt.Sprintf("| %s | `%s` | %s | %d | %d |", name, head[:12], date, len(files), nrefs))

		start = time.Now()
		var lines [][]string
		for _, l := range strings.Split(gitOutput(t, gitDir, "rev-list", "--first-parent", "--parents", "--max-count="+strconv.Itoa(commits), "HEAD"), "\n") {
			if f := strings.Fields(l); len(f) > 0 {
				lines = append(lines, f)
			}
		}
		for _, l := range lines {
			if len(l) < 2 {
				continue // the root commit
			}
			histCommits++
			c, p := l[0], l[1]
			found, err := replay(g, memo, c, p)
			if err != nil {
				t.Errorf("%s %s: %v", name, c[:12], err)
				continue
			}
			if len(found) == 0 {
				continue
			}
			meta := strings.SplitN(strings.TrimSpace(gitOutput(t, gitDir, "log", "-1", "--format=%cs%x09%s", c)), "\t", 2)
			trig := trigger(gitOutput(t, gitDir, "diff-tree", "-r", "-M", "--name-status", "--no-commit-id", p, c))
			for _, f := range found {
				histFindings++
				fmt.Fprintf(hist, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", name, c[:12], meta[0], tsvField(meta[len(meta)-1]),
					f.file, f.ref.Line, f.ref.Kind, tsvField(f.ref.Target), f.ref.Dir, f.what, trig, tsvField(f.why))
			}
		}
		histTime += time.Since(start)
	}
	sort.Strings(classes)
	var b strings.Builder
	fmt.Fprintf(&b, "\n| repository | HEAD | date | instruction files | references |\n|---|---|---|---|---|\n%s\n", strings.Join(heads, "\n"))
	fmt.Fprintf(&b, "\n| class | found | resolved | unresolved | not checked |\n|---|---|---|---|---|\n")
	for _, c := range classes {
		v := totals[c]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", c, v.found, v.resolved, v.unresolved, v.notChecked)
	}
	fmt.Fprintf(&b, "\nworktree: %v for %d repositories; history: %d commits, %d findings, %v\n", wtTime.Round(time.Millisecond), len(heads), histCommits, histFindings, histTime.Round(time.Millisecond))
	fmt.Fprintf(&b, "written: %s, %s\n", wt.Name(), hist.Name())
	t.Log(b.String())
}

// trigger says which of the cost conditions a commit meets
// (diff-tree --name-status): "delete" or "rename" of any path, an
// instruction file touched ("instructions"), else a build file modified
// ("build file") — which the condition leaves out — or "none".
func trigger(nameStatus string) string {
	var got []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			got = append(got, s)
		}
	}
	for _, l := range strings.Split(nameStatus, "\n") {
		f := strings.Split(l, "\t")
		if len(f) < 2 {
			continue
		}
		switch st := f[0]; {
		case st == "D":
			add("delete")
		case strings.HasPrefix(st, "R"):
			add("rename")
		}
		for _, p := range f[1:] {
			base := path.Base(p)
			switch {
			case instructionNames[base]:
				add("instructions")
			case base == "Makefile" || base == "makefile" || base == "GNUmakefile" || strings.HasSuffix(base, ".mk") ||
				base == "package.json" || isJustfileName(base) || strings.HasSuffix(base, ".just"):
				add("build file")
			}
		}
	}
	if len(got) == 0 {
		return "none"
	}
	sort.Strings(got)
	return strings.Join(got, "+")
}

type finding struct {
	file string
	ref  Ref
	what string // "broken" (resolved at the parent) or "added" (resolves on neither side)
	why  string
}

// changed is what `check --base B --head H` reports for one instruction
// file of H: every reference that resolves in B and not in H (broken by
// the change), and every reference H added (its key is not in B's
// version of the file) that resolves on neither side. old is B's text of
// the file, nil when B lacks it; same says the file is unchanged (none of
// its references is new).
func changed(file string, text, old []byte, same bool, head, base *Resolver) ([]finding, error) {
	var oldKeys map[string]int
	if !same {
		oldKeys = map[string]int{}
		for _, r := range Extract(old) {
			oldKeys[r.Key()]++
		}
	}
	var out []finding
	for _, r := range Extract(text) {
		isNew := false
		if oldKeys != nil {
			if oldKeys[r.Key()] > 0 {
				oldKeys[r.Key()]--
			} else {
				isNew = true
			}
		}
		now := head.Resolve(file, r)
		if now.Err != nil {
			return nil, now.Err
		}
		if now.Status != Unresolved {
			continue
		}
		was := base.Resolve(file, r)
		if was.Err != nil {
			return nil, was.Err
		}
		switch {
		case was.Status == Resolved:
			out = append(out, finding{file, r, "broken", now.Why + " (was " + was.Path + ")"})
		case isNew:
			out = append(out, finding{file, r, "added", now.Why})
		}
	}
	return out, nil
}

// replay checks one commit c against its first parent p.
func replay(g *gitObjects, memo map[string][]instructionFile, c, p string) ([]finding, error) {
	tc, err := g.commitTree(c)
	if err != nil {
		return nil, err
	}
	tp, err := g.commitTree(p)
	if err != nil {
		return nil, err
	}
	if tc.root == tp.root {
		return nil, nil
	}
	files, err := g.instructions(tc.root, "", memo)
	if err != nil {
		return nil, err
	}
	old, err := g.instructions(tp.root, "", memo)
	if err != nil {
		return nil, err
	}
	before := map[string]string{}
	for _, f := range old {
		before[f.path] = f.blob
	}
	rc, rp := NewResolver(tc), NewResolver(tp)
	var out []finding
	for _, f := range dedupe(files) {
		text, err := g.blob(f.blob)
		if err != nil {
			return nil, err
		}
		var oldText []byte
		b, had := before[f.path]
		if had && b != f.blob {
			if oldText, err = g.blob(b); err != nil {
				return nil, err
			}
		}
		found, err := changed(f.path, text, oldText, had && b == f.blob, rc, rp)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}
