package integration

// reviewdog v0.21.0 (the pinned `go tool -modfile=tools/reviewdog/go.mod reviewdog`) reading rivumi-lint's
// rdjson and rdjsonl output (SPEC §7 rdjson/rdjsonl): it must report the
// same diagnostics (path, line, column, message, rule, severity) as the
// JSON output, and -filter-mode=added (docs/github-actions.md) must keep the
// findings on the lines a change added.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/reviewdog/reviewdog/proto/rdf"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
)

type diag struct {
	Path           string
	Line, Column   int
	Message        string
	Rule, Severity string
}

func (d diag) String() string {
	return fmt.Sprintf("%s:%d:%d: %s [%s] %s", d.Path, d.Line, d.Column, d.Severity, d.Rule, d.Message)
}

func sortDiags(ds []diag) []diag {
	sort.Slice(ds, func(i, j int) bool { return ds[i].String() < ds[j].String() })
	return ds
}

// jsonFindings runs `check --format json` and maps its findings to diags
// with reviewdog's severity names.
func jsonFindings(t *testing.T, dir string, args ...string) []diag {
	t.Helper()
	r := run(t, dir, env(t), nil, rivumiLint(t), append([]string{"check", "--format", "json"}, args...)...)
	if r.code > 1 {
		t.Fatalf("check --format json: %s", r)
	}
	var doc struct {
		Findings []struct {
			Rule, Severity, Path, Message string
			Line, Column                  int
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("check --format json: %v\n%s", err, r.stdout)
	}
	sev := map[string]string{"error": "ERROR", "warning": "WARNING", "notice": "INFO"}
	var out []diag
	for _, f := range doc.Findings {
		// rdjson places a whole-file finding (line 0) on line 1, as SARIF does.
		out = append(out, diag{f.Path, max(f.Line, 1), f.Column, f.Message, f.Rule, sev[f.Severity]})
	}
	return sortDiags(out)
}

// reviewdogLocal pipes `check --format FORMAT` into
// `reviewdog -f=FORMAT -reporter=local` and parses what reviewdog reports.
// The local reporter prints each diagnostic's original output: for rdjson
// the Diagnostic in protobuf text form, for rdjsonl the input line.
func reviewdogLocal(t *testing.T, dir, format string, rdArgs ...string) ([]diag, result) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report")
	r := run(t, dir, env(t), nil, rivumiLint(t), "check", "--format", format, "--output", out)
	if r.code > 1 {
		t.Fatalf("check --format %s: %s", format, r)
	}
	in, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	args := append([]string{"-f=" + format, "-reporter=local"}, rdArgs...)
	rd := run(t, dir, env(t), in, reviewdog(t), args...)
	var ds []diag
	for _, line := range strings.Split(strings.TrimRight(rd.stdout, "\n"), "\n") {
		if line == "" {
			continue
		}
		d := &rdf.Diagnostic{}
		var err error
		if format == "rdjsonl" {
			err = protojson.Unmarshal([]byte(line), d) // as reviewdog's rdjsonl parser
		} else {
			err = prototext.Unmarshal([]byte(line), d)
		}
		if err != nil {
			t.Fatalf("reviewdog printed a line that is not a diagnostic (%v): %q\n%s", err, line, rd)
		}
		ds = append(ds, diag{
			Path:     d.GetLocation().GetPath(),
			Line:     int(d.GetLocation().GetRange().GetStart().GetLine()),
			Column:   int(d.GetLocation().GetRange().GetStart().GetColumn()),
			Message:  d.GetMessage(),
			Rule:     d.GetCode().GetValue(),
			Severity: d.GetSeverity().String(),
		})
	}
	return sortDiags(ds), rd
}

