package integration

// The runs of the inner-repository cases (b), (c) and (d) of
// innergen_test.go, each in a sub-test of its seed, so one kind is run or
// left out alone:
//
//	-run '^TestDifferential$/^seed=/^uninit$'              (b)
//	-run '^TestDifferential$/^seed=/^worktree-elsewhere$'  (c), named from the outer top
//	-run '^TestDifferential$/^seed=/^worktree-elsewhere-inside$'  (c), started inside it
//	-run '^TestDifferential$/^seed=/^linked$'              (d)
//
// They run in the committed repository after the layouts and the
// inner-path cases, which they leave as they were.

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

func innerCases(t *testing.T, bin string, g *genSpec, c committed, root string) {
	tag := fmt.Sprintf("seed %d (RIVUMI_DIFF_SEED=%d)", g.seed, g.seed)
	if len(g.uninit) > 0 {
		t.Run("uninit", func(t *testing.T) {
			var wds []string
			for _, u := range g.uninit {
				uninitPaths(t, bin, tag+": in the superproject", g, c.dir, u.path, u.paths)
				wds = append(wds, u.path)
			}
			scopeRuns(t, bin, tag+": the superproject, started in an uninitialised submodule", g, c, c.dir, wds)
		})
	}
	if len(g.elsewhere) > 0 {
		t.Run("worktree-elsewhere", func(t *testing.T) {
			for _, e := range g.elsewhere {
				elsewhereCases(t, bin, tag, c.dir, e, false)
			}
		})
		t.Run("worktree-elsewhere-inside", func(t *testing.T) {
			for _, e := range g.elsewhere {
				elsewhereCases(t, bin, tag, c.dir, e, true)
			}
		})
	}
	if g.linked {
		t.Run("linked", func(t *testing.T) { linkedCases(t, bin, tag, g, c, root) })
	}
}

// uninitPaths checks each PATH of the uninitialised submodule p (paths
// relative to it, "" itself) at the top of the worktree top, and again
// relative to p at p: it is an ordinary directory of the superproject
// (R1: no .git, so `git -C p rev-parse --show-toplevel` names the
// superproject; #38.8), its chain the superproject's down to it plus the
// candidates on its disk (R3), as a runtime started there reads them.
//
// The directory holding p, an ordinary one of the superproject, is checked
// first as the control: the engine and the disk oracle must agree there,
// or the oracle, not the engine, is wrong about what the disk holds.
func uninitPaths(t *testing.T, bin, what string, g *genSpec, top, p string, paths []string) {
	t.Helper()
	parent := pathParent(p)
	x := expectation{dirs: []oChain{newOracle(diskSnapshot(t, top, parent, false), g.maxFileBytes).chain(parent)}}
	r := run(t, top, env(t), nil, bin, "check", "--format", "json", "--", displayDir(parent))
	where := fmt.Sprintf("%s: PATH %q, the ordinary directory holding the uninitialised submodule %q (the disk oracle's control)", what, displayDir(parent), p)
	if r.code != 0 && r.code != 1 {
		t.Errorf("%s: exit %d: %s", where, r.code, strings.TrimSpace(r.stderr))
	}
	for _, d := range compare(x, []byte(r.stdout)) {
		t.Errorf("%s: %s", where, d)
	}
	for _, q := range paths {
		arg, rel, dir := p, ".", p
		if q != "" {
			arg, rel = p+"/"+q, q
			dir = pathParent(arg)
		}
		// A PATH names its directory, or itself when it is one; an
		// instruction file also every directory beneath holding a
		// candidate (R7).
		file := q != "" && contains(genCandidates, path.Base(q))
		o := newOracle(diskSnapshot(t, top, dir, file), g.maxFileBytes)
		x := expectation{dirs: []oChain{o.chain(dir)}}
		for _, d := range sortedKeys(o.s.dirs) {
			if file && d != dir && under(d, dir) && o.holdsCandidate(d) {
				x.dirs = append(x.dirs, o.chain(d))
			}
		}
		where := fmt.Sprintf("%s: PATH %q in the uninitialised submodule %q (R1, #38.8: an ordinary directory of the superproject, chain from its root)", what, arg, p)
		r := run(t, top, env(t), nil, bin, "check", "--format", "json", "--", arg)
		if r.code != 0 && r.code != 1 {
			t.Errorf("%s: exit %d: %s", where, r.code, strings.TrimSpace(r.stderr))
			continue
		}
		for _, d := range compare(x, []byte(r.stdout)) {
			t.Errorf("%s: %s", where, d)
		}
		in := run(t, filepath.Join(top, filepath.FromSlash(p)), env(t), nil, bin, "check", "--format", "json", "--", rel)
		if in.code != r.code || in.stdout != r.stdout {
			t.Errorf("%s: started in %q as PATH %q: exit %d, at the top %d (F2: the same check): %s",
				where, p, rel, in.code, r.code, firstDiff([]byte(r.stdout), []byte(in.stdout)))
		}
	}
}

