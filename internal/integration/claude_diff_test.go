package integration

// TestClaudeDifferential proves the claude agent profile against the real
// Claude Code: seeded random repositories (claudegen_test.go), each
// compared from a few directories, where the harness
// (claudeharness_test.go) captures the instruction block Claude Code
// 2.1.328 sends and rivumi-lint's view must hold the same bytes. Where the
// product says it cannot be exact, the generated repository must hold
// what it names (a link out of the repository that Claude Code reads);
// those cases are counted apart.
//
//	RIVUMI_CLAUDE=PATH        the claude binary (default: claude on PATH)
//	RIVUMI_CLAUDE_REPOS=N     repositories (default claudeDefaultRepos)
//	RIVUMI_CLAUDE_FIRST=S     the first seed (default 1): seeds S..S+N-1
//	RIVUMI_CLAUDE_SEED=S      only seed S, to reproduce a mismatch
//	RIVUMI_CLAUDE_KEEP=DIR    keep each mismatching seed's files in DIR/seed-S
//
// It needs RIVUMI_LINT_INTEGRATION=1 (.ci/run sets it and installs Claude
// Code); scripts/claude-differential runs it over fresh seeds.

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// claudeDefaultRepos keeps the fixed-seed sample within a minute on CI's
// two cores (each Claude Code run takes about a second; about 40
// directories).
const claudeDefaultRepos = 16

func claudeSeeds(t *testing.T) (first, count uint64) {
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
	if os.Getenv("RIVUMI_CLAUDE_SEED") != "" {
		return num("RIVUMI_CLAUDE_SEED", 0), 1
	}
	return num("RIVUMI_CLAUDE_FIRST", 1), num("RIVUMI_CLAUDE_REPOS", claudeDefaultRepos)
}

// claudeTally sums what the parallel seeds compared.
type claudeTally struct {
	mu                                   sync.Mutex
	repos, dirs, explained, none, failed int
	feat                                 map[string]int
	why                                  map[string]int
}

func (ct *claudeTally) add(c *claudeCase, dirs, explained, none int, failed bool, why []string) {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	ct.repos++
	ct.dirs += dirs
	ct.explained += explained
	ct.none += none
	if failed {
		ct.failed++
	}
	for k, v := range c.feat {
		ct.feat[k] += v
	}
	for _, w := range why {
		ct.why[w]++
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

func TestClaudeDifferential(t *testing.T) {
	bin := claudeBinary(t)
	first, count := claudeSeeds(t)
	start := time.Now()
	tally := &claudeTally{feat: map[string]int{}, why: map[string]int{}}
	t.Cleanup(func() {
		t.Logf("claude differential: %d repositories (seeds %d..%d), %d directories compared, %d explained (the product says it is not exact, and the repository holds what it names), %d where Claude Code sends no instructions, %d repositories mismatching, %s",
			tally.repos, first, first+count-1, tally.dirs, tally.explained, tally.none, tally.failed, time.Since(start).Round(time.Millisecond))
		t.Logf("claude differential: why the explained cases are not exact:%s", sortedCounts(tally.why))
		t.Logf("claude differential: what the generator wrote (counts over all repositories):%s", sortedCounts(tally.feat))
	})
	for seed := first; seed < first+count; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			claudeSeed(t, bin, seed, tally)
		})
	}
}

