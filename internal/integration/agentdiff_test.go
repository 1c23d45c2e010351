package integration

// The differential-test harness every agent profile shares: seeded random
// repositories, each compared from several directories, where the real
// agent's instruction text and `rivumi-lint preview --agent NAME --section
// instructions` must be the same bytes, and where the product says it
// cannot be exact (preview --format json's exact and inexact), the case must
// hold what makes it so. A profile supplies what differs (diffProfile and
// diffCase: codex_test.go, claude_diff_test.go); the seeds, the kept files
// of a mismatching seed, the loop, the comparison, the tally and the
// summary are here, so every profile's test checks the same things and
// reads the same environment:
//
//	PREFIX_REPOS=N   repositories (default the profile's)
//	PREFIX_FIRST=S   the first seed (default 1): seeds S..S+N-1
//	PREFIX_SEED=S    only seed S, to reproduce a mismatch
//	PREFIX_KEEP=DIR  keep each mismatching seed's files in DIR/seed-S
//	                 (DIR absolute and outside any repository)
//
// with PREFIX the profile's binary variable (RIVUMI_CODEX, RIVUMI_CLAUDE).
// scripts/agent-differential runs one over fresh seeds.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// diffProfile is one agent profile's side of its differential test.
type diffProfile interface {
	// info names the profile and its defaults.
	info() diffInfo
	// binary is the real agent, pinned (agentBinary).
	binary(t *testing.T) string
	// generate is the case of a seed: the same seed, the same case.
	generate(seed uint64) diffCase
	// cleanAbove fails t when a directory above base (symlinks evaluated)
	// holds what the real agent would read into every case.
	cleanAbove(t *testing.T, base string)
}

// diffInfo is what the harness prints and reads for a profile.
type diffInfo struct {
	agent   string // preview's --agent and the JSON's agent: "codex"
	product string // in messages: "Codex", "Claude Code"
	prefix  string // of the environment: RIVUMI_CODEX (_SEED, _FIRST, _REPOS, _KEEP)
	repos   uint64 // repositories by default
}

// diffCase is one generated repository. The harness calls write once,
// then, for each of dirs, real and then compare, explains or describe.
type diffCase interface {
	// write puts the case under base and says where its repository and
	// rivumi-lint's config are.
	write(t *testing.T, base string) diffPlace
	// dirs are the repo-relative slash directories to compare ("" is the root).
	dirs() []string
	// real runs the real agent bin in the repo-relative directory d and
	// returns the instruction text it sends (sent false when it sends none)
	// and the variables under which preview must print the same (HOME...).
	real(t *testing.T, bin, d string) (text string, sent bool, env []string)
	// compare checks what else must agree with preview's answer for d
	// (nil when nothing does) and returns a note for a mismatch's message.
	compare(t *testing.T, d string, a diffAnswer) (note string, err error)
	// explains reports whether the case holds what makes d's view not exact
	// (inexact is the product's reason) and the kind of it, for the tally.
	explains(d, inexact string) (kind string, ok bool)
	// describe lists what the real agent reads for d, for a message.
	describe(d string) string
	// features are what the generator wrote, counted.
	features() map[string]int
}

// diffForms is a diffCase that chooses, for the directory d, which of
// agentPreview's forms (by default i, the directory's index) can name it:
// outside Git only --root names the root (form 0); a directory in a nested
// repository or a submodule is previewed from inside it (form 2), since
// --root naming the outer one is refused.
type diffForms interface{ form(d string, i int) int }

// diffPlace is where a written case is.
type diffPlace struct{ repo, config string }

// agentDiff runs the differential test of a profile over its seeds.
func agentDiff(t *testing.T, prof diffProfile) {
	info := prof.info()
	real := prof.binary(t)
	lint := rivumiLint(t)
	first, count := agentSeeds(t, info.prefix, info.repos)
	start := time.Now()
	tally := &diffTally{feat: map[string]int{}, why: map[string]int{}}
	// The seeds run in parallel (up to -parallel, GOMAXPROCS by default);
	// a cleanup runs after all of them.
	t.Cleanup(func() {
		t.Logf("%s differential: %d repositories (seeds %d..%d), %d directories compared, %d explained (the product says it is not exact, and the repository holds what it names), %d where %s sends no instructions, %d repositories mismatching, %s",
			info.agent, tally.repos, first, first+count-1, tally.dirs, tally.explained, tally.none, info.product, tally.failed, time.Since(start).Round(time.Millisecond))
		t.Logf("%s differential: why the explained cases are not exact:%s", info.agent, sortedCounts(tally.why))
		t.Logf("%s differential: what the generator wrote (counts over all repositories):%s", info.agent, sortedCounts(tally.feat))
	})
	for seed := first; seed < first+count; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			agentDiffSeed(t, prof, info, real, lint, seed, tally)
		})
	}
}

