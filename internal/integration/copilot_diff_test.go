package integration

// TestCopilotDifferential proves the copilot agent profile against the real
// GitHub Copilot CLI, through the harness every profile shares
// (agentdiff_test.go): seeded random repositories (copilotgen_test.go),
// each compared from a few directories, where the harness
// (copilotharness_test.go) captures the instruction span Copilot CLI
// 1.0.102 sends and `rivumi-lint preview --agent copilot --section
// instructions` must print the same bytes (its JSON's exact and text must
// agree). Where the product says it cannot be exact, the generated
// repository must hold what it names (a link out of the repository, an
// import leaving the directory outside Git); those cases are counted apart.
//
//	RIVUMI_COPILOT=PATH        the copilot binary (default: copilot on PATH)
//	RIVUMI_COPILOT_REPOS=N     repositories (default copilotDefaultRepos)
//	RIVUMI_COPILOT_FIRST=S     the first seed (default 1): seeds S..S+N-1
//	RIVUMI_COPILOT_SEED=S      only seed S, to reproduce a mismatch
//	RIVUMI_COPILOT_KEEP=DIR    keep each mismatching seed's files in DIR/seed-S
//
// It needs RIVUMI_LINT_INTEGRATION=1 (.ci/run sets it and installs the
// Copilot CLI); scripts/copilot-differential runs it over fresh seeds.

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// copilotDefaultRepos keeps the fixed-seed sample within about a minute on
// CI's two cores (a run of Copilot takes about five seconds; about 20
// directories).
const copilotDefaultRepos = 8

func TestCopilotDifferential(t *testing.T) { agentDiff(t, copilotDiff{}) }

// copilotDiff is the copilot profile's side of the differential test.
type copilotDiff struct{}

func (copilotDiff) info() diffInfo {
	return diffInfo{agent: "copilot", product: "Copilot CLI", prefix: copilotBinVar, repos: copilotDefaultRepos}
}

func (copilotDiff) binary(t *testing.T) string { return copilotBinary(t) }

func (copilotDiff) generate(seed uint64) diffCase { return &copilotDiffCase{c: copilotGenerate(seed)} }

// cleanAbove: Copilot reads nothing above the Git root, and outside Git
// the working directory alone; but a base inside some Git working tree
// would make every case's repository a nested one.
func (copilotDiff) cleanAbove(t *testing.T, base string) {
	t.Helper()
	cmd := exec.Command("git", "-C", base, "rev-parse", "--show-toplevel")
	cmd.Env = env(t)
	if out, err := cmd.Output(); err == nil {
		t.Fatalf("%s lies inside the Git working tree %s: every case would be a nested repository; set TMPDIR elsewhere", base, strings.TrimSpace(string(out)))
	}
}

type copilotDiffCase struct {
	c          *cpCase
	base, repo string
}

func (dc *copilotDiffCase) write(t *testing.T, base string) diffPlace {
	t.Helper()
	dc.base = base
	dc.repo = dc.c.write(t, base)
	cfg := filepath.Join(base, "rivumi-lint.yaml")
	if err := os.WriteFile(cfg, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return diffPlace{repo: dc.repo, config: cfg}
}

func (dc *copilotDiffCase) dirs() []string { return dc.c.compare }

func (dc *copilotDiffCase) form(d string, i int) int {
	switch {
	case !dc.c.git:
		return 0
	case dc.c.top(d) != "":
		return 2
	}
	return i
}

// real runs Copilot in d with a home of its own holding the case's user
// files; preview reads the same home.
func (dc *copilotDiffCase) real(t *testing.T, bin, d string) (string, bool, []string) {
	t.Helper()
	home := t.TempDir()
	writeFiles(t, home, dc.c.home)
	span := copilotInstructions(t, bin, filepath.Join(dc.repo, filepath.FromSlash(d)), copilotOptions{home: home})
	return span, span != "", []string{"HOME=" + home, "RIVUMI_HOME=" + home}
}

// compare: the JSON's text is held to the section's by the harness;
// nothing else answers for Copilot.
func (dc *copilotDiffCase) compare(*testing.T, string, diffAnswer) (string, error) { return "", nil }

func (dc *copilotDiffCase) explains(d, inexact string) (string, bool) {
	return dc.c.explains(d, inexact)
}

func (dc *copilotDiffCase) describe(d string) string { return dc.c.describe(d) }

func (dc *copilotDiffCase) features() map[string]int { return dc.c.feat }

// TestCopilotGenerateIsDeterministic: a seed alone reproduces its case.
func TestCopilotGenerateIsDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		if a, b := copilotGenerate(seed), copilotGenerate(seed); !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: two cases differ", seed)
		}
	}
}

// TestCopilotGenerateCovers: the first 300 seeds (the full run's) hold
// every feature the issue names, each several times, so that a change of
// the generator cannot quietly drop one.
func TestCopilotGenerateCovers(t *testing.T) {
	feat := map[string]int{}
	for seed := uint64(1); seed <= 300; seed++ {
		for k, v := range copilotGenerate(seed).feat {
			feat[k] += v
		}
	}
	for _, want := range []string{
		"no Git", "a nested repository", "a submodule", "a Git-ignored directory",
		".github/copilot-instructions.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md",
		"a name Copilot does not read (AGENTS.override.md)", "a name Copilot does not read (.claude/AGENTS.md)", ".claude/CLAUDE.md",
		"a name in another case", "two names in other cases",
		"folder files at the root", "folder files below the root",
		"a .github/instructions file (front matter 0)", "a .github/instructions file (front matter 1)", "a .github/instructions file (front matter 6)",
		"a .github/instructions file without the extension",
		"a .claude/rules file (front matter 0)", "a .claude/rules file (front matter 2)",
		"an import beside or below", "an import above", "an import in an imported file", "a missing import", "an import in a code span",
		"an import repeated", "an import in a fence", "an import of a chain file", "an address", "an absolute import",
		"a link beside its target", "a link to another directory's file", "a dangling link", "a link to a directory", "a link out of the repository",
		"a link to a directory of the chain", "identical files",
		"an empty file", "a whitespace-only file", "front matter in a chain file", "CRLF", "invalid UTF-8", "a BOM", "no final newline",
		"a file of 300 KB", "the user's copilot-instructions.md", "the user's instructions folder",
	} {
		if feat[want] < 3 {
			t.Errorf("seeds 1..300 write %q %d times, want at least 3", want, feat[want])
		}
	}
}
