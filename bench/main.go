// Command bench is the benchmark driver behind scripts/bench (SPEC §9,
// docs/performance.md). It builds the linter once, generates the
// benchmark monorepos with internal/monorepo, checks that every case gives
// the right answer, then runs each case and its `git` yardstick in their
// own processes, side by side, for several interleaved rounds, and prints
// the medians, the ratios and where our time goes.
//
// It exits non-zero only when something crashed or gave a wrong result,
// never because a timing target was missed: timings depend on the machine.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rivumi/rivumi-lint/internal/monorepo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

type options struct {
	small   bool
	scale   int
	rounds  int
	dir     string
	keep    bool
	seed    uint64
	bin     string
	only    *regexp.Regexp
	memLine int
	verbose bool
	agents  string // the agent rows' --agent (A8)
}

func main() {
	if os.Getenv(spawnerEnv) == "1" {
		os.Exit(spawnerMain())
	}
	os.Exit(run())
}

func run() int {
	sp, err := startSpawner() // first, while this process is small
	if err != nil {
		return fatal(err)
	}
	var o options
	var only string
	flag.BoolVar(&o.small, "small", false, "the CI smoke: a small repository, few rounds (seconds)")
	flag.IntVar(&o.scale, "scale", 4, "also time the diff cases on a repository `K` times larger with the same change (0: skip)")
	flag.IntVar(&o.rounds, "rounds", 0, "interleaved `ROUNDS` per case (default 7, 3 with --small), after one warm-up round")
	flag.StringVar(&o.dir, "dir", "", "generate the repositories in `DIR` and keep them; an existing one of the same size and seed is reused (default: a temporary directory, removed)")
	flag.Uint64Var(&o.seed, "seed", 1, "generator `SEED`")
	flag.StringVar(&o.bin, "bin", "", "time this rivumi-lint `BINARY` instead of building ./cmd/rivumi-lint")
	flag.StringVar(&only, "only", "", "run only the cases whose name matches `REGEXP`")
	flag.BoolVar(&o.verbose, "v", false, "print every run")
	flag.StringVar(&o.agents, "agents", "rivumi,codex", "the agent rows' profiles: `LIST` as check --agent takes it (all: every profile)")
	flag.Parse()
	if o.rounds == 0 {
		o.rounds = 7
		if o.small {
			o.rounds = 3
		}
	}
	if only != "" {
		re, err := regexp.Compile(only)
		if err != nil {
			return fatal(err)
		}
		o.only = re
	}
	o.memLine = 1_000_000
	if o.small {
		o.memLine = 100_000
	}
	if o.dir == "" {
		d, err := os.MkdirTemp("", "rivumi-bench-")
		if err != nil {
			return fatal(err)
		}
		defer os.RemoveAll(d)
		o.dir = d
	} else {
		o.keep = true
		if err := os.MkdirAll(o.dir, 0o755); err != nil {
			return fatal(err)
		}
	}
	o.dir, _ = filepath.Abs(o.dir)
	b := &bench{o: o, sp: sp}
	if err := b.setup(); err != nil {
		sp.close()
		return fatal(err)
	}
	b.loadBefore = loadAvg()
	b.runRounds()
	b.loadAfter = loadAvg()
	b.rssFloor = sp.close()
	b.print(os.Stdout)
	if len(b.failures) > 0 {
		fmt.Fprintf(os.Stderr, "\nbench: %d wrong or crashed result(s):\n", len(b.failures))
		for _, f := range b.failures {
			fmt.Fprintf(os.Stderr, "  - %s\n", f)
		}
		return 1
	}
	return 0
}

func fatal(err error) int {
	fmt.Fprintf(os.Stderr, "bench: %v\n", err)
	return 1
}

// sample is one timed run (or pair of runs).
type sample struct {
	wall time.Duration
	cpu  time.Duration // user + system
	rss  int64         // KiB, the largest of the processes
}

// job is one benchmark case: our command and the yardstick.
type job struct {
	name    string
	group   string // "main", "scaled", "limits"
	dir     string
	ours    []string   // rivumi-lint arguments
	theirs  [][]string // git commands, run one after the other; their times add up
	inproc  func() time.Duration
	refName string // what theirs is, for the table
	target  string
	// ratio is the allowed ours/theirs ratio (0: none); maxWall and maxRSS
	// absolute targets (0: none).
	ratio   float64
	maxWall time.Duration
	maxRSS  int64 // KiB
	// wantExit lists the exit codes that are not a crash.
	wantExit []int
	// theirExit lists the yardstick's exit codes that are not a crash
	// besides 0 (an agent row's yardstick is a check that may find).
	theirExit []int
	affected  int      // directories resolved, from the verification run
	doc       *jsonDoc // the verification run's output
	note      string

	ourS, theirS []sample
	phases       map[string][]float64
	phaseOrder   []string
}

type bench struct {
	o                     options
	sp                    *spawner
	rssFloor              int64 // KiB: the spawner's own peak
	loadBefore, loadAfter string
	bin                   string
	env                   []string
	jobs                  []*job
	failures              []string
	machine               []string
	gen                   map[string]time.Duration
	sizes                 map[string]monorepo.Size
	floor                 string // the floor program (floor.go)
}

func (b *bench) fail(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	b.failures = append(b.failures, msg)
	fmt.Fprintf(os.Stderr, "bench: FAIL: %s\n", msg)
}

