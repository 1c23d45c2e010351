package integration

// TestClaudeDifferential proves the claude agent profile against the real
// Claude Code, through the harness every profile shares
// (agentdiff_test.go): seeded random repositories (claudegen_test.go), each
// compared from a few directories, where the harness
// (claudeharness_test.go) captures the instruction block Claude Code
// 2.1.328 sends and `rivumi-lint preview --agent claude --section
// instructions` must print the same bytes (its JSON's exact must agree,
// and the resolver, every directory of the case resolved with one, must
// say the same; a case whose external imports are approved says so with
// claude.external_imports in the config). Where the
// product says it cannot be exact, the generated repository must hold
// what it names (a link out of the repository that Claude Code reads, an
// approved import from outside it); those cases are counted apart.
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
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/claude"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// claudeDefaultRepos keeps the fixed-seed sample within a minute on CI's
// two cores (each Claude Code run takes about a second; about 40
// directories).
const claudeDefaultRepos = 22

func TestClaudeDifferential(t *testing.T) { agentDiff(t, claudeDiff{}) }

// claudeDiff is the claude profile's side of the differential test
// (agentdiff_test.go).
type claudeDiff struct{}

func (claudeDiff) info() diffInfo {
	return diffInfo{agent: "claude", product: "Claude Code", prefix: claudeBinVar, repos: claudeDefaultRepos}
}

func (claudeDiff) binary(t *testing.T) string { return claudeBinary(t) }

func (claudeDiff) generate(seed uint64) diffCase { return &claudeDiffCase{c: claudeGenerate(seed)} }

func (claudeDiff) cleanAbove(t *testing.T, base string) { needClaudeCleanAbove(t, base) }

// claudeDiffCase is one generated case, once written where it is, and the
// home of the last run of Claude Code (compare follows real).
type claudeDiffCase struct {
	c    *claudeCase
	p    claudePaths
	home map[string]string // the user's files, written into each run's home
	run  string            // the last run's home
}

func (dc *claudeDiffCase) write(t *testing.T, base string) diffPlace {
	dc.p, dc.home = dc.c.write(t, base)
	return diffPlace{repo: dc.p.repo, config: dc.c.config(t, base)}
}

func (dc *claudeDiffCase) dirs() []string { return dc.c.dirs }

// real runs Claude Code in d, with a home of its own (which the block
// names): the product reads it as the user's own.
func (dc *claudeDiffCase) real(t *testing.T, bin, d string) (string, bool, []string) {
	t.Helper()
	res := runClaude(t, bin, filepath.Join(dc.p.repo, filepath.FromSlash(d)), claudeOptions{settings: dc.c.settings(dc.p.base), home: dc.home})
	text, sent, err := claudeBlock(res.bodies)
	if err != nil {
		t.Fatalf("claude in %s: %v\n%s", d, err, res)
	}
	dc.run = res.home
	return text, sent, []string{"HOME=" + res.home, "RIVUMI_HOME=" + res.home}
}

// compare: the resolver itself, every directory of the case resolved with
// one resolver, must answer as the command line does; a case whose
// external imports are approved says so with claude.external_imports.
func (dc *claudeDiffCase) compare(t *testing.T, d string, a diffAnswer) (string, error) {
	t.Helper()
	o := claude.Options{Mode: dc.c.mode, Excludes: dc.c.settingsExcludes(dc.p.base), Home: dc.run, ExternalImports: dc.c.external}
	direct, dexact, _, cands := newClaudeProfile(t, dc.p.repo, o, dc.c.sortedDirs()).view(t, d)
	note := "\n    candidates:" + cands
	if a.exact != dexact || a.exact && a.text != direct {
		return note, fmt.Errorf("the command line and the resolver differ (exact %v and %v): %s",
			a.exact, dexact, codexBytesDiffer("command line", a.text, "resolver", direct))
	}
	return note, nil
}

func (dc *claudeDiffCase) explains(d, inexact string) (string, bool) {
	return claudeWhy(inexact), dc.c.explains(d, inexact)
}