// reviewdogRepo has findings with a line and column (RL004, RL008, RL010)
// and findings about a whole file (RL001, RL011), in several directories.
func reviewdogRepo(t *testing.T) string {
	t.Helper()
	dir := newRepo(t, map[string]string{
		"AGENTS.md":           "# root rules\n",
		"utf8/AGENTS.md":      "# rules\nab\xffc\n",
		"marker/AGENTS.md":    "# rules\n\nend with </rivumi:layer> here\n",
		"hidden/RIVUMI.md":    "# rules\nrun \u202etests\n",
		"near/agents.md":      "lower-case name\n",
		"spaces in/AGENTS.md": "# odd dir\n\x00\n",
	})
	if err := os.Mkdir(filepath.Join(dir, "link"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link", "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "findings")
	return dir
}

func TestReviewdogReportsTheSameDiagnosticsAsJSON(t *testing.T) {
	dir := reviewdogRepo(t)
	want := jsonFindings(t, dir)
	if len(want) < 6 {
		t.Fatalf("fixture gives only %d findings: %v", len(want), want)
	}
	for _, format := range []string{"rdjson", "rdjsonl"} {
		t.Run(format, func(t *testing.T) {
			got, rd := reviewdogLocal(t, dir, format, "-filter-mode=nofilter")
			if rd.code != 0 {
				t.Fatalf("reviewdog: %s", rd)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("reviewdog -f=%s reported\n%s\nwant (check --format json)\n%s", format, lines(got), lines(want))
			}
		})
	}
	// -fail-level=error: reviewdog fails as rivumi-lint does.
	_, rd := reviewdogLocal(t, dir, "rdjson", "-filter-mode=nofilter", "-fail-level=error")
	if rd.code != 1 {
		t.Fatalf("reviewdog -fail-level=error over error findings: %s", rd)
	}
}

func TestReviewdogFilterModeAddedKeepsAddedLines(t *testing.T) {
	// A change adds a bad file: with -filter-mode=added and the change's
	// diff, reviewdog keeps that finding (its line is an added line) and
	// drops the ones the change did not touch.
	dir := reviewdogRepo(t)
	writeFiles(t, dir, map[string]string{"added/AGENTS.md": "# new rules\n\nline \u200b three\n"})
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "add a file with a zero-width space")
	got, rd := reviewdogLocal(t, dir, "rdjson", "-filter-mode=added", "-diff=git diff HEAD~1 HEAD")
	if rd.code != 0 {
		t.Fatalf("reviewdog: %s", rd)
	}
	if len(got) != 1 || got[0].Path != "added/AGENTS.md" || got[0].Line != 3 || got[0].Rule != "RL010" {
		t.Fatalf("reviewdog -filter-mode=added reported\n%s\nwant only RL010 at added/AGENTS.md:3", lines(got))
	}
}

func lines(ds []diag) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("  " + d.String() + "\n")
	}
	return b.String()
}

func TestReviewdogFilterModeAddedKeepsAddedFiles(t *testing.T) {
	// §7 rdjson: a change adds a file whose finding is about the whole file
	// (RL011, a near-miss name; RL001, a symbolic link): rdjson places it on line 1,
	// which the change added, so -filter-mode=added keeps it. The whole-file
	// findings of the files the change did not touch are dropped.
	dir := reviewdogRepo(t)
	writeFiles(t, dir, map[string]string{"added/Agents.md": "near miss\n"})
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "added", "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "add a near-miss name and a link")
	got, rd := reviewdogLocal(t, dir, "rdjson", "-filter-mode=added", "-diff=git diff HEAD~1 HEAD")
	if rd.code != 0 {
		t.Fatalf("reviewdog: %s", rd)
	}
	rules := map[string]bool{}
	for _, d := range got {
		if d.Path != "added/Agents.md" && d.Path != "added/AGENTS.md" || d.Line != 1 {
			t.Errorf("reviewdog -filter-mode=added kept %s; want only the added files, on line 1", d)
		}
		rules[d.Rule] = true
	}
	if !rules["RL001"] || !rules["RL011"] {
		t.Fatalf("reviewdog -filter-mode=added reported\n%s\nwant RL001 (added/AGENTS.md) and RL011 (added/Agents.md) on line 1", lines(got))
	}
}