func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

// setup builds the linter, generates the repositories and prepares and
// verifies every case.
func (b *bench) setup() error {
	b.gen = map[string]time.Duration{}
	b.sizes = map[string]monorepo.Size{}
	b.env = cleanEnv(b.o.dir)
	b.machine = machineInfo()
	if b.o.bin != "" {
		abs, err := filepath.Abs(b.o.bin)
		if err != nil {
			return err
		}
		b.bin = abs
	} else {
		b.bin = filepath.Join(b.o.dir, "bin", "rivumi-lint")
		// Built as released (README, action.yml): static, without cgo, so
		// that no run pays for the dynamic loader (a fifth of a process
		// start here).
		b.logf("CGO_ENABLED=0 go build -trimpath -o %s ./cmd/rivumi-lint", b.bin)
		cmd := exec.Command("go", "build", "-trimpath", "-o", b.bin, "./cmd/rivumi-lint")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build: %w", err)
		}
	}
	// The floor: starting the process and doing nothing, against git and
	// against a static Go program that does nothing either (floor.go).
	floor, err := b.buildFloor()
	if err != nil {
		return err
	}
	b.floor = floor
	b.jobs = append(b.jobs, &job{name: "process start (version)", group: "limits", dir: b.o.dir,
		ours: []string{"version"}, theirs: [][]string{{"git", "version"}}, refName: "git version",
		target: "≤ 10 ms", maxWall: 10 * time.Millisecond, wantExit: []int{0}})
	b.jobs = append(b.jobs, &job{name: "process start (version), against Go", group: "limits", dir: b.o.dir,
		ours: []string{"version"}, theirs: [][]string{{floor}}, refName: "a static Go program that does nothing",
		target: "≤ 10 ms", maxWall: 10 * time.Millisecond, wantExit: []int{0}})
	size := monorepo.Full
	if b.o.small {
		size = monorepo.Small
	}
	mainDir := filepath.Join(b.o.dir, "mono")
	if err := b.generate("1x", mainDir, size, monorepo.Options{Checkout: true, Extras: true}); err != nil {
		return err
	}
	b.mainJobs(mainDir)
	if b.o.scale > 1 {
		bigDir := filepath.Join(b.o.dir, fmt.Sprintf("mono-x%d", b.o.scale))
		if err := b.generate(fmt.Sprintf("%dx", b.o.scale), bigDir, size.Scale(b.o.scale), monorepo.Options{}); err != nil {
			return err
		}
		b.diffJobs(bigDir, fmt.Sprintf("%d×", b.o.scale), "scaled")
	}
	if err := b.limitJobs(); err != nil {
		return err
	}
	var kept []*job
	for _, j := range b.jobs {
		if b.o.only == nil || b.o.only.MatchString(j.name) {
			kept = append(kept, j)
		}
	}
	b.jobs = kept
	b.verifyFingerprints()
	return nil
}

// cleanEnv is the environment of every run: no Git variables of a
// surrounding hook, no GitHub Actions event (check would take its scope from
// it), no user-level Rivumi files, no colour.
func cleanEnv(dir string) []string {
	home := filepath.Join(dir, "rivumi-home")
	os.MkdirAll(home, 0o755)
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "GITHUB_") || strings.HasPrefix(k, "RIVUMI") || k == "CI" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "RIVUMI_HOME="+home, "NO_COLOR=1", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_OPTIONAL_LOCKS=0")
}