// scopeRuns runs the whole-worktree check, --staged and --base/--head at
// the top of the worktree top, compared with the oracle, and at each of
// wds, which must print the same (F2).
func scopeRuns(t *testing.T, bin, what string, g *genSpec, c committed, top string, wds []string) {
	t.Helper()
	want, never, inner := worktreeDirs(t, top)
	type scope struct {
		name  string
		args  []string
		check func([]byte) []string
	}
	scopes := []scope{{"worktree", nil, func(b []byte) []string { return compareWorktree(want, never, inner, b) }}}
	for _, m := range diffModes {
		base, head, changed := m.sides(t, top, c)
		x := expect(base, head, changed, g.maxFileBytes)
		scopes = append(scopes, scope{m.name, m.args(c), func(b []byte) []string { return compare(x, b) }})
	}
	for _, s := range scopes {
		var first *result
		for _, wd := range append([]string{""}, wds...) {
			r := run(t, filepath.Join(top, filepath.FromSlash(wd)), env(t), nil, bin, append([]string{"check", "--format", "json"}, s.args...)...)
			label := fmt.Sprintf("%s: %s, started in %q", what, s.name, displayDir(wd))
			switch {
			case r.code != 0 && r.code != 1:
				t.Errorf("%s: exit %d: %s", label, r.code, strings.TrimSpace(r.stderr))
			case wd == "":
				for _, d := range s.check([]byte(r.stdout)) {
					t.Errorf("%s: %s", label, d)
				}
				first = &r
			case first != nil && r.stdout != first.stdout:
				t.Errorf("%s: JSON differs from that at the top (F2): %s", label, firstDiff([]byte(first.stdout), []byte(r.stdout)))
			}
		}
	}
}

// onlyDir is the one directory a check's JSON resolved, or an error.
func onlyDir(stdout string) (string, error) {
	var doc jsonOut
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		return "", err
	}
	if len(doc.Directories) != 1 {
		return "", fmt.Errorf("%d directories", len(doc.Directories))
	}
	return exact(doc.Directories[0].Path, doc.Directories[0].PathBytes), nil
}