func claudeSeed(t *testing.T, bin string, seed uint64, tally *claudeTally) {
	c := claudeGenerate(seed)
	base := t.TempDir()
	keep := os.Getenv("RIVUMI_CLAUDE_KEEP")
	if keep != "" {
		if !filepath.IsAbs(keep) {
			t.Fatalf("RIVUMI_CLAUDE_KEEP=%q: want an absolute directory, outside any repository", keep)
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
	needClaudeCleanAbove(t, base)
	compared, explained, none := 0, 0, 0
	var why []string
	defer func() { tally.add(c, compared, explained, none, t.Failed(), why) }()
	p, home := c.write(t, base)
	for _, d := range c.dirs {
		dir := filepath.Join(p.repo, filepath.FromSlash(d))
		compared++
		res := runClaude(t, bin, dir, claudeOptions{settings: c.settings(base), home: home})
		want, sent, err := claudeBlock(res.bodies)
		if err != nil {
			t.Fatalf("seed %d: claude in %s: %v\n%s", seed, d, err, res)
		}
		if !sent {
			none++
		}
		// The harness's home is known here, with the user's files or
		// without: the product reads it as the user's own.
		// Each run has a home of its own, which the block names.
		o := agent.ClaudeOptions{Mode: c.mode, Excludes: c.settingsExcludes(base), Home: res.home, ExternalImports: c.external}
		got, exact, inexact, cands := newClaudeProfile(t, p.repo, o, c.sortedDirs()).view(t, d)
		switch {
		case !exact && !c.explains(d, inexact):
			t.Errorf("seed %d (RIVUMI_CLAUDE_SEED=%d): dir %q: the product says it is not exact (%q), which the repository does not explain\n%s",
				seed, seed, d, inexact, c.describe(p, d))
		case !exact:
			explained++
			why = append(why, claudeWhy(inexact))
		case got != want:
			t.Errorf("seed %d (RIVUMI_CLAUDE_SEED=%d): dir %q: claude and rivumi-lint differ: %s\n%s\n    candidates:%s",
				seed, seed, d, claudeByteDiff(want, got), c.describe(p, d), cands)
		}
	}
	if keep != "" && !t.Failed() {
		os.RemoveAll(base)
	} else if keep != "" {
		t.Logf("seed %d kept in %s", seed, base)
	}
}

// claudeProfile is the claude profile over the worktree of one case, as
// a run resolves it: one resolver, every directory's view (parents first,
// views shared where a directory adds nothing), files read once.
type claudeProfile struct{ r *agent.ClaudeResolver }

func newClaudeProfile(t *testing.T, repo string, o agent.ClaudeOptions, dirs []string) *claudeProfile {
	t.Helper()
	wt, err := resolve.OpenWorktree(repo, nil)
	if err != nil {
		t.Fatal(err)
	}
	o.RootAbs = filepath.ToSlash(repo)
	e := resolve.New(wt, resolve.Options{Overrides: []string{"RIVUMI.override.md", "AGENTS.override.md"},
		Normals: []string{"RIVUMI.md", "AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
	p := &claudeProfile{r: agent.NewClaude(e, o)}
	for _, d := range dirs {
		if _, err := p.r.View(d); err != nil {
			t.Fatalf("claude profile: view of %q: %v", d, err)
		}
	}
	return p
}

// view is the profile's text of dir, whether it is exact, and its
// candidates for a message.
func (p *claudeProfile) view(t *testing.T, dir string) (text string, exact bool, inexact, cands string) {
	t.Helper()
	v, err := p.r.View(dir)
	if err != nil {
		t.Fatalf("claude profile: view of %q: %v", dir, err)
	}
	var b strings.Builder
	for _, c := range v.Candidates {
		fmt.Fprintf(&b, "\n      %s: %s (%s)", c.Path, c.State, c.Reason)
	}
	return string(v.Message()), v.Exact(), v.Inexact, b.String()
}

func (c *claudeCase) settingsExcludes(base string) []string {
	var ex []string
	for _, e := range c.excludes {
		ex = append(ex, strings.ReplaceAll(e, "{{BASE}}", filepath.ToSlash(base)))
	}
	return ex
}

// explains reports whether the case holds what makes the view of d not
// exact: a link out of the repository among the Claude Code files of the
// chain.
func (c *claudeCase) explains(d, why string) bool {
	if c.external && (strings.Contains(why, "outside the repository") || strings.Contains(why, "out of the repository")) {
		return true // an approved import out of the repository
	}
	for _, o := range c.out {
		od := claudeOwner(o)
		if od == "" || od == d || strings.HasPrefix(d, od+"/") {
			if strings.Contains(why, "out of the repository") {
				return true
			}
		}
	}
	return false
}

// claudeOwner is the chain directory a repo-relative Claude Code path
// belongs to: the part before ".claude/", else its directory.
func claudeOwner(p string) string {
	if i := strings.Index(p, ".claude/"); i >= 0 {
		return strings.TrimSuffix(p[:i], "/")
	}
	if i := strings.Index(p, ".claude"); i >= 0 && strings.HasSuffix(p, ".claude") {
		return strings.TrimSuffix(p[:i], "/")
	}
	return pathParent(p)
}

// claudeWhy is the kind of an inexact reason, for the tally.
func claudeWhy(why string) string {
	switch {
	case strings.Contains(why, "out of the repository"):
		return "a link out of the repository"
	case strings.Contains(why, "outside the repository"):
		return "an approved import from outside the repository"
	}
	return why
}

func claudeByteDiff(want, got string) string {
	return codexBytesDiffer("claude", want, "rivumi-lint", got)
}

// describe lists the files of the chain of d for a mismatch's message.
func (c *claudeCase) describe(p claudePaths, d string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "    mode %q, excludes %q, home %v\n", c.mode, c.excludes, c.home)
	keys := make([]string, 0, len(c.tree))
	for k := range c.tree {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e := c.tree[k]
		switch e.kind {
		case cxFile:
			s := string(e.data)
			if len(s) > 80 {
				s = s[:80] + "…"
			}
			fmt.Fprintf(&b, "    %s: %q\n", k, s)
		case cxLink:
			fmt.Fprintf(&b, "    %s -> %s\n", k, e.target)
		case cxDir:
			fmt.Fprintf(&b, "    %s/ (a directory)\n", k)
		case cxFifo:
			fmt.Fprintf(&b, "    %s (a FIFO)\n", k)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
