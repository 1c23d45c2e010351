package integration

// TestDifferential is the differential test of issue #11: generated
// repositories (genrepo_test.go) × storage layouts (layouts_test.go) ×
// GOMAXPROCS 1 and 2 (F1) × working directory the root and a subdirectory
// (F2), in the --base/--head and --staged modes, each checked with
// `rivumi-lint check --format json` and compared with the oracle
// (oracle_test.go), which reads the same repository through the git binary
// alone. Every layout, CPU count and working directory must also print
// byte-identical JSON. Some repositories hold a submodule and/or a nested
// repository with instruction files the engine rejects (R1): the outer
// checks must not descend into them; a PATH inside one, run at its top,
// must match the oracle over that repository, and the same PATH given at
// the outer top must print the same (the sub-test seed=S/inner-path; run
// only those with -run '^TestDifferential$/^seed=/^inner-path$', leave
// them out with -skip 'TestDifferential/seed=/inner-path'). Issue #38's
// inner-repository cases (innergen_test.go, innerdiff_test.go) have a
// sub-test each: seed=S/uninit (uninitialised submodules), seed=S/
// worktree-elsewhere and seed=S/worktree-elsewhere-inside (core.worktree
// naming any directory: PATHs named from the outer top, checks started
// inside it) and seed=S/linked (a linked worktree of the superproject,
// checked from inside it).
//
//	RIVUMI_DIFF_SEEDS=N       seeds 1..N (default 4 with RIVUMI_LINT_INTEGRATION=1,
//	                          else 1: the long run is CI's)
//	RIVUMI_DIFF_SEED=S        only seed S, to reproduce a failure
//	RIVUMI_DIFF_FIRST=S       with RIVUMI_DIFF_DURATION: the first seed
//	RIVUMI_DIFF_DURATION=D    seeds S, S+1, … until D (a Go duration) has
//	                          passed (scripts/differential)
//	RIVUMI_DIFF_KEEP=DIR      keep each seed's repositories in DIR/seed-S
//	                          (one directory per layout) to inspect them

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestDifferential(t *testing.T) {
	bin := rivumiLint(t)
	first, count, until := diffSeeds(t)
	repos := 0
	for seed := first; count < 0 || seed < first+uint64(count); seed++ {
		if !until.IsZero() && time.Now().After(until) {
			break
		}
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) { diffSeed(t, bin, seed) })
		repos++
	}
	t.Logf("differential: compared %d repositories × %d layouts × %d modes × 2 GOMAXPROCS × 2 working directories (seeds %d..%d)",
		repos, len(layouts), len(diffModes)+1, first, first+uint64(repos)-1)
}

// diffSeeds reads the seed range from the environment: count < 0 means
// "until the deadline".
func diffSeeds(t *testing.T) (first uint64, count int, until time.Time) {
	t.Helper()
	num := func(name string, def uint64) uint64 {
		s := os.Getenv(name)
		if s == "" {
			return def
		}
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: want a non-negative integer", name, s)
		}
		return n
	}
	if os.Getenv("RIVUMI_DIFF_SEED") != "" {
		return num("RIVUMI_DIFF_SEED", 0), 1, time.Time{}
	}
	if s := os.Getenv("RIVUMI_DIFF_DURATION"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("RIVUMI_DIFF_DURATION=%q: want a Go duration such as 10m", s)
		}
		return num("RIVUMI_DIFF_FIRST", 1), -1, time.Now().Add(d)
	}
	if !integrationEnabled() && os.Getenv("RIVUMI_DIFF_SEEDS") == "" {
		// The default run keeps one quick seed; the long run is CI's.
		t.Logf("differential: seed 1 only; the full run (seeds 1..4) needs %s=1 (.ci/run sets it)", integrationVar)
		return 1, 1, time.Time{}
	}
	return 1, int(num("RIVUMI_DIFF_SEEDS", 4)), time.Time{}
}

