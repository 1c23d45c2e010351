package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

func writeMD(t testing.TB, r *lint.Result) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Markdown(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// gfmCells splits a table row the way cmark-gfm does: a backslash and the
// character after it are one unit (so \| is no separator), '|' separates.
// The pieces before the first and after the last pipe are included.
func gfmCells(row string) []string {
	var cells []string
	start := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, row[start:i])
			start = i + 1
		}
	}
	return append(cells, row[start:])
}

// §7 markdown: golden of the fixture.
func TestMarkdownGolden(t *testing.T) {
	golden(t, "markdown_fixture.golden", []byte(writeMD(t, fixtureResult())))
}

// §7 markdown: the headline counts; an empty result says so.
func TestMarkdownHeadline(t *testing.T) {
	if got, want := writeMD(t, &lint.Result{}), "## rivumi-lint: no findings in 0 directories\n"; got != want {
		t.Errorf("empty = %q, want %q", got, want)
	}
	got := writeMD(t, fixtureResult())
	if want := "## rivumi-lint: 4 errors, 4 warnings, 1 notice in 5 directories\n"; !strings.HasPrefix(got, want) {
		t.Errorf("headline of %q, want %q", got, want)
	}
}

// §7 markdown, §10: however hostile the values, every table row keeps its
// cells (4 in the findings table, 4 in the budget table), no line starts
// with a value, and no raw HTML or line break from the result survives.
func TestMarkdownStructure(t *testing.T) {
	r := fixtureResult()
	evil := "x|y\\|z`a`<img src=x onerror=alert(1)>\n| --- |\r\n# h\n- [ ] @org/team #1 ![i](j) <!-- c -->\\"
	r.Findings = append(r.Findings, lint.Finding{Rule: "RL999|x", Name: evil, Severity: lint.Error, Path: evil, Line: 1, Message: evil})
	r.Directories = append(r.Directories, lint.Directory{Path: evil, RenderedBytes: 1, BudgetBytes: 2})
	r.Drift = append(r.Drift, lint.Drift{Directories: []string{evil}, Changes: []lint.LayerChange{{Path: evil, Change: evil, Detail: evil}}})
	out := writeMD(t, r)
	if strings.ContainsAny(out, "<>\r") {
		t.Errorf("raw angle bracket or CR in output:\n%s", out)
	}
	fixed := []string{"## rivumi-lint: ", "### ", "| ", "- ", "  - layer ", "The instructions changed", ""}
	section := ""
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "### ") {
			section = line
		}
		ok := false
		for _, p := range fixed {
			if strings.HasPrefix(line, p) && (p != "" || line == "") {
				ok = true
			}
		}
		if !ok {
			t.Errorf("line does not start with our own text: %q", line)
		}
		if strings.HasPrefix(line, "- ") && !strings.HasPrefix(line, "- 1 directory: ") && !strings.HasPrefix(line, "- 2 directories: ") {
			t.Errorf("drift line does not start with the directory count: %q", line)
		}
		if strings.HasPrefix(line, "| ") {
			want := 4
			if section == "### Budget" {
				want = 2 // directory, and the one budget line
			}
			if n := len(gfmCells(line)); n != want+2 {
				t.Errorf("%s row has %d cells, want %d: %q", section, n-2, want, line)
			}
		}
	}
	if !strings.Contains(out, "| error | RL999\\|x x\\|y") {
		t.Errorf("an unknown rule is not escaped or is linked:\n%s", out)
	}
}

// §7 markdown: rule cells link the rule's documentation; locations are
// path:line:col; budget rows are fullest first with a percentage.
func TestMarkdownContent(t *testing.T) {
	out := writeMD(t, fixtureResult())
	for _, want := range []string{
		"| error | [RL001 symlink](https://github.com/rivumi/rivumi-lint/blob/main/docs/rules.md#rl001) | docs/AGENTS.md | ",
		"| dir with spaces/AGENTS.md:3:7 |",
		"| warning | [RL009 empty](https://github.com/rivumi/rivumi-lint/blob/main/docs/rules.md#rl009) | \\~/.rivumi/RIVUMI.md | ",
		"| odd\\|dir \\`x\\` &lt;b&gt; | 60000 + 8192 reserved = 68192 of 65536 bytes (104.1%) |\n| services/api | 53000 + 8192 reserved = 61192 of 65536 bytes (93.4%) |",
		"| no-budget | n/a |",
		"- 2 directories: services, services/api\n  - layer services/AGENTS.override.md: added\n  - layer AGENTS.md: suppressed (by services/AGENTS.override.md)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(writeMD(t, &lint.Result{Findings: fixtureResult().Findings}), "### Drift") {
		t.Error("drift section without drift")
	}
}