// generate creates a repository, or reuses one a previous --dir run made
// with the same size and seed.
func (b *bench) generate(label, dir string, size monorepo.Size, o monorepo.Options) error {
	stamp := fmt.Sprintf("generator v%d: %s seed=%d checkout=%v extras=%v\n", monorepo.Version, size, b.o.seed, o.Checkout, o.Extras)
	stampFile := filepath.Join(dir, ".git", "rivumi-bench-stamp")
	b.sizes[label] = size
	if old, err := os.ReadFile(stampFile); err == nil && string(old) == stamp {
		b.logf("reusing %s (%s)", dir, size)
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	b.logf("generating %s: %s", dir, size)
	t0 := time.Now()
	g := monorepo.Generate(size, b.o.seed)
	t1 := time.Now()
	if err := monorepo.Create(dir, g, monorepo.Options{}); err != nil {
		return err
	}
	t2 := time.Now()
	b.gen[label+" generate (in memory)"] = t1.Sub(t0)
	b.gen[label+" git fast-import + repack"] = t2.Sub(t1)
	if o.Checkout {
		if err := monorepo.Setup(dir, g, o); err != nil {
			return err
		}
		b.gen[label+" checkout, apply B, git add -A"] = time.Since(t2)
	}
	return os.WriteFile(stampFile, []byte(stamp), 0o644)
}

// revs resolves the three branches to commit ids, as a CI system passes
// them.
func (b *bench) revs(dir string) (a, bb, c string) {
	get := func(r string) string {
		out, err := b.git(dir, "rev-parse", "--verify", r+"^{commit}")
		if err != nil {
			b.fail("rev-parse %s in %s: %v", r, dir, err)
			return r
		}
		return strings.TrimSpace(string(out))
	}
	return get(monorepo.BranchA), get(monorepo.BranchB), get(monorepo.BranchC)
}

func (b *bench) git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = b.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// gitList runs a git command with -z output and returns its records.
func (b *bench) gitList(dir string, args ...string) []string {
	out, err := b.git(dir, args...)
	if err != nil {
		b.fail("%v", err)
		return nil
	}
	var recs []string
	for _, r := range strings.Split(string(out), "\x00") {
		if r != "" {
			recs = append(recs, r)
		}
	}
	return recs
}

func (b *bench) diffJobs(dir, label, group string) {
	a, bb, c := b.revs(dir)
	for _, d := range []struct {
		name, head string
	}{{"diff A..B", bb}, {"root-only A..C", c}} {
		j := &job{name: d.name, group: group, dir: dir,
			ours:     []string{"check", "--base", a, "--head", d.head},
			theirs:   [][]string{{"git", "diff", "--name-only", "--no-renames", a, d.head}, {"git", "ls-tree", "-r", "--name-only", d.head}},
			refName:  "git diff --name-only + git ls-tree -r",
			target:   "≤ 2× git",
			ratio:    2,
			wantExit: []int{0, 1},
		}
		if label != "" {
			j.name = label + " " + j.name
		}
		changed := b.gitList(dir, "diff", "--name-only", "--no-renames", "-z", a, d.head)
		files := b.gitList(dir, "ls-tree", "-r", "--name-only", "-z", d.head)
		want := affected(changed, files)
		b.verifyDirs(j, want)
		if d.head == bb {
			b.verifyRename(j, a, bb)
		}
		b.jobs = append(b.jobs, j)
		b.agentJob(j, want)
	}
}

// verifyRename checks the reference commit B breaks (issue #25): the
// generator renames a file an untouched AGENTS.md names, and the check
// must report it there, once, naming the new name.
func (b *bench) verifyRename(j *job, base, head string) {
	if j.doc == nil {
		return // verifyDirs failed already
	}
	var from, to string
	for _, l := range strings.Split(strings.TrimSpace(string(b.gitOut(j.dir, "diff", "-M", "--name-status", "--diff-filter=R", base, head))), "\n") {
		f := strings.Split(l, "\t")
		if len(f) == 3 && path.Base(f[1]) == "setup_guide.md" {
			from, to = f[1], f[2]
		}
	}
	if from == "" {
		b.fail("%s: commit B renames no setup_guide.md (monorepo.Repo.Renamed)", j.name)
		return
	}
	// Two files name it: the AGENTS.md beside it, and one in a directory
	// the change leaves alone, outside its chain, by a relative path
	// (monorepo.Rename.Far; #33.2: read because the change renames).
	near, far := 0, 0
	for _, f := range j.doc.Findings {
		if f.Rule != "RL021" || !strings.Contains(f.Message, to) {
			continue
		}
		switch {
		case f.Path == path.Join(path.Dir(from), "AGENTS.md") && strings.Contains(f.Message, from):
			near++
		case strings.Contains(f.Message, "../") && strings.Contains(f.Message, path.Base(from)):
			far++
		}
	}
	if near != 1 || far != 1 {
		b.fail("%s: RL021 reports the rename of %s to %s %d times beside it and %d times from afar, want 1 and 1", j.name, from, to, near, far)
		return
	}
	j.note = "the rename of a referenced file reported (RL021), beside it and from a directory the change leaves alone"
}

// gitOut is a git command's output, failing the run on an error.
func (b *bench) gitOut(dir string, args ...string) []byte {
	out, err := b.git(dir, args...)
	if err != nil {
		b.fail("%v", err)
	}
	return out
}

// agentFlag is the agent rows' profiles (A8): the other agents' chains
// beside Rivumi's, over the same listings and reads.
func (b *bench) agentFlag() []string { return []string{"--agent", b.o.agents} }

// agentRules are the rules only the other profiles add (A4): Codex's,
// the comparison, Claude's, Copilot's.
var agentRules = []string{"RL015", "RL016", "RL017", "RL018", "RL019", "RL020", "RL022", "RL023", "RL024", "RL025"}

// agentJob adds the row of base with the codex profile on, timed against
// base itself (issue A8: ≤ 1.3×), after checking that it resolves the same
// directories with the same fingerprints and reports the same findings
// plus only the codex profile's rules.
func (b *bench) agentJob(base *job, want map[string]bool) {
	j := &job{name: base.name + " " + strings.Join(b.agentFlag(), " "), group: base.group, dir: base.dir,
		ours:      append(append([]string{}, base.ours...), b.agentFlag()...),
		theirs:    [][]string{append([]string{b.bin}, base.ours...)},
		theirExit: base.wantExit,
		refName:   "the same case, Rivumi only",
		target:    "≤ 1.3× Rivumi only",
		ratio:     1.3,
		wantExit:  base.wantExit,
	}
	b.verifyDirs(j, want)
	b.verifyAgents(j, base)
	b.jobs = append(b.jobs, j)
}

// verifyAgents checks an agent row's answer against its Rivumi-only
// case: Rivumi's fingerprints unchanged, and the same findings (rule and
// path, counted) once the codex profile's own rules are set aside.
func (b *bench) verifyAgents(j, base *job) {
	if j.doc == nil || base.doc == nil {
		return // verifyDirs failed already
	}
	bad := 0
	for d, fp := range fpByJob[base] {
		if fpByJob[j][d] != fp {
			bad++
		}
	}
	if bad > 0 {
		b.fail("%s: %d directories have another fingerprint than with Rivumi alone (R8 is Rivumi's chain)", j.name, bad)
	}
	count := func(doc *jsonDoc) map[string]int {
		n := map[string]int{}
		for _, f := range doc.Findings {
			if !slices.Contains(agentRules, f.Rule) {
				n[f.Rule+" "+f.Path]++
			}
		}
		return n
	}
	got, want := count(j.doc), count(base.doc)
	var diff []string
	for k, n := range want {
		if got[k] != n {
			diff = append(diff, fmt.Sprintf("%s: %d, alone %d", k, got[k], n))
		}
	}
	for k, n := range got {
		if _, ok := want[k]; !ok {
			diff = append(diff, fmt.Sprintf("%s: %d, alone 0", k, n))
		}
	}
	sort.Strings(diff)
	if len(diff) > 0 {
		b.fail("%s: findings other than %s differ from the Rivumi-only run: %s", j.name, strings.Join(agentRules, ", "), head(diff))
	}
	added, unmarked := 0, 0
	for _, f := range j.doc.Findings {
		if slices.Contains(agentRules, f.Rule) {
			added++
		}
		if f.Agent == "" {
			unmarked++
		}
	}
	if unmarked > 0 {
		// Every finding names its agent once a second profile is on (A4):
		// one that does not means the profile was not.
		b.fail("%s: %d findings carry no agent: the other profiles were not on", j.name, unmarked)
	}
	j.note = fmt.Sprintf("%d findings of %s", added, strings.Join(agentRules, ", "))
}

func (b *bench) mainJobs(dir string) {
	b.diffJobs(dir, "", "main")
	// --staged: HEAD is A, the index holds B (5,000 staged paths).
	j := &job{name: "staged", group: "main", dir: dir,
		ours:     []string{"check", "--staged"},
		theirs:   [][]string{{"git", "diff", "--cached", "--name-only", "--no-renames"}, {"git", "ls-files"}},
		refName:  "git diff --cached --name-only + git ls-files",
		target:   "≤ 2× git",
		ratio:    2,
		wantExit: []int{0, 1},
	}
	changed := b.gitList(dir, "diff", "--cached", "--name-only", "--no-renames", "-z")
	indexed := b.gitList(dir, "ls-files", "-z")
	b.verifyDirs(j, affected(changed, indexed))
	b.jobs = append(b.jobs, j)

	// check FILE…: 1,000 of the staged files, as pre-commit passes them
	// (existing files only), instruction files among them.
	untracked := b.gitList(dir, "ls-files", "-z", "--others", "--exclude-standard")
	onDisk := append(append([]string{}, indexed...), untracked...)
	var staged []string
	for _, p := range changed {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			staged = append(staged, p)
		}
	}
	n := min(1000, len(staged))
	var picked []string
	for i := 0; i < n; i++ {
		picked = append(picked, staged[i*len(staged)/n])
	}
	ninstr := 0
	for _, p := range picked {
		if monorepo.IsInstruction(p) {
			ninstr++
		}
	}
	// check FILE… of the usual commit: 10 of them. Its floor is a static
	// Go process that only reads the index (floor.go): the index scan
	// (C1's recorded modes) is the one cost that grows with the
	// repository rather than with the files.
	ten := make([]string, 0, 10)
	for i := 0; i < min(10, len(staged)); i++ {
		ten = append(ten, staged[i*len(staged)/min(10, len(staged))])
	}
	j = &job{name: fmt.Sprintf("files (%d)", len(ten)), group: "main", dir: dir,
		ours:     append([]string{"check"}, ten...),
		theirs:   [][]string{{b.floor, filepath.Join(dir, ".git", "index")}},
		refName:  "a static Go program that only reads the index",
		target:   "≤ 20 ms",
		maxWall:  20 * time.Millisecond,
		wantExit: []int{0, 1},
	}
	b.verifyDirs(j, affectedFiles(ten, onDisk))
	b.jobs = append(b.jobs, j)

	j = &job{name: fmt.Sprintf("files (%d)", len(picked)), group: "main", dir: dir,
		ours:     append([]string{"check"}, picked...),
		target:   "< 50 ms, < 40 MiB",
		maxWall:  50 * time.Millisecond,
		maxRSS:   40 << 10,
		wantExit: []int{0, 1},
		note:     fmt.Sprintf("%d of them instruction files", ninstr),
	}
	b.verifyDirs(j, affectedFiles(picked, onDisk))
	b.jobs = append(b.jobs, j)

	// The same without instruction files: only the files' directories and
	// their ancestors (no subtree walk, R7), to show what the instruction
	// files among the 1,000 cost.
	var plain []string
	for _, p := range staged {
		if !monorepo.IsInstruction(p) {
			plain = append(plain, p)
		}
	}
	n = min(1000, len(plain))
	var pickedPlain []string
	for i := 0; i < n; i++ {
		pickedPlain = append(pickedPlain, plain[i*len(plain)/n])
	}
	j = &job{name: fmt.Sprintf("files (%d), none an instruction file", len(pickedPlain)), group: "main", dir: dir,
		ours:     append([]string{"check"}, pickedPlain...),
		target:   "< 50 ms, < 40 MiB",
		maxWall:  50 * time.Millisecond,
		maxRSS:   40 << 10,
		wantExit: []int{0, 1},
	}
	b.verifyDirs(j, affectedFiles(pickedPlain, onDisk))
	b.jobs = append(b.jobs, j)

	// The whole worktree.
	var instr []string
	for _, p := range onDisk {
		if monorepo.IsInstruction(p) {
			instr = append(instr, filepath.Join(dir, p))
		}
	}
	j = &job{name: "worktree", group: "main", dir: dir,
		ours:     []string{"check"},
		theirs:   [][]string{{"git", "ls-files"}},
		refName:  fmt.Sprintf("git ls-files + reading the %d instruction files", len(instr)),
		target:   "≤ 2× git",
		ratio:    2,
		wantExit: []int{0, 1},
		inproc: func() time.Duration {
			t0 := time.Now()
			for _, f := range instr {
				if _, err := os.ReadFile(f); err != nil {
					panic(err)
				}
			}
			return time.Since(t0)
		},
	}
	want := map[string]bool{}
	for _, p := range onDisk {
		for d := resolve.ParentDir(p); ; d = resolve.ParentDir(d) {
			want[d] = true
			if d == "" {
				break
			}
		}
	}
	b.verifyDirs(j, want)
	b.jobs = append(b.jobs, j)
	b.agentJob(j, want)
}

