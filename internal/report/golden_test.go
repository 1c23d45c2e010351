package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// update rewrites the golden files instead of comparing with them:
//
//	go test ./internal/report -update
var update = flag.Bool("update", false, "rewrite the golden files under report/testdata/ instead of comparing with them")

// golden compares got byte for byte with testdata/name; with -update it
// writes got there instead. name is the file name, extension included
// (sarif_fixture.golden).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("update golden: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (create it with: go test ./internal/report -run '%s' -update)", err, t.Name())
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w || i >= len(gl) || i >= len(wl) {
			t.Fatalf("output differs from %s at line %d (%d bytes, want %d):\n got: %q\nwant: %q\n(if the change is intended: go test ./internal/report -run '%s' -update)",
				path, i+1, len(got), len(want), g, w, t.Name())
		}
	}
	t.Fatalf("output differs from %s (%d bytes, want %d)", path, len(got), len(want))
}

// Hostile names used across the format tests (§10: file names with newline,
// %, ::, ',' or ':').
const (
	pathNewline = "odd\nname %0A/a,b:c::d/AGENTS.md"
	pathCR      = "cr\rname/AGENTS.md"
	pathSpaces  = "dir with spaces/AGENTS.md"
	pathUser    = "~/.rivumi/RIVUMI.md"
	// msgHostile tries to start a workflow command, inject Markdown and HTML,
	// and mention a team.
	msgHostile = "2 hidden characters, first U+202E at 2:5\n::error file=x::pwned %0A %25 | `code` <script>alert(1)</script> *b* _i_ [l](http://x) # ! ~ \\ @org/team #12"
)

// fixtureResult is one result exercising every part of the machine formats:
// findings of several rules and all three severities, a whole-file finding,
// a user-level path, a path with spaces, file names with a newline, CR, %,
// ::, ',' and ':', drift groups and budget rows.
func fixtureResult() *lint.Result {
	return &lint.Result{
		Findings: []lint.Finding{
			{Rule: "RL005", Name: "override", Severity: lint.Notice, Path: "services/AGENTS.override.md",
				Message:     "services/AGENTS.override.md suppresses AGENTS.md in 2 directories",
				Directories: []string{"services", "services/api"}},
			{Rule: "RL009", Name: "empty", Severity: lint.Warning, Path: pathUser, User: true,
				Message:     "the user layer has no text: it adds nothing",
				Directories: []string{"."}},
			{Rule: "RL001", Name: "symlink", Severity: lint.Error, Path: "docs/AGENTS.md",
				Message:     "docs/AGENTS.md is a symbolic link (to ../../etc/passwd): Rivumi skips it, and docs gets no project instructions",
				Directories: []string{"docs", "docs/api"}},
			{Rule: "RL004", Name: "invalid-utf8", Severity: lint.Error, Path: pathSpaces, Line: 3, Column: 7, UTF16Column: 6, // "é " before it: 3 bytes, 2 UTF-16 units

				Message:     "invalid UTF-8 at 3:7 (byte offset 41): Rivumi rejects the whole file",
				Directories: []string{"dir with spaces"}},
			{Rule: "RL010", Name: "hidden-unicode", Severity: lint.Error, Path: pathNewline, Line: 2, Column: 5, UTF16Column: 5,
				Message:     msgHostile,
				Directories: []string{"odd\nname %0A/a,b:c::d"},
				// X1: the edits that delete both characters.
				Fix: &lint.Fix{Description: "Remove 2 hidden character(s)", Edits: []lint.Edit{
					{Path: pathNewline, Start: lint.Pos{Line: 2, Column: 5, Offset: 12}, End: lint.Pos{Line: 2, Column: 8, Offset: 15}},
					{Path: pathNewline, Start: lint.Pos{Line: 2, Column: 10, Offset: 17}, End: lint.Pos{Line: 2, Column: 13, Offset: 20}},
				}}},
			{Rule: "RL008", Name: "boundary-marker", Severity: lint.Error, Path: pathCR, Line: 1, Column: 1, UTF16Column: 1,
				Message:     "the text contains </rivumi:layer>, which could close the layer early",
				Directories: []string{"cr\rname"}},
			{Rule: "RL007", Name: "shadowed", Severity: lint.Warning, Path: "pkg/AGENTS.md",
				Message:     "pkg/AGENTS.md is shadowed by pkg/RIVUMI.md and never loaded",
				Directories: []string{"pkg"}},
			{Rule: "RL006", Name: "budget", Severity: lint.Warning, Path: "services/api/AGENTS.md", Line: 0,
				Message:     "services/api renders 53000 of 57344 bytes (92.4%): AGENTS.md 20000, services/AGENTS.override.md 33000",
				Directories: []string{"services/api"}},
			{Rule: "RL013", Name: "memory-corrupt", Severity: lint.Warning, Path: "~/.rivumi/memory.jsonl", Line: 7, User: true,
				Message: "line 7 is not a JSON object; the runtime skips it"},
		},
		Directories: []lint.Directory{
			{Path: ".", Fingerprint: "rivumi-fp-v1:" + strings.Repeat("a", 64), RenderedBytes: 2100, BudgetBytes: 57344, Used: fixtureLimits.UsedShare(2100 + 8192), Budget: fixtureLimits.BudgetLine(2100)},
			{Path: "services/api", Fingerprint: "rivumi-fp-v1:" + strings.Repeat("b", 64), RenderedBytes: 53000, BudgetBytes: 57344, Used: fixtureLimits.UsedShare(53000 + 8192), Budget: fixtureLimits.BudgetLine(53000)},
			{Path: "dir with spaces", Fingerprint: "rivumi-fp-v1:" + strings.Repeat("c", 64), RenderedBytes: 0, BudgetBytes: 57344, Used: fixtureLimits.UsedShare(0 + 8192), Budget: fixtureLimits.BudgetLine(0)},
			{Path: "odd|dir `x` <b>", Fingerprint: "rivumi-fp-v1:" + strings.Repeat("d", 64), RenderedBytes: 60000, BudgetBytes: 57344, Used: fixtureLimits.UsedShare(60000 + 8192), Budget: fixtureLimits.BudgetLine(60000)},
			{Path: "no-budget", Fingerprint: "rivumi-fp-v1:" + strings.Repeat("e", 64), RenderedBytes: 10, BudgetBytes: 0, Used: "n/a"},
		},
		Drift: []lint.Drift{
			{Directories: []string{"services", "services/api"},
				Base: "rivumi-fp-v1:" + strings.Repeat("1", 64), Head: "rivumi-fp-v1:" + strings.Repeat("2", 64),
				Changes: []lint.LayerChange{
					{Path: "services/AGENTS.override.md", Change: "added"},
					{Path: "AGENTS.md", Change: "suppressed", Detail: "by services/AGENTS.override.md"},
				}},
			{Directories: []string{"docs"},
				Base: "rivumi-fp-v1:" + strings.Repeat("3", 64), Head: "rivumi-fp-v1:" + strings.Repeat("4", 64),
				Changes: []lint.LayerChange{
					{Path: "docs/AGENTS.md", Change: "rejected", Detail: "RL001"},
					{Path: "docs/a|b\n- [x](y).md", Change: "modified"},
				}},
		},
	}
}

// fixtureLimits are the default limits: Directory.Used is lint's share of
// max_dynamic_bytes (reserved_bytes included), as a run computes it.
var fixtureLimits = lint.Limits{MaxDynamicBytes: 65536, ReservedBytes: 8192}
