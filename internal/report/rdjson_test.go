package report

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// The reviewdog rdjson shapes (proto/rdf/jsonschema in reviewdog/reviewdog),
// as far as this writer uses them. Decoding with DisallowUnknownFields
// catches a misspelt or invented field.
type rdDiagnosticResult struct {
	Source      *rdSource      `json:"source"`
	Severity    string         `json:"severity"`
	Diagnostics []rdDiagnostic `json:"diagnostics"`
}

type rdDiagnostic struct {
	Message  string      `json:"message"`
	Location *rdLocation `json:"location"`
	Severity string      `json:"severity"`
	Source   *rdSource   `json:"source"`
	Code     *rdCode     `json:"code"`
	// X1: a finding's Fix.
	Suggestions []rdSuggestion `json:"suggestions"`
}

type rdSuggestion struct {
	Range *struct {
		Start *rdPosition `json:"start"`
		End   *rdPosition `json:"end"`
	} `json:"range"`
	Text *string `json:"text"`
}

type rdSource struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type rdCode struct {
	Value string `json:"value"`
	URL   string `json:"url"`
}

type rdLocation struct {
	Path  string `json:"path"`
	Range *struct {
		Start *rdPosition `json:"start"`
		End   *rdPosition `json:"end"`
	} `json:"range"`
}

type rdPosition struct {
	Line   *int `json:"line"`
	Column *int `json:"column"`
}

func strictDecode(t testing.TB, data []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("trailing data after the JSON value: %v", err)
	}
}