// limitJobs are the hostile-size cases, each in a tiny repository of its
// own: a 2 GiB sparse AGENTS.md and a 1,000,000-line memory file.
func (b *bench) limitJobs() error {
	sparse := filepath.Join(b.o.dir, "sparse")
	if err := tinyRepo(b, sparse); err != nil {
		return err
	}
	big := filepath.Join(sparse, "AGENTS.md")
	f, err := os.Create(big)
	if err != nil {
		return err
	}
	if err := f.Truncate(2 << 30); err != nil {
		f.Close()
		return err
	}
	f.WriteAt([]byte("# start\n"), 0)
	f.Close()
	j := &job{name: "2 GiB AGENTS.md", group: "limits", dir: sparse,
		ours:     []string{"check", "AGENTS.md"},
		target:   "< 50 ms, < 40 MiB",
		maxWall:  50 * time.Millisecond,
		maxRSS:   40 << 10,
		wantExit: []int{1},
	}
	if doc, err := b.ourJSON(j); err == nil {
		found := false
		for _, f := range doc.Findings {
			found = found || f.Rule == "RL003" && f.Path == "AGENTS.md"
		}
		if !found {
			b.fail("%s: no RL003 finding for AGENTS.md", j.name)
		}
		j.affected = len(doc.Directories)
	}
	b.jobs = append(b.jobs, j)

	memDir := filepath.Join(b.o.dir, "memory")
	if err := tinyRepo(b, memDir); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(memDir, "AGENTS.md"), []byte("# Rules\n\n- Be brief.\n"), 0o644); err != nil {
		return err
	}
	memFile := filepath.Join(b.o.dir, "memory.jsonl")
	if err := writeMemory(memFile, b.o.memLine); err != nil {
		return err
	}
	j = &job{name: fmt.Sprintf("memory file, %s lines (preview)", thousands(b.o.memLine)), group: "limits", dir: memDir,
		ours:     []string{"preview", "--memory", memFile, "--project", "bench"},
		target:   "< 1 s",
		maxWall:  time.Second,
		wantExit: []int{0},
	}
	cmd := exec.Command(b.bin, "preview", "--memory", memFile, "--project", "bench", "--section", "memory")
	cmd.Dir, cmd.Env = memDir, b.env
	out, err := cmd.Output()
	if err != nil {
		b.fail("%s: preview --section memory: %v", j.name, err)
	} else {
		n := 0
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(line, "- [") {
				n++
			}
		}
		if n != 20 {
			b.fail("%s: the memory section has %d entries, want the last 20:\n%s", j.name, n, out)
		}
	}
	b.jobs = append(b.jobs, j)
	return nil
}