// agentDiffSeed compares one seed's case from each of its directories.
func agentDiffSeed(t *testing.T, prof diffProfile, info diffInfo, real, lint string, seed uint64, tally *diffTally) {
	c := prof.generate(seed)
	base := t.TempDir()
	keepVar := info.prefix + "_KEEP"
	keep := os.Getenv(keepVar)
	if keep != "" {
		if !filepath.IsAbs(keep) {
			t.Fatalf("%s=%q: want an absolute directory, outside any repository", keepVar, keep)
		}
		base = filepath.Join(keep, fmt.Sprintf("seed-%d", seed))
		if err := os.RemoveAll(base); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(base, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	base, err := filepath.EvalSymlinks(base)
	if err != nil {
		t.Fatal(err)
	}
	prof.cleanAbove(t, base)
	var compared, explained, none int
	var why []string
	// Counted however the seed ends, a fatal error included.
	defer func() { tally.add(c.features(), compared, explained, none, t.Failed(), why) }()
	p := c.write(t, base)
	at := func(d string) string {
		return fmt.Sprintf("seed %d (%s_SEED=%d): dir %q", seed, info.prefix, seed, d)
	}
	for i, d := range c.dirs() {
		compared++
		want, sent, environ := c.real(t, real, d)
		if !sent {
			none++
		}
		form := i
		if f, ok := c.(diffForms); ok {
			form = f.form(d, i)
		}
		a := agentPreview(t, lint, info.agent, base, p, environ, d, form)
		if a.err != "" {
			t.Errorf("%s: %s (%s)\n%s", at(d), a.err, a.how, c.describe(d))
			continue
		}
		note, err := c.compare(t, d, a)
		if err != nil {
			t.Errorf("%s: %v (%s)", at(d), err, a.how)
		}
		switch {
		case !a.exact:
			kind, ok := c.explains(d, a.inexact)
			if !ok {
				t.Errorf("%s: the product says it is not exact (%q), which the repository does not explain (%s)\n%s",
					at(d), a.inexact, a.how, c.describe(d))
				continue
			}
			explained++
			why = append(why, kind)
		case a.text != want:
			t.Errorf("%s: %s and rivumi-lint differ (%s): %s\n%s%s",
				at(d), info.agent, a.how, codexBytesDiffer(info.agent, want, "rivumi-lint", a.text), c.describe(d), note)
		}
	}
	if keep != "" {
		if t.Failed() {
			t.Logf("seed %d kept in %s", seed, base)
		} else if err := os.RemoveAll(base); err != nil {
			t.Error(err)
		}
	}
}

// agentSeeds reads an agent differential's seeds from PREFIX_SEED (one),
// else PREFIX_FIRST (default 1) and PREFIX_REPOS (default repos).
func agentSeeds(t *testing.T, prefix string, repos uint64) (first, count uint64) {
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
	if os.Getenv(prefix+"_SEED") != "" {
		return num(prefix+"_SEED", 0), 1
	}
	return num(prefix+"_FIRST", 1), num(prefix+"_REPOS", repos)
}

// diffTally sums what the parallel seeds compared.
type diffTally struct {
	mu                                   sync.Mutex
	repos, dirs, explained, none, failed int
	feat                                 map[string]int
	why                                  map[string]int
}

func (dt *diffTally) add(feat map[string]int, dirs, explained, none int, failed bool, why []string) {
	dt.mu.Lock()
	defer dt.mu.Unlock()
	dt.repos++
	dt.dirs += dirs
	dt.explained += explained
	dt.none += none
	if failed {
		dt.failed++
	}
	for k, v := range feat {
		dt.feat[k] += v
	}
	for _, w := range why {
		dt.why[w]++
	}
}

func sortedCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n    %-60s %d", k, m[k])
	}
	return b.String()
}