// §7 markdown: a drift group names at most 20 directories and counts the rest.
func TestMarkdownDriftManyDirectories(t *testing.T) {
	var dirs []string
	for i := 0; i < 25; i++ {
		dirs = append(dirs, fmt.Sprintf("d%02d", i))
	}
	out := writeMD(t, &lint.Result{Drift: []lint.Drift{{Directories: dirs, Changes: []lint.LayerChange{{Path: "AGENTS.md", Change: "modified"}}}}})
	if !strings.Contains(out, "- 25 directories: d00, d01, ") || !strings.Contains(out, "d19 and 5 more\n") || strings.Contains(out, "d20") {
		t.Errorf("drift group:\n%s", out)
	}
}

// §7 markdown: with a limit the document stays within it, cutting rows and
// saying how many were left out.
func TestMarkdownLimit(t *testing.T) {
	var fs []lint.Finding
	for i := 0; i < 200; i++ {
		fs = append(fs, lint.Finding{Rule: "RL007", Name: "shadowed", Severity: lint.Warning, Path: fmt.Sprintf("d%03d/AGENTS.md", i), Message: strings.Repeat("m", 100)})
	}
	r := &lint.Result{Findings: fs, Directories: []lint.Directory{{Path: ".", BudgetBytes: 1}}}
	out := renderMarkdown(r, 8192, "")
	if len(out) > 8192 {
		t.Errorf("%d bytes, limit 8192", len(out))
	}
	if !strings.Contains(out, " more findings left out to keep this summary under 8192 bytes.\n") ||
		!strings.Contains(out, "\n1 budget row left out to keep this summary under 8192 bytes.\n") {
		t.Errorf("no left-out lines:\n%s", out)
	}
	if full := renderMarkdown(r, 0, ""); strings.Contains(full, "left out") {
		t.Errorf("without a limit nothing is left out")
	}
}

// §7 markdown, issue #26: a pull-request comment stays within GitHub's
// 65,536 characters however large the result, saying what it left out;
// directories that share a chain share one budget row.
func TestMarkdownCommentLimit(t *testing.T) {
	var fs []lint.Finding
	var dirs []lint.Directory
	for i := 0; i < 5000; i++ {
		fs = append(fs, lint.Finding{Rule: "RL007", Name: "shadowed", Severity: lint.Warning, Path: fmt.Sprintf("d%04d/AGENTS.md", i), Message: strings.Repeat("m", 60)})
		dirs = append(dirs, lint.Directory{Path: fmt.Sprintf("d%04d", i), Fingerprint: "rivumi-fp-v1:same", Budget: "1 + 8192 reserved = 8193 of 65536 bytes (12.5%)", BudgetBytes: 57344})
	}
	out := writeMD(t, &lint.Result{Findings: fs, Directories: dirs})
	if len(out) > 65536 {
		t.Errorf("%d bytes: over GitHub's comment limit", len(out))
	}
	if !strings.Contains(out, " more findings left out to keep this summary under GitHub's 65,536-character comment limit.\n") {
		t.Errorf("no left-out line:\n%s", out[len(out)-500:])
	}
	// 5,000 directories of one chain: one row, five names and a count.
	small := writeMD(t, &lint.Result{Directories: dirs})
	if !strings.Contains(small, "| d0000, d0001, d0002, d0003, d0004 and 4995 more | 1 + 8192 reserved = 8193 of 65536 bytes (12.5%) |\n") || strings.Count(small, "\n| d") != 1 {
		t.Errorf("directories of one chain not grouped:\n%s", small)
	}
}