// diffMode is one diff-mode check and how the oracle reads its sides.
type diffMode struct {
	name string
	args func(c committed) []string
	// sides returns the base and head snapshots and the changed paths.
	sides func(t *testing.T, dir string, c committed) (base, head *snapshot, changed []string)
}

var diffModes = []diffMode{
	{
		name: "--base/--head",
		args: func(c committed) []string { return []string{"--base", c.base, "--head", c.head} },
		sides: func(t *testing.T, dir string, c committed) (*snapshot, *snapshot, []string) {
			return treeSnapshot(t, dir, c.base), treeSnapshot(t, dir, c.head), changedPaths(t, dir, c.base, c.head)
		},
	},
	{
		name: "--staged",
		args: func(committed) []string { return []string{"--staged"} },
		sides: func(t *testing.T, dir string, c committed) (*snapshot, *snapshot, []string) {
			return treeSnapshot(t, dir, "HEAD"), indexSnapshot(t, dir), changedPaths(t, dir, "--cached")
		},
	},
}

// findings collects mismatches of one seed, each with the runs that showed it.
type findings struct {
	order []string
	runs  map[string][]diffRun
}

// diffRun names one run of the binary.
type diffRun struct {
	layout string
	procs  int
	wd     string
}

func (r diffRun) String() string {
	return fmt.Sprintf("%s GOMAXPROCS=%d wd=%q", r.layout, r.procs, displayDir(r.wd))
}

func (f *findings) add(what string, run diffRun) {
	if f.runs == nil {
		f.runs = map[string][]diffRun{}
	}
	if _, ok := f.runs[what]; !ok {
		f.order = append(f.order, what)
	}
	f.runs[what] = append(f.runs[what], run)
}

// summary names the runs compactly: as layouts × CPU counts × working
// directories when they are such a product, else one by one.
func summary(runs []diffRun) string {
	var ls, ps, ws []string
	for _, r := range runs {
		if !contains(ls, r.layout) {
			ls = append(ls, r.layout)
		}
		if p := strconv.Itoa(r.procs); !contains(ps, p) {
			ps = append(ps, p)
		}
		if w := strconv.Quote(displayDir(r.wd)); !contains(ws, w) {
			ws = append(ws, w)
		}
	}
	if len(ls)*len(ps)*len(ws) != len(runs) {
		var out []string
		for _, r := range runs {
			out = append(out, r.String())
		}
		return strings.Join(out, ", ")
	}
	layoutsText := strings.Join(ls, " ")
	if len(ls) == len(layouts) {
		layoutsText = "all " + strconv.Itoa(len(ls))
	}
	return fmt.Sprintf("layouts %s × GOMAXPROCS %s × wd %s", layoutsText, strings.Join(ps, ","), strings.Join(ws, ","))
}