func writeRD(t testing.TB, fn func(io.Writer, *lint.Result, Options) error, r *lint.Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := fn(&buf, r, Options{ToolVersion: "1.2.3"}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// §7 rdjson and rdjsonl: goldens of the fixture.
func TestRDJSONGolden(t *testing.T) {
	golden(t, "rdjson_fixture.golden", writeRD(t, RDJSON, fixtureResult()))
	golden(t, "rdjson_lines.golden", writeRD(t, RDJSONL, fixtureResult()))
}

// §7 rdjson: every diagnostic has the reviewdog shape: message, location
// {path, range.start{line, column}} (no range for a whole-file finding, no
// column when there is none), severity ERROR/WARNING/INFO, source and
// code{value: rule id, url: the rule's documentation}. rdjsonl carries the
// same diagnostics, one per line.
func TestRDJSONShape(t *testing.T) {
	r := fixtureResult()
	var res rdDiagnosticResult
	strictDecode(t, writeRD(t, RDJSON, r), &res)
	if res.Source == nil || res.Source.Name != "rivumi-lint" || res.Source.URL != "https://github.com/rivumi/rivumi-lint" {
		t.Errorf("source = %+v", res.Source)
	}
	if res.Severity != "ERROR" {
		t.Errorf("top-level severity %q, want ERROR (the most severe finding)", res.Severity)
	}
	lines := strings.Split(strings.TrimSuffix(string(writeRD(t, RDJSONL, r)), "\n"), "\n")
	fs := orderFindings(r)
	if len(res.Diagnostics) != len(fs) || len(lines) != len(fs) {
		t.Fatalf("%d diagnostics, %d lines for %d findings", len(res.Diagnostics), len(lines), len(fs))
	}
	sev := map[lint.Severity]string{lint.Error: "ERROR", lint.Warning: "WARNING", lint.Notice: "INFO"}
	for i, d := range res.Diagnostics {
		f := fs[i]
		var fromLine rdDiagnostic
		strictDecode(t, []byte(lines[i]), &fromLine)
		a, _ := json.Marshal(d)
		b, _ := json.Marshal(fromLine)
		if !bytes.Equal(a, b) {
			t.Errorf("rdjsonl line %d differs from rdjson diagnostic:\n%s\n%s", i, b, a)
		}
		if d.Severity != sev[f.Severity] {
			t.Errorf("diagnostic %d: severity %q, want %q", i, d.Severity, sev[f.Severity])
		}
		rule, _ := lint.Lookup(f.Rule)
		if d.Code == nil || d.Code.Value != f.Rule || d.Code.URL != rule.URL() {
			t.Errorf("diagnostic %d: code %+v", i, d.Code)
		}
		if d.Source == nil || d.Source.Name != "rivumi-lint" {
			t.Errorf("diagnostic %d: source %+v", i, d.Source)
		}
		if f.User {
			if d.Location != nil || d.Message != messageText(f.Path+": "+f.Message) {
				t.Errorf("diagnostic %d: user-level file: location %+v, message %q", i, d.Location, d.Message)
			}
			continue
		}
		if d.Message != messageText(f.Message) || d.Location == nil || d.Location.Path != f.Path {
			t.Errorf("diagnostic %d: message %q, location %+v", i, d.Message, d.Location)
			continue
		}
		checkSuggestions(t, i, f, d.Suggestions)
		// A whole-file finding (line 0) is placed on line 1 without a
		// column, as in SARIF.
		rg := d.Location.Range
		if rg == nil || rg.Start == nil || rg.End != nil || rg.Start.Line == nil || *rg.Start.Line != max(f.Line, 1) {
			t.Errorf("diagnostic %d: range %+v, want start line %d", i, rg, max(f.Line, 1))
		} else if (f.Column == 0) != (rg.Start.Column == nil) || (f.Column > 0 && *rg.Start.Column != f.Column) {
			t.Errorf("diagnostic %d: column %v, want %d", i, rg.Start.Column, f.Column)
		}
	}
}

// §7 rdjson: no findings is an empty diagnostics array (not null), and
// rdjsonl writes nothing.
func TestRDJSONEmpty(t *testing.T) {
	var res rdDiagnosticResult
	out := writeRD(t, RDJSON, &lint.Result{})
	strictDecode(t, out, &res)
	if res.Diagnostics == nil || len(res.Diagnostics) != 0 || res.Severity != "INFO" {
		t.Errorf("empty rdjson = %s", out)
	}
	if out := writeRD(t, RDJSONL, &lint.Result{}); len(out) != 0 {
		t.Errorf("empty rdjsonl = %q", out)
	}
}

// §7 rdjson, §10: any path and message give valid JSON that round-trips
// through encoding/json; rdjsonl stays one line.
func FuzzRDJSON(f *testing.F) {
	f.Add("AGENTS.md", "plain", 1, 1)
	f.Add(pathNewline, msgHostile, 2, 5)
	f.Add(pathUser, "user", 0, 0)
	f.Add("a\u2028b", "c\u2029d\x00", 3, 0)
	f.Add("\xff", "\xfe", -1, -1)
	f.Fuzz(func(t *testing.T, path, msg string, line, col int) {
		fd := lint.Finding{Rule: "RL004", Name: "invalid-utf8", Severity: lint.Warning, Path: path, Line: line, Column: col, Message: msg, User: isUserLevelPath(path)}
		r := &lint.Result{Findings: []lint.Finding{fd}}
		whole := writeRD(t, RDJSON, r)
		lines := writeRD(t, RDJSONL, r)
		if !json.Valid(whole) {
			t.Fatalf("rdjson is not valid JSON: %q", whole)
		}
		if bytes.Count(lines, []byte("\n")) != 1 || !bytes.HasSuffix(lines, []byte("\n")) || !json.Valid(lines) {
			t.Fatalf("rdjsonl is not one JSON line: %q", lines)
		}
		var res rdDiagnosticResult
		strictDecode(t, whole, &res)
		var d rdDiagnostic
		strictDecode(t, lines, &d)
		for _, got := range []rdDiagnostic{res.Diagnostics[0], d} {
			wantMsg := messageText(msg)
			if isUserLevelPath(path) {
				wantMsg = messageText(path + ": " + msg)
				if got.Location != nil {
					t.Fatalf("user-level path has a location: %+v", got.Location)
				}
			} else if got.Location == nil || got.Location.Path != jsonRoundTrip(path) {
				t.Fatalf("location %+v, want path %q", got.Location, jsonRoundTrip(path))
			}
			if got.Message != jsonRoundTrip(wantMsg) {
				t.Fatalf("message %q, want %q", got.Message, jsonRoundTrip(wantMsg))
			}
		}
	})
}

// checkSuggestions (X1): a finding's Fix is one suggestion per edit, the
// edit's range (end exclusive, byte columns) and text; none without a Fix.
func checkSuggestions(t *testing.T, i int, f lint.Finding, got []rdSuggestion) {
	t.Helper()
	var want []lint.Edit
	if f.Fix != nil {
		want = f.Fix.Edits
	}
	if len(got) != len(want) {
		t.Errorf("diagnostic %d: %d suggestions, want %d", i, len(got), len(want))
		return
	}
	for j, e := range want {
		g := got[j]
		if g.Range == nil || g.Range.Start == nil || g.Range.End == nil || g.Text == nil ||
			*g.Range.Start.Line != e.Start.Line || *g.Range.Start.Column != e.Start.Column ||
			*g.Range.End.Line != e.End.Line || *g.Range.End.Column != e.End.Column || *g.Text != e.Text {
			t.Errorf("diagnostic %d suggestion %d = %+v, want the edit %+v", i, j, g, e)
		}
	}
}