func (dc *claudeDiffCase) describe(d string) string { return dc.c.describe(dc.p, d) }

func (dc *claudeDiffCase) features() map[string]int { return dc.c.feat }

// claudeCLI runs the claude profile's preview for the directory d
// (repo-relative) as the differential test does (agentPreview), with
// HOME the run's home.
func claudeCLI(t *testing.T, bin string, p claudePaths, cfg, home, d string, i int) diffAnswer {
	t.Helper()
	return agentPreview(t, bin, "claude", p.base, diffPlace{repo: p.repo, config: cfg}, []string{"HOME=" + home, "RIVUMI_HOME=" + home}, d, i)
}

// config writes rivumi-lint's config for the case: the plugin's mode (an
// unknown one is Claude Code's default, which the config's enum refuses)
// and the excludes.
func (c *claudeCase) config(t *testing.T, base string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nclaude:\n")
	switch c.mode {
	case "", "no-such-mode":
		b.WriteString("  instruction_files: claude-md-or-agents-md\n")
	default:
		fmt.Fprintf(&b, "  instruction_files: %s\n", c.mode)
	}
	b.WriteString("  md_excludes: [")
	for i, e := range c.settingsExcludes(base) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(e))
	}
	b.WriteString("]\n")
	// The users' approval of the project's external imports (~/.claude.json).
	fmt.Fprintf(&b, "  external_imports: %v\n", c.external)
	p := filepath.Join(base, "rivumi-lint.yaml")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// claudeProfile is the claude profile over the worktree of one case, as
// a run resolves it: one resolver, every directory's view (parents first,
// views shared where a directory adds nothing), files read once.
type claudeProfile struct{ r agent.Resolver }