func diffSeed(t *testing.T, bin string, seed uint64) {
	g := generate(seed)
	g.addInnerCases()
	root := t.TempDir()
	if keep := os.Getenv("RIVUMI_DIFF_KEEP"); keep != "" {
		// Keep the repositories to inspect a mismatch by hand.
		root = filepath.Join(keep, fmt.Sprintf("seed-%d", seed))
		if err := os.RemoveAll(root); err != nil {
			t.Fatal(err)
		}
		t.Logf("repositories of seed %d kept in %s", seed, root)
	}
	c := buildCommitted(t, g, filepath.Join(root, "committed"))
	for _, in := range g.inner {
		t.Logf("seed %d: a %s at %q, its PATH cases %q", seed, in.kind(), in.path, in.dirs)
	}
	for _, u := range g.uninit {
		t.Logf("seed %d: an uninitialised submodule at %q, its PATH cases %q", seed, u.path, u.paths)
	}
	for _, e := range g.elsewhere {
		t.Logf("seed %d: a %s at %q whose core.worktree is %q (%s), its PATH cases %q", seed, e.kind(), e.path, e.worktree, e.target, e.dirs)
	}
	if g.linked {
		t.Logf("seed %d: a linked worktree", seed)
	}
	wds := []string{""}
	if g.subdir != "" {
		wds = append(wds, g.subdir)
	}
	var f findings
	firstOut := map[string][]byte{} // mode → the first run's stdout
	firstRun := map[string]diffRun{}
	for _, l := range layouts {
		scratch := filepath.Join(root, l.name)
		dir := filepath.Join(scratch, "repo")
		copyTree(t, c.dir, dir)
		if l.pre != nil {
			l.pre(t, dir, g)
		}
		stage(t, g, dir, l.noITA)
		addUntracked(t, g, dir)
		if l.post != nil {
			l.post(t, dir, scratch)
		}
		for _, m := range diffModes {
			base, head, changed := m.sides(t, dir, c)
			x := expect(base, head, changed, g.maxFileBytes)
			for _, procs := range []int{1, 2} {
				for _, wd := range wds {
					label := diffRun{l.name, procs, wd}
					args := append([]string{"check", "--format", "json"}, m.args(c)...)
					r := run(t, filepath.Join(dir, filepath.FromSlash(wd)), env(t, "GOMAXPROCS="+strconv.Itoa(procs)), nil, bin, args...)
					if r.code != 0 && r.code != 1 {
						f.add(fmt.Sprintf("%s: exit %d: %s", m.name, r.code, strings.TrimSpace(r.stderr)), label)
						continue
					}
					for _, d := range compare(x, []byte(r.stdout)) {
						f.add(m.name+": "+d, label)
					}
					if prev, ok := firstOut[m.name]; !ok {
						firstOut[m.name], firstRun[m.name] = []byte(r.stdout), label
					} else if !bytes.Equal(prev, []byte(r.stdout)) {
						f.add(fmt.Sprintf("%s: JSON differs from that of %s (F1, F2, §10): %s", m.name, firstRun[m.name], firstDiff(prev, []byte(r.stdout))), label)
					}
				}
			}
		}
		// The whole-worktree mode: which directories (F4); the disk of a
		// sparse checkout differs, so it is compared with its own kind.
		want, never, inner := worktreeDirs(t, dir)
		group := "worktree"
		if l.name == "sparse-index" {
			group = "worktree (sparse checkout)"
		}
		for _, procs := range []int{1, 2} {
			for _, wd := range wds {
				label := diffRun{l.name, procs, wd}
				r := run(t, filepath.Join(dir, filepath.FromSlash(wd)), env(t, "GOMAXPROCS="+strconv.Itoa(procs)), nil, bin, "check", "--format", "json")
				if r.code != 0 && r.code != 1 {
					f.add(fmt.Sprintf("%s: exit %d: %s", group, r.code, strings.TrimSpace(r.stderr)), label)
					continue
				}
				for _, d := range compareWorktree(want, never, inner, []byte(r.stdout)) {
					f.add(group+": "+d, label)
				}
				if prev, ok := firstOut[group]; !ok {
					firstOut[group], firstRun[group] = []byte(r.stdout), label
				} else if !bytes.Equal(prev, []byte(r.stdout)) {
					f.add(fmt.Sprintf("%s: JSON differs from that of %s (F1, F2, F3, §10): %s", group, firstRun[group], firstDiff(prev, []byte(r.stdout))), label)
				}
			}
		}
	}
	for _, what := range f.order {
		t.Errorf("seed %d (RIVUMI_DIFF_SEED=%d): %s\n    runs: %s", seed, seed, what, summary(f.runs[what]))
	}
	if len(g.inner) > 0 {
		innerPaths(t, bin, g, c)
	}
	innerCases(t, bin, g, c, root)
}