func tinyRepo(b *bench, dir string) error {
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if _, err := b.git(dir, "init", "-q"); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("tiny\n"), 0o644); err != nil {
		return err
	}
	if _, err := b.git(dir, "add", "README.md"); err != nil {
		return err
	}
	_, err := b.git(dir, "-c", "user.name=b", "-c", "user.email=b@b.invalid", "commit", "-q", "-m", "tiny")
	return err
}

// writeMemory writes n lines of explicit memory: user preferences, this
// project's facts, other projects' entries and a corrupt line in a
// thousand.
func writeMemory(name string, n int) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range n {
		switch {
		case i%1000 == 999:
			fmt.Fprintf(w, `{"type":"project_fact","text":"truncated %d`+"\n", i)
		case i%4 == 0:
			fmt.Fprintf(w, `{"type":"user_preference","text":"Answer briefly; preference %d.","created_at":"2025-06-01T12:00:00Z"}`+"\n", i)
		case i%4 == 1:
			fmt.Fprintf(w, `{"type":"project_fact","text":"Service %d listens on port 8080.","project":"bench"}`+"\n", i)
		default:
			fmt.Fprintf(w, `{"type":"project_preference","text":"Another project's preference %d.","project":"other-%d"}`+"\n", i, i%50)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// jsonDoc is the part of `check --format json` the verification reads.
type jsonDoc struct {
	Findings []struct {
		Rule    string `json:"rule"`
		Path    string `json:"path"`
		Agent   string `json:"agent"`
		Message string `json:"message"`
	} `json:"findings"`
	Directories []struct {
		Path        string `json:"path"`
		Fingerprint string `json:"fingerprint"`
	} `json:"directories"`
	Drift []json.RawMessage `json:"drift"`
}

// ourJSON runs the job's command once with --format json.
func (b *bench) ourJSON(j *job) (*jsonDoc, error) {
	out := filepath.Join(b.o.dir, "verify.json")
	args := append(append([]string{}, j.ours...), "--format", "json", "--output", out)
	cmd := exec.Command(b.bin, args...)
	cmd.Dir, cmd.Env = j.dir, b.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		b.fail("%s: %v", j.name, err)
		return nil, err
	}
	if !slices.Contains(j.wantExit, code) {
		b.fail("%s: exit %d (want %v): %s", j.name, code, j.wantExit, strings.TrimSpace(stderr.String()))
		return nil, fmt.Errorf("exit %d", code)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		b.fail("%s: %v", j.name, err)
		return nil, err
	}
	var doc jsonDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		b.fail("%s: bad JSON: %v", j.name, err)
		return nil, err
	}
	return &doc, nil
}