// diffAnswer is what preview printed for one directory.
type diffAnswer struct {
	text    string
	exact   bool
	inexact string
	how     string // the command line, to reproduce it
	err     string // a failure of the command itself
}

// agentPreview runs the preview of the agent profile for the directory d
// (repo-relative) twice: the section's bytes and the JSON's exactness,
// with vars (HOME and the rest) in the environment. Which working
// directory and DIR form it uses varies with i, since the contract holds
// for all of them.
func agentPreview(t *testing.T, bin, agent, base string, p diffPlace, vars []string, d string, i int) diffAnswer {
	t.Helper()
	abs := filepath.Join(p.repo, filepath.FromSlash(d))
	var wd string
	var where []string
	switch i % 3 {
	case 0: // outside the repository: the root is named
		wd, where = base, []string{"--root", p.repo, abs}
	case 1: // at the root, DIR relative ("./": a name may start with "-")
		wd, where = p.repo, []string{"." + string(filepath.Separator) + filepath.FromSlash(d)}
	default: // in the directory itself
		wd, where = abs, []string{"."}
	}
	environ := env(t, append(slices.Clone(vars), "PWD="+wd)...)
	common := []string{"preview", "--agent", agent, "--config", p.config}
	sectionArgs := append(append(slices.Clone(common), "--section", "instructions"), where...)
	jsonArgs := append(append(slices.Clone(common), "--format", "json"), where...)
	assign := make([]string, len(vars))
	for i, kv := range vars {
		k, v, _ := strings.Cut(kv, "=")
		assign[i] = k + "=" + strconv.Quote(v)
	}
	a := diffAnswer{how: fmt.Sprintf("cd %q && %s rivumi-lint %s", wd, strings.Join(assign, " "), strings.Join(quoteAll(sectionArgs), " "))}
	r := run(t, wd, environ, nil, bin, sectionArgs...)
	if r.code != 0 {
		a.err = fmt.Sprintf("--section instructions: exit %d: %s", r.code, strings.TrimSpace(r.stderr))
		return a
	}
	a.text = r.stdout
	r = run(t, wd, environ, nil, bin, jsonArgs...)
	if r.code != 0 {
		a.err = fmt.Sprintf("--format json: exit %d: %s", r.code, strings.TrimSpace(r.stderr))
		return a
	}
	var doc struct {
		Agents []struct {
			Agent   string  `json:"agent"`
			Exact   *bool   `json:"exact"`
			Inexact string  `json:"inexact"`
			Text    *string `json:"text"`
		} `json:"agents"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		a.err = fmt.Sprintf("--format json: %v", err)
		return a
	}
	for _, ag := range doc.Agents {
		if ag.Agent != agent {
			continue
		}
		if ag.Exact == nil {
			a.err = fmt.Sprintf("--format json: the %s agent has no \"exact\"", agent)
			return a
		}
		a.exact, a.inexact = *ag.Exact, ag.Inexact
		// The JSON carries the same message: a second reading to hold to
		// it, where the product claims exactness.
		if a.exact && (ag.Text == nil && a.text != "" || ag.Text != nil && *ag.Text != a.text) {
			a.err = fmt.Sprintf("--format json: the %s agent's text is not what --section instructions prints: %s", agent, codexBytesDiffer("section", a.text, "JSON", deref(ag.Text)))
		}
		return a
	}
	a.err = fmt.Sprintf("--format json: no agent %q in %q", agent, r.stdout)
	return a
}

// agentBin is how to find a pinned agent binary.
type agentBin struct {
	what    string // "the Codex CLI", "Claude Code": in messages
	envVar  string // RIVUMI_CODEX: the binary, else command on PATH
	command string // "codex"
	hint    string // how to install the pinned release
	// check says why bin is not the pinned release (its --version), or nil.
	check func(bin string) error
}

// agentChecked holds, per binary, the outcome of its check, made once per
// test binary under the lock: a first run may unpack the package (Copilot:
// about 235 MB into the one cache every run shares), which parallel first
// runs must not do at once.
var agentChecked struct {
	sync.Mutex
	errs map[string]error
}

// agentBinary is the pinned binary of b: a skip without integration, a
// failure with the install hint when it is missing or another release.
func agentBinary(t *testing.T, b agentBin) string {
	t.Helper()
	needIntegration(t, "the harness of "+b.what)
	bin := os.Getenv(b.envVar)
	if bin == "" {
		p, err := exec.LookPath(b.command)
		if err != nil {
			t.Fatalf("%s is not installed (%s unset, no %s on PATH): %s", b.what, b.envVar, b.command, b.hint)
		}
		bin = p
	}
	agentChecked.Lock()
	defer agentChecked.Unlock()
	if agentChecked.errs == nil {
		agentChecked.errs = map[string]error{}
	}
	err, ok := agentChecked.errs[bin]
	if !ok {
		err = b.check(bin)
		agentChecked.errs[bin] = err
	}
	if err != nil {
		t.Fatalf("%v: %s", err, b.hint)
	}
	return bin
}

// checkVersion runs cmd (an agent's --version) and says how its output,
// trimmed, differs from want.
func checkVersion(cmd *exec.Cmd, want string) error {
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%s --version: %w", cmd.Path, err)
	}
	if got := strings.TrimSpace(string(out)); got != want {
		return fmt.Errorf("%s --version prints %q, want %q", cmd.Path, got, want)
	}
	return nil
}

// TestAgentDiffReportsWhatDiffers runs the harness, in a child test
// binary, over a profile whose "real agent" is rivumi-lint's own codex
// preview, changed in one directory: the harness must fail the seed and
// name the directory whose bytes differ, the one whose inexact view the
// case does not explain and the one whose compare fails, and none other;
// count them in its summary; and keep the seed's files.
func TestAgentDiffReportsWhatDiffers(t *testing.T) {
	if os.Getenv("RIVUMI_AGENTDIFF_CHILD") == "1" {
		agentDiff(t, selfDiff{})
		return
	}
	needIntegration(t, "the harness's own test")
	keep := t.TempDir()
	environ := env(t, "RIVUMI_AGENTDIFF_CHILD=1", "RIVUMI_AGENTDIFF_KEEP="+keep)
	r := run(t, ".", environ, nil, os.Args[0], "-test.run=^TestAgentDiffReportsWhatDiffers$", "-test.count=1", "-test.v", "-test.timeout=5m")
	out := r.stdout + r.stderr
	if r.code != 1 {
		t.Fatalf("the child exits %d, want 1 (a failing seed):\n%s", r.code, out)
	}
	at := `seed 1 (RIVUMI_AGENTDIFF_SEED=1): dir `
	for _, want := range []string{
		at + `"a": codex and rivumi-lint differ`,
		at + `"b": the product says it is not exact ("`,
		at + `"c": the case's own comparison fails`,
		"codex differential: 1 repositories (seeds 1..1), 4 directories compared, 0 explained (the product says it is not exact, and the repository holds what it names), 0 where the fake agent sends no instructions, 1 repositories mismatching",
		"seed 1 kept in " + filepath.Join(keep, "seed-1"),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the child's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, at+`"":`) {
		t.Errorf("the child reports the root, whose text is the same:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(keep, "seed-1", "repo", "a", "AGENTS.md")); err != nil {
		t.Errorf("the failing seed's files are not kept: %v", err)
	}
}

// selfDiff is TestAgentDiffReportsWhatDiffers's profile: one case, a
// repository with AGENTS.md at the root, in a, as a link out of the
// repository in b, none in c.
type selfDiff struct{}

func (selfDiff) info() diffInfo {
	return diffInfo{agent: "codex", product: "the fake agent", prefix: "RIVUMI_AGENTDIFF", repos: 1}
}

func (selfDiff) binary(t *testing.T) string { return rivumiLint(t) }

func (selfDiff) generate(uint64) diffCase { return &selfDiffCase{} }

func (selfDiff) cleanAbove(*testing.T, string) {}

type selfDiffCase struct{ base, repo, config string }

func (sc *selfDiffCase) write(t *testing.T, base string) diffPlace {
	sc.base, sc.repo, sc.config = base, filepath.Join(base, "repo"), filepath.Join(base, "rivumi-lint.yaml")
	writeFiles(t, base, map[string]string{
		"repo/AGENTS.md": "root\n", "repo/a/AGENTS.md": "a\n", "repo/b/x": "", "repo/c/x": "",
		"outside.md": "outside\n", "rivumi-lint.yaml": "version: 1\n",
	})
	if err := os.Symlink("../../outside.md", filepath.Join(sc.repo, "b", "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"home", "userhome"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git(t, sc.repo, "init", "-q")
	return diffPlace{repo: sc.repo, config: sc.config}
}

func (sc *selfDiffCase) dirs() []string { return []string{"", "a", "b", "c"} }

func (sc *selfDiffCase) vars() []string {
	return []string{"CODEX_HOME=" + filepath.Join(sc.base, "home"), "HOME=" + filepath.Join(sc.base, "userhome"), "RIVUMI_HOME=" + filepath.Join(sc.base, "userhome")}
}

// real is the product's own text, one byte more in a.
func (sc *selfDiffCase) real(t *testing.T, bin, d string) (string, bool, []string) {
	t.Helper()
	r := run(t, sc.base, env(t, sc.vars()...), nil, bin, "preview", "--agent", "codex", "--config", sc.config, "--section", "instructions",
		"--root", sc.repo, filepath.Join(sc.repo, filepath.FromSlash(d)))
	if r.code != 0 {
		t.Fatalf("preview of %q: %s", d, r)
	}
	if d == "a" {
		r.stdout += "!"
	}
	return r.stdout, true, sc.vars()
}

func (sc *selfDiffCase) compare(_ *testing.T, d string, _ diffAnswer) (string, error) {
	if d == "c" {
		return "", errors.New("the case's own comparison fails")
	}
	return "", nil
}

func (sc *selfDiffCase) explains(string, string) (string, bool) { return "", false }

func (sc *selfDiffCase) describe(string) string { return "    the harness's own case" }

func (sc *selfDiffCase) features() map[string]int { return map[string]int{"a fake case": 1} }

// TestAgentDifferentialScript: `scripts/agent-differential --help` prints
// its comment block and no code; without a profile and a pin, or with a
// name that is not one, it exits 2 and says why.
func TestAgentDifferentialScript(t *testing.T) {
	root := moduleRoot(t)
	r := run(t, root, env(t), nil, "bash", "scripts/agent-differential", "--help")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Runs one agent profile's differential test") || !strings.Contains(r.stdout, "RIVUMI_NAME_KEEP") {
		t.Fatalf("scripts/agent-differential --help: %s", r)
	}
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, "set ") || strings.HasPrefix(line, "#") {
			t.Errorf("scripts/agent-differential --help prints code or comment marks: %q", line)
		}
	}
	for args, want := range map[string]string{
		"":                 "usage: scripts/agent-differential NAME PIN",
		"codex":            "usage: scripts/agent-differential NAME PIN",
		"Codex pin":        "NAME is a profile's name in lower case",
		"codex pin x":      "scripts/codex-differential: N is a number of repositories, got 'x'",
		"codex pin --seed": "scripts/codex-differential: --seed needs a seed",
		"codex pin 3 4":    "scripts/codex-differential: too many arguments",
	} {
		r := run(t, root, env(t), nil, "bash", append([]string{"scripts/agent-differential"}, strings.Fields(args)...)...)
		if r.code != 2 || !strings.Contains(r.stderr, want) {
			t.Errorf("scripts/agent-differential %s: want exit 2 and %q, got %s", args, want, r)
		}
	}
}

// TestDifferentialScriptsHelp: each profile's `scripts/NAME-differential
// --help` prints its comment block and no code, and says how to reproduce
// a seed and install the pinned release.
func TestDifferentialScriptsHelp(t *testing.T) {
	for name, install := range map[string]string{
		"codex":   "npm install --prefix DIR @openai/codex@0.171.0",
		"claude":  "npm install --prefix DIR @anthropic-ai/claude-code@2.1.328",
		"copilot": "npm install --prefix DIR @github/copilot@" + copilotVersion + " @github/copilot-linux-x64@" + copilotVersion,
	} {
		script := "scripts/" + name + "-differential"
		r := run(t, moduleRoot(t), env(t), nil, "bash", script, "--help")
		if r.code != 0 || !strings.HasPrefix(r.stdout, "Runs the differential test of the "+name+" agent profile") {
			t.Errorf("%s --help: %s", script, r)
			continue
		}
		for _, line := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(line, "set ") || strings.HasPrefix(line, "cd ") || strings.HasPrefix(line, "#") {
				t.Errorf("%s --help prints code or comment marks: %q", script, line)
			}
		}
		if !strings.Contains(r.stdout, "--seed S") || !strings.Contains(r.stdout, install) {
			t.Errorf("%s --help does not say how to reproduce a seed or install the release (%s):\n%s", script, install, r.stdout)
		}
	}
}