func newClaudeProfile(t *testing.T, repo string, o claude.Options, dirs []string) *claudeProfile {
	t.Helper()
	wt, err := resolve.OpenWorktree(repo, nil)
	if err != nil {
		t.Fatal(err)
	}
	o.RootAbs = filepath.ToSlash(repo)
	e := resolve.New(wt, resolve.Options{Overrides: []string{"RIVUMI.override.md", "AGENTS.override.md"},
		Normals: []string{"RIVUMI.md", "AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
	p := &claudeProfile{r: claude.New(e, o)}
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

// claudeFrontProbes are front matter bodies whose YAML decides whether a
// rules file loads at start: paths: of every type, YAML's scalar types,
// duplicate keys, flow mappings as keys, aliases, invalid YAML that the
// second parse quotes, CRLF.
var claudeFrontProbes = []string{
	`paths: "src/**"`, `paths: src/**`, `paths: [src/**]`, `paths: ["**"]`, `paths: "**"`, `paths: "{**}"`, `paths: "{src,**}"`,
	`paths: "**/*"`, `paths: "*"`, `paths: ""`, `paths: ''`, `paths: []`, `paths: [""]`, `paths: [[]]`, `paths: [["src/**"]]`,
	`paths: null`, `paths: ~`, `paths: 0`, `paths: 1`, `paths: true`, `paths: false`, `paths: {a: 1}`, `paths: "src/**, docs/**"`,
	`paths: "src/{a,b}/**"`, `paths: "/**"`, `paths: "**/**"`, `paths: "src/**/**"`, `paths: "{,}"`, `paths: "{**,}"`,
	`paths: *`, `paths: @x`, `paths: !tag x`, `paths: "**" # comment`, `Paths: src/**`, "paths: |\n  src/**", "paths:\n  - a\n  - b",
	"paths:\n  - \"**\"", `paths: "  "`, `paths: " , "`, `paths: ",**"`, `paths: "**,**"`, `paths: yes`, `paths: no`, `paths: .inf`,
	`paths: 0x10`, `paths: 1e3`, `paths: "0"`, "paths: a\npaths: b", "paths:\tsrc/**", "x: [\npaths: src/**", "paths: src/** # c",
	"paths: [a, b", "paths: {{a}}", "paths: \"a\\\"b\"", "paths: 'it''s'", "paths: >\n  src/**", "- a\n- b", "just text",
	"paths: !!str 5", "paths: &anc src/**", "a: &x 1\npaths: *x", "paths: [1, 2]", "paths: [\"**\", 3]", "paths: \"**/\"",
	"paths: src/**/", "paths: \"{a,b}{c,d}\"", "paths: \"}{\"", "paths: \"{\"", "paths: 2024-01-01", "paths: 1_000",
	"paths :  src/**", "'paths': src/**", "\"paths\": src/**", "? paths\n: src/**", "base: &b\n  x: 1\n<<: *b\npaths: src/**",
	"paths: [a,\n  b]", "paths: !!null", "paths: !!int 0", "paths: !!bool true", "paths: \"***\"", "\tpaths: src/**",
	"  paths: src/**", "paths: src/**\n  bad: indent", "%YAML 1.2\npaths: src/**", "# only a comment", "paths: [\"**\", \"\"]",
	"paths:\n- src/**", "paths: - src/**", "paths: \"src/**\" extra", "paths: 'a' 'b'", "paths: \u00a0src/**", "paths: \"\\u0041\"",
	"paths: 0.0", "paths: -0", "paths: 0o0", "paths: 0x0", "paths: +.inf", "paths: .NaN", "paths: 00", "paths: 1.", "paths: .5e",
	"paths: True", "paths: TRUE", "paths: tRUE", "paths: Null", "paths: NULL", "paths: nUll", "paths: ~~",
	"paths: [src/**, ~, 1]", "paths: [~]", "paths: [0]", "paths: [false]", "paths: [[\"**\"]]", "paths: {}", "paths: [{}]",
	"paths: >-\n  src/**\n  docs/**", "paths: src/**,", "paths: \"{a,{b,c}}\"", "paths: \"a/{b}/**\"", "paths: \"{}/**\"",
}

// TestClaudeRulesFrontMatter compares, in one run, which of a rules
// directory full of front matters Claude Code loads at start, in its
// order, with the profile's view (A5): each rules file is one probe.
func TestClaudeRulesFrontMatter(t *testing.T) {
	bin := claudeBinary(t)
	c := &claudeCase{tree: map[string]cxEntry{}, realDirs: map[string]bool{"": true}, feat: map[string]int{}}
	for i, f := range claudeFrontProbes {
		c.tree[fmt.Sprintf("repo/.claude/rules/r%03d.md", i)] = cxEntry{kind: cxFile, data: []byte(fmt.Sprintf("---\n%s\n---\nrule %d\n", f, i))}
		if i < 30 {
			c.tree[fmt.Sprintf("repo/.claude/rules/crlf%03d.md", i)] = cxEntry{kind: cxFile,
				data: []byte(strings.ReplaceAll(fmt.Sprintf("---\n%s\n---\ncrlf rule %d\n", f, i), "\n", "\r\n"))}
		}
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	needClaudeCleanAbove(t, base)
	p, _ := c.write(t, base)
	res := runClaude(t, bin, p.repo, claudeOptions{})
	want, _, err := claudeBlock(res.bodies)
	if err != nil {
		t.Fatal(err)
	}
	got, exact, inexact, cands := newClaudeProfile(t, p.repo, claude.Options{Home: res.home}, []string{""}).view(t, "")
	if !exact || got != want {
		t.Errorf("rules front matter (exact %v %q): %s\n    candidates:%s", exact, inexact, claudeByteDiff(want, got), cands)
	}
}

// claudeMDFragments build the Markdown probes: constructs whose token
// boundaries decide what the comment pass keeps and which imports the
// scan reads; IMP becomes an import target.
var claudeMDFragments = []string{
	"<!-- c -->", "<!--", "-->", "<!-- a --> trailing", "<!--->", "<!---->", "<!-->", "@IMP", "@./IMP", "`@IMP`", "```", "~~~",
	"    code @IMP", "- item @IMP", "* star", "+ plus", "1. x", "2) y", "> quote @IMP", ">", "# h @IMP", "## h2 ##", "---", "===",
	"***", "___", "- - -", "[r]: /u", "[r]: <a b> \"t\"", "[r]", "[x][r]", "*@IMP*", "**b**@IMP", "_u_", "__s__", "<div>", "</div>",
	"<pre>", "</pre>", "\\@IMP", "(@IMP)", "me@mail.md", "<a href='x'>@IMP</a>", "[@IMP](@IMP)", "[t](u \"ti\")", "\t", "  ",
	"\r\n", "\r", "\u2028", "\u00a0", "_", "*", "**", "![img](x)", "<http://x>", "<a@b.co>", "a  ", "\\", "x", "word", "@@z",
	"@#w", "@IMP,", "@IMP#frag", "text @IMP more", "<?pi?>", "<!DOCTYPE x>", "<![CDATA[ x ]]>", "<b>", "</b>", "<!-- @IMP -->",
	"`` a ` b ``", "\\`", "\\*", "é", "😀", "<table>", "<p>", "[^1]", "    ", "\t- t", "  - nested @IMP", "   > q", "#######",
}

// TestClaudeMarkdownProbe compares, in one run, the comment pass and the
// import scan over generated Markdown (a fixed seed): the root's
// CLAUDE.md imports each probe, each probe imports targets of its own,
// some missing, and the block shows what Claude Code kept of each and
// which imports it followed, in order.
func TestClaudeMarkdownProbe(t *testing.T) {
	bin := claudeBinary(t)
	seed := uint64(328)
	if s := os.Getenv("RIVUMI_CLAUDE_MD_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("RIVUMI_CLAUDE_MD_SEED=%q: want a number", s)
		}
		seed = n
	}
	r := rand.New(rand.NewPCG(seed, 2))
	c := &claudeCase{tree: map[string]cxEntry{}, realDirs: map[string]bool{"": true}, feat: map[string]int{}}
	var root strings.Builder
	const probes = 250
	for i := 0; i < probes; i++ {
		var b strings.Builder
		k := 0
		for n := 1 + r.IntN(14); n > 0; n-- {
			f := claudeMDFragments[r.IntN(len(claudeMDFragments))]
			for strings.Contains(f, "IMP") {
				k++
				target := fmt.Sprintf("t%d-%d.md", i, k)
				if r.IntN(4) > 0 {
					c.tree[fmt.Sprintf("repo/p/%s", target)] = cxEntry{kind: cxFile, data: []byte(fmt.Sprintf("target %d %d\n", i, k))}
				}
				f = strings.Replace(f, "IMP", target, 1)
			}
			b.WriteString(f)
			switch r.IntN(5) {
			case 0:
				b.WriteString(" ")
			case 1:
				b.WriteString("\n\n")
			case 2:
			default:
				b.WriteString("\n")
			}
		}
		// A marker keeps a probe whose text the pass empties from being
		// skipped, and names it in the block.
		c.tree[fmt.Sprintf("repo/p/probe%03d.md", i)] = cxEntry{kind: cxFile, data: []byte(fmt.Sprintf("probe %d\n%s", i, b.String()))}
		fmt.Fprintf(&root, "@p/probe%03d.md\n", i)
	}
	c.tree["repo/CLAUDE.md"] = cxEntry{kind: cxFile, data: []byte(root.String())}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	needClaudeCleanAbove(t, base)
	p, _ := c.write(t, base)
	res := runClaude(t, bin, p.repo, claudeOptions{})
	want, _, err := claudeBlock(res.bodies)
	if err != nil {
		t.Fatal(err)
	}
	got, exact, inexact, _ := newClaudeProfile(t, p.repo, claude.Options{Home: res.home}, []string{""}).view(t, "")
	if !exact || got != want {
		t.Errorf("markdown probes, seed %d (RIVUMI_CLAUDE_MD_SEED) (exact %v %q): %s", seed, exact, inexact, claudeByteDiff(want, got))
	}
	t.Logf("%d probes, a block of %d bytes", probes, len(want))
}

// TestClaudeGenerateIsDeterministic: a seed alone reproduces its case.
func TestClaudeGenerateIsDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		if a, b := claudeGenerate(seed), claudeGenerate(seed); !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: two cases differ", seed)
		}
	}
}