// innerPaths: a PATH inside a submodule or nested repository (R1): the
// check run at its top is compared with the oracle here; the same PATH
// given at the outer top must print the same, in its own sub-test.
func innerPaths(t *testing.T, bin string, g *genSpec, c committed) {
	seed := g.seed
	type innerCase struct {
		in  innerRepo
		dir string
		out result
	}
	var cases []innerCase
	for _, in := range g.inner {
		top := filepath.Join(c.dir, filepath.FromSlash(in.path))
		o := newOracle(treeSnapshot(t, top, "HEAD"), in.maxFileBytes)
		for _, d := range in.dirs {
			arg := d
			if arg == "" {
				arg = "."
			}
			r := run(t, top, env(t), nil, bin, "check", "--format", "json", "--", arg)
			where := fmt.Sprintf("seed %d (RIVUMI_DIFF_SEED=%d): PATH %q at the top of the %s %q", seed, seed, arg, in.kind(), in.path)
			if r.code != 0 && r.code != 1 {
				t.Errorf("%s: exit %d: %s", where, r.code, strings.TrimSpace(r.stderr))
				continue
			}
			for _, diff := range compare(expectation{dirs: []oChain{o.chain(d)}}, []byte(r.stdout)) {
				t.Errorf("%s: %s", where, diff)
			}
			cases = append(cases, innerCase{in, d, r})
		}
	}
	t.Run("inner-path", func(t *testing.T) {
		for _, ic := range cases {
			arg := ic.in.path
			if ic.dir != "" {
				arg += "/" + ic.dir
			}
			r := run(t, c.dir, env(t), nil, bin, "check", "--format", "json", "--", arg)
			if ic.dir == "" {
				// The inner repository's top itself is an entry of the outer
				// one, as a changed gitlink is (R1): its parent is checked.
				want := path.Dir(ic.in.path)
				var doc struct {
					Directories []struct {
						Path      string
						PathBytes []byte `json:"path_bytes"` // base64; set when the path is not UTF-8 (docs/json.md)
					} `json:"directories"`
				}
				err := json.Unmarshal([]byte(r.stdout), &doc)
				got := ""
				if len(doc.Directories) == 1 {
					got = doc.Directories[0].Path
					if doc.Directories[0].PathBytes != nil {
						got = string(doc.Directories[0].PathBytes)
					}
				}
				if err != nil || (r.code != 0 && r.code != 1) || len(doc.Directories) != 1 || got != want {
					t.Errorf("seed %d (RIVUMI_DIFF_SEED=%d): PATH %q at the outer top, the top of the %s (R1: an entry of the outer repository): "+
						"want exactly the directory %q; exit %d, %v, %s", seed, seed, arg, ic.in.kind(), want, r.code, err, strings.TrimSpace(r.stderr))
				}
				continue
			}
			where := fmt.Sprintf("seed %d (RIVUMI_DIFF_SEED=%d): PATH %q at the outer top, inside the %s %q (R1: checked in it, as at its top)", seed, seed, arg, ic.in.kind(), ic.in.path)
			switch {
			case r.code != ic.out.code:
				t.Errorf("%s: exit %d, at its top %d: %s", where, r.code, ic.out.code, firstDiff([]byte(ic.out.stdout), []byte(r.stdout)))
			case r.stdout != ic.out.stdout:
				t.Errorf("%s: JSON differs from that at its top: %s", where, firstDiff([]byte(ic.out.stdout), []byte(r.stdout)))
			}
		}
	})
}

// firstDiff shows the first line where two outputs differ.
func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d: %q, here %q", i+1, strings.TrimSpace(x), strings.TrimSpace(y))
		}
	}
	return "same lines"
}

// TestDifferentialScriptHelp: `scripts/differential --help` prints its
// comment block and no code (it printed `set -euo pipefail`, issue #21).
func TestDifferentialScriptHelp(t *testing.T) {
	r := run(t, moduleRoot(t), env(t), nil, "bash", "scripts/differential", "--help")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Runs the differential test against git") {
		t.Fatalf("scripts/differential --help: %s", r)
	}
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, "set ") || strings.HasPrefix(line, "cd ") || strings.HasPrefix(line, "#") {
			t.Errorf("scripts/differential --help prints code or comment marks: %q", line)
		}
	}
	if !strings.Contains(r.stdout, "inner-path") {
		t.Errorf("scripts/differential --help does not say how to run the inner-path cases:\n%s", r.stdout)
	}
}