// verifyDirs checks that the job resolves exactly the directories want.
func (b *bench) verifyDirs(j *job, want map[string]bool) {
	doc, err := b.ourJSON(j)
	if err != nil {
		return
	}
	got := map[string]bool{}
	fps := map[string]string{}
	for _, d := range doc.Directories {
		p := d.Path
		if p == "." {
			p = ""
		}
		got[p] = true
		fps[p] = d.Fingerprint
	}
	j.affected = len(got)
	j.doc = doc
	fpByJob[j] = fps
	var missing, extra []string
	for d := range want {
		if !got[d] {
			missing = append(missing, resolve.DisplayDir(d))
		}
	}
	for d := range got {
		if !want[d] {
			extra = append(extra, resolve.DisplayDir(d))
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		b.fail("%s: resolved %d directories, expected %d; missing %s; unexpected %s", j.name, len(got), len(want), head(missing), head(extra))
	}
	if strings.Contains(j.name, "A..") && len(doc.Drift) == 0 {
		b.fail("%s: no drift reported for a change of instruction files", j.name)
	}
}

var fpByJob = map[*job]map[string]string{}

// verifyFingerprints checks R6/R8 across the cases of the main
// repository: the head tree of B, the index and the worktree hold the same
// content for every directory, so each gives the same fingerprint.
func (b *bench) verifyFingerprints() {
	var ref *job
	for _, j := range b.jobs {
		if j.group == "main" && j.name == "diff A..B" {
			ref = j
		}
	}
	if ref == nil {
		return
	}
	for _, j := range b.jobs {
		if j.group != "main" || j == ref || strings.Contains(j.name, "A..") {
			continue
		}
		bad := 0
		var first string
		for d, fp := range fpByJob[ref] {
			if other, ok := fpByJob[j][d]; ok && other != fp {
				bad++
				if first == "" {
					first = resolve.DisplayDir(d)
				}
			}
		}
		if bad > 0 {
			b.fail("%s: %d directories have another fingerprint than in diff A..B (e.g. %s): the sources disagree (R6, R8)", j.name, bad, first)
		}
	}
}

func head(s []string) string {
	if len(s) > 5 {
		return strings.Join(s[:5], ", ") + fmt.Sprintf(" (+%d more)", len(s)-5)
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// affected is R7 computed from git's answers: the directory of every
// changed path, and below every changed instruction file's directory P, P
// and every directory holding a candidate; only directories that exist
// among files.
func affected(changed, files []string) map[string]bool {
	exists := map[string]bool{"": true}
	var cands []string
	for _, f := range files {
		for d := resolve.ParentDir(f); !exists[d]; d = resolve.ParentDir(d) {
			exists[d] = true
		}
		if monorepo.IsInstruction(f) {
			cands = append(cands, resolve.ParentDir(f))
		}
	}
	out := map[string]bool{}
	for _, p := range changed {
		out[resolve.ParentDir(p)] = true
		if !monorepo.IsInstruction(p) {
			continue
		}
		pd := resolve.ParentDir(p)
		for _, c := range cands {
			if pd == "" || c == pd || strings.HasPrefix(c, pd+"/") {
				out[c] = true
			}
		}
	}
	for d := range out {
		if !exists[d] {
			delete(out, d)
		}
	}
	return out
}

// affectedFiles is R7 for command-line files that all exist.
func affectedFiles(picked, onDisk []string) map[string]bool {
	return affected(picked, onDisk)
}

// runOnce runs argv in dir and returns its wall time and peak RSS.
func (b *bench) runOnce(dir string, env []string, argv []string, stderr io.Writer) (sample, int, error) {
	resp, err := b.sp.run(dir, env, argv, stderr != nil && stderr != io.Discard)
	if err != nil {
		return sample{}, -1, err
	}
	if stderr != nil {
		io.WriteString(stderr, resp.Stderr)
	}
	return sample{wall: time.Duration(resp.Wall), cpu: time.Duration(resp.CPU), rss: resp.RSS}, resp.Exit, nil
}

func (b *bench) runOurs(j *job, traced bool) (sample, string) {
	env := b.env
	if traced {
		env = append(append([]string{}, b.env...), "RIVUMI_LINT_TRACE=1")
	}
	var stderr bytes.Buffer
	s, code, err := b.runOnce(j.dir, env, append([]string{b.bin}, j.ours...), &stderr)
	if err != nil || !slices.Contains(j.wantExit, code) {
		b.fail("%s: rivumi-lint exit %d (want %v), %v: %s", j.name, code, j.wantExit, err, lastLines(stderr.String()))
	}
	return s, stderr.String()
}

func (b *bench) runTheirs(j *job) sample {
	var total sample
	for _, argv := range j.theirs {
		s, code, err := b.runOnce(j.dir, b.env, argv, io.Discard)
		if err != nil || code != 0 && !slices.Contains(j.theirExit, code) {
			b.fail("%s: %s: exit %d, %v", j.name, strings.Join(argv, " "), code, err)
		}
		total.wall += s.wall
		total.cpu += s.cpu
		total.rss = max(total.rss, s.rss)
	}
	if j.inproc != nil {
		d := j.inproc()
		total.wall += d
		total.cpu += d
	}
	return total
}

func lastLines(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 600 {
		s = "…" + s[len(s)-600:]
	}
	return s
}

// runRounds runs one warm-up round and then o.rounds counted ones. In each
// round every case runs ours and the yardstick back to back, the order
// alternating between rounds, so both sides see the same load; then ours
// once more with RIVUMI_LINT_TRACE=1 for the phase split (not counted in
// the wall medians).
func (b *bench) runRounds() {
	for r := 0; r <= b.o.rounds; r++ {
		b.logf("round %d/%d", r, b.o.rounds)
		for _, j := range b.jobs {
			oursFirst := r%2 == 1
			var os_, ts sample
			if oursFirst {
				os_, _ = b.runOurs(j, false)
			}
			if len(j.theirs) > 0 || j.inproc != nil {
				ts = b.runTheirs(j)
			}
			if !oursFirst {
				os_, _ = b.runOurs(j, false)
			}
			_, tr := b.runOurs(j, true)
			if r == 0 {
				continue // warm-up: page cache, binary
			}
			j.ourS = append(j.ourS, os_)
			j.theirS = append(j.theirS, ts)
			b.addPhases(j, tr)
			if b.o.verbose {
				b.logf("  %-28s ours %7.1f ms %6.1f MiB   git %7.1f ms", j.name, ms(os_.wall), mib(os_.rss), ms(ts.wall))
			}
		}
	}
}

var traceLine = regexp.MustCompile(`^rivumi-lint: trace: (\S+) ([0-9.]+)ms$`)

func (b *bench) addPhases(j *job, stderr string) {
	if j.phases == nil {
		j.phases = map[string][]float64{}
	}
	for _, line := range strings.Split(stderr, "\n") {
		m := traceLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		v, _ := strconv.ParseFloat(m[2], 64)
		if _, ok := j.phases[m[1]]; !ok {
			j.phaseOrder = append(j.phaseOrder, m[1])
		}
		j.phases[m[1]] = append(j.phases[m[1]], v)
	}
}

func median[T int64 | float64 | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
func mib(kib int64) float64      { return float64(kib) / 1024 }

func thousands(n int) string {
	s := strconv.Itoa(n)
	var out []string
	for len(s) > 3 {
		out = append([]string{s[len(s)-3:]}, out...)
		s = s[:len(s)-3]
	}
	return strings.Join(append([]string{s}, out...), ",")
}

func (b *bench) print(w io.Writer) {
	fmt.Fprintf(w, "\n## rivumi-lint benchmark (scripts/bench%s)\n\n", map[bool]string{true: " --small", false: ""}[b.o.small])
	for _, m := range b.machine {
		fmt.Fprintf(w, "- %s\n", m)
	}
	labels := make([]string, 0, len(b.sizes))
	for l := range b.sizes {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		fmt.Fprintf(w, "- repository %s: %s\n", l, b.sizes[l])
	}
	gens := make([]string, 0, len(b.gen))
	for k := range b.gen {
		gens = append(gens, k)
	}
	sort.Strings(gens)
	for _, k := range gens {
		fmt.Fprintf(w, "- setup: %s %.2f s\n", k, b.gen[k].Seconds())
	}
	fmt.Fprintf(w, "- %d interleaved rounds after one warm-up; medians; RSS is the peak resident set (wait4 rusage; floor %.1f MiB, the spawner's own, see bench/spawn.go)\n", b.o.rounds, mib(b.rssFloor))
	fmt.Fprintf(w, "- load average (1, 5, 15 min) before the rounds: %s; after: %s\n\n", b.loadBefore, b.loadAfter)

	fmt.Fprintln(w, "| case | dirs | rivumi-lint | RSS | yardstick | yardstick time | ratio | target | | CPU ours | CPU yardstick | CPU ratio |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---|---:|---:|---|---|---:|---:|---:|")
	for _, j := range b.jobs {
		ow := median(walls(j.ourS))
		orss := median(rsss(j.ourS))
		tw := median(walls(j.theirS))
		ref, gitCol, ratioCol := "—", "—", "—"
		met := true
		if len(j.theirs) > 0 || j.inproc != nil {
			ref = j.refName
			gitCol = fmt.Sprintf("%.1f ms", ms(tw))
			if tw > 0 {
				ratio := float64(ow) / float64(tw)
				ratioCol = fmt.Sprintf("%.2f×", ratio)
				if j.ratio > 0 && ratio > j.ratio {
					met = false
				}
			}
		}
		if j.maxWall > 0 && ow >= j.maxWall {
			met = false
		}
		if j.maxRSS > 0 && orss >= j.maxRSS {
			met = false
		}
		verdict := "met"
		if !met {
			verdict = "**missed**"
		}
		name := j.name
		if j.group == "scaled" {
			name += " (" + strconv.Itoa(b.o.scale) + "× repo)"
		}
		if j.note != "" {
			name += "; " + j.note
		}
		oc, tc := median(cpus(j.ourS)), median(cpus(j.theirS))
		cpuGit, cpuRatio := "—", "—"
		if len(j.theirs) > 0 || j.inproc != nil {
			cpuGit = fmt.Sprintf("%.1f ms", ms(tc))
			if tc > 0 {
				cpuRatio = fmt.Sprintf("%.2f×", float64(oc)/float64(tc))
			}
		}
		fmt.Fprintf(w, "| %s | %d | %.1f ms | %.1f MiB | %s | %s | %s | %s | %s | %.1f ms | %s | %s |\n", name, j.affected, ms(ow), mib(orss), ref, gitCol, ratioCol, j.target, verdict, ms(oc), cpuGit, cpuRatio)
	}
	fmt.Fprintln(w, "\nWhere rivumi-lint's time goes (medians of the traced runs, RIVUMI_LINT_TRACE=1; ms):")
	fmt.Fprintln(w)
	var all []string
	seen := map[string]bool{}
	for _, j := range b.jobs {
		for _, p := range j.phaseOrder {
			if !seen[p] && p != "maxrss" {
				seen[p] = true
				all = append(all, p)
			}
		}
	}
	// The order of a run, whichever case printed a phase first.
	rank := map[string]float64{"start": 1, "open": 2, "index": 3, "diff": 4, "scope": 5, "resolve": 6, "render": 7, "drift": 8, "base": 8.5, "report": 9, "other": 10, "total": 11}
	order := func(p string) float64 {
		if r, ok := rank[p]; ok {
			return r
		}
		return 7.5 // the preview's own phases: after rendering the chain
	}
	sort.SliceStable(all, func(a, b int) bool { return order(all[a]) < order(all[b]) })
	fmt.Fprintf(w, "| case | %s |\n", strings.Join(all, " | "))
	fmt.Fprintf(w, "|---|%s\n", strings.Repeat("---:|", len(all)))
	for _, j := range b.jobs {
		var cols []string
		for _, p := range all {
			if v, ok := j.phases[p]; ok {
				cols = append(cols, fmt.Sprintf("%.1f", median(v)))
			} else {
				cols = append(cols, "")
			}
		}
		name := j.name
		if j.group == "scaled" {
			name += " (" + strconv.Itoa(b.o.scale) + "×)"
		}
		fmt.Fprintf(w, "| %s | %s |\n", name, strings.Join(cols, " | "))
	}
	fmt.Fprintln(w, "\nPhases: start = process start and flags; open = repository, revisions, index, config; index = a check of PATHs' index scan, with the first listings beside it (then not in open); scope/diff = changed paths and affected directories (R7); resolve = chains and reads; render = rules and rendering; drift = base chains (R9); base = the rules over the base chains of the findings' directories (B6); report = output; other = exit.")
	if b.o.scale > 1 {
		fmt.Fprintf(w, "\nCost against repository size (same change, %d× the files):\n\n", b.o.scale)
		fmt.Fprintln(w, "| case | dirs 1× | rivumi-lint 1× | dirs | rivumi-lint | git 1× | git |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
		for _, j := range b.jobs {
			if j.group != "main" || !strings.Contains(j.name, "A..") || strings.Contains(j.name, "--agent") {
				continue
			}
			for _, k := range b.jobs {
				if k.group == "scaled" && strings.HasSuffix(k.name, " "+j.name) {
					fmt.Fprintf(w, "| %s | %d | %.1f ms | %d | %.1f ms | %.1f ms | %.1f ms |\n", j.name, j.affected, ms(median(walls(j.ourS))),
						k.affected, ms(median(walls(k.ourS))), ms(median(walls(j.theirS))), ms(median(walls(k.theirS))))
				}
			}
		}
	}
}

func walls(s []sample) []time.Duration {
	out := make([]time.Duration, len(s))
	for i, x := range s {
		out[i] = x.wall
	}
	return out
}

func cpus(s []sample) []time.Duration {
	out := make([]time.Duration, len(s))
	for i, x := range s {
		out[i] = x.cpu
	}
	return out
}

func rsss(s []sample) []int64 {
	out := make([]int64, len(s))
	for i, x := range s {
		out[i] = x.rss
	}
	return out
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func machineInfo() []string {
	var out []string
	model := "unknown"
	if f, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(f), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	out = append(out, fmt.Sprintf("machine: %d CPUs (nproc), %s, %s/%s", runtime.NumCPU(), model, runtime.GOOS, runtime.GOARCH))
	if f, err := os.ReadFile("/proc/meminfo"); err == nil {
		line, _, _ := strings.Cut(string(f), "\n")
		out = append(out, "memory: "+strings.Join(strings.Fields(line)[1:], " "))
	}
	if v, err := exec.Command("git", "version").Output(); err == nil {
		out = append(out, strings.TrimSpace(string(v)))
	}
	if v, err := exec.Command("go", "version").Output(); err == nil {
		out = append(out, strings.TrimSpace(string(v)))
	}
	return out
}

var _ = path.Base