// elsewhereCases is (c) for e in the worktree top: the PATHs named at the
// outer top, or with inside the checks started inside e. Its top named as
// a PATH is an entry of the outer repository, as any inner repository's
// is (R1): its parent is checked, nothing in it is read. Every other scope
// that reaches into it — a PATH inside it from the outer top, and every
// check started inside it — is exit 2 naming core.worktree when the
// setting names another directory than e's top (R1: refused, never
// followed, never taken as an ordinary directory; M4: no root outside the
// project); when it names e's top, e is an inner repository as any other,
// checked as at its top.
func elsewhereCases(t *testing.T, bin, tag, top string, e elsewhereRepo, inside bool) {
	t.Helper()
	what := fmt.Sprintf("%s: the %s %q whose core.worktree is %q (%s)", tag, e.kind(), e.path, e.worktree, e.target)
	if !inside {
		r := run(t, top, env(t), nil, bin, "check", "--format", "json", "--", e.path)
		if got, err := onlyDir(r.stdout); (r.code != 0 && r.code != 1) || err != nil || got != displayDir(pathParent(e.path)) {
			t.Errorf("%s: PATH %q at the outer top (R1: an entry of the outer repository): want exactly the directory %q; got %q, exit %d, %v: %s",
				what, e.path, displayDir(pathParent(e.path)), got, r.code, err, strings.TrimSpace(r.stderr))
		}
	}
	var o *oracle
	if !e.refused() {
		o = newOracle(treeSnapshot(t, filepath.Join(top, filepath.FromSlash(e.path)), "HEAD"), e.maxFileBytes)
	}
	// want checks one run that reaches into e: refused, or what the PATH
	// p (relative to e's top) resolves: its directory, or itself when it is
	// one, and for an instruction file every directory beneath holding a
	// candidate (R7).
	want := func(where string, r result, p string, file bool) {
		t.Helper()
		if e.refused() {
			if r.code != 2 || !strings.Contains(r.stderr, "core.worktree") {
				t.Errorf("%s: %s: want exit 2 naming core.worktree (R1, M4: refused, never followed); exit %d: %s", what, where, r.code, strings.TrimSpace(r.stderr+r.stdout))
			}
			return
		}
		if r.code != 0 && r.code != 1 {
			t.Errorf("%s: %s: exit %d: %s", what, where, r.code, strings.TrimSpace(r.stderr))
			return
		}
		var x expectation
		if file {
			for _, d := range o.affected([]string{p}) {
				x.dirs = append(x.dirs, o.chain(d))
			}
		} else {
			x.dirs = []oChain{o.chain(p)}
		}
		for _, diff := range compare(x, []byte(r.stdout)) {
			t.Errorf("%s: %s: %s", what, where, diff)
		}
	}
	if !inside {
		for _, d := range e.dirs {
			if d != "" {
				arg := e.path + "/" + d
				want(fmt.Sprintf("PATH %q at the outer top", arg), run(t, top, env(t), nil, bin, "check", "--format", "json", "--", arg), d, false)
			}
		}
		if f, ok := e.tree["AGENTS.md"]; ok && (f.mode == modeFile || f.mode == modeExec) {
			// A file of it (a random entry below may have made AGENTS.md a directory).
			arg := e.path + "/AGENTS.md"
			want(fmt.Sprintf("PATH %q at the outer top", arg), run(t, top, env(t), nil, bin, "check", "--format", "json", "--", arg), "AGENTS.md", true)
		}
		return
	}
	for _, d := range e.dirs {
		at := filepath.Join(top, filepath.FromSlash(pathJoin(e.path, d)))
		want(fmt.Sprintf("PATH . started in %q", pathJoin(e.path, d)), run(t, at, env(t), nil, bin, "check", "--format", "json", "--", "."), d, false)
		if !e.refused() {
			continue // the scopes of an inner repository as such: the outer checks' business
		}
		for _, args := range [][]string{nil, {"--staged"}, {"--base", "HEAD"}} {
			r := run(t, at, env(t), nil, bin, append([]string{"check", "--format", "json"}, args...)...)
			want(fmt.Sprintf("check %s started in %q", strings.Join(args, " "), pathJoin(e.path, d)), r, d, false)
		}
	}
}

// linkedCases is (d): a linked worktree of the committed repository,
// outside it, with g's untracked files; the ignore rules are those of the
// common Git directory's info/exclude (F4). Every submodule in it is
// uninitialised (b); the uninitialised ones of g hold their stray files
// here too.
func linkedCases(t *testing.T, bin, tag string, g *genSpec, c committed, root string) {
	t.Helper()
	linked := filepath.Join(root, "linked")
	gitCmd(t, c.dir, nil, nil, "worktree", "add", "-q", "--detach", linked, "HEAD")
	if err := os.WriteFile(filepath.Join(c.dir, ".git", "info", "exclude"), []byte(g.exclude), 0o644); err != nil {
		t.Fatal(err) // the common directory's, read in the linked worktree (F4)
	}
	writeUntracked(t, g, linked)
	for _, u := range g.uninit {
		writeStray(t, linked, u)
	}
	what := tag + ": a linked worktree"
	subs := g.submodulePaths()
	wds := subs
	if g.subdir != "" {
		wds = append([]string{g.subdir}, subs...)
	}
	scopeRuns(t, bin, what, g, c, linked, wds)
	for _, p := range subs {
		paths := []string{""}
		for _, u := range g.uninit {
			if u.path == p {
				paths = u.paths
			}
		}
		uninitPaths(t, bin, what, g, linked, p, paths)
	}
}
