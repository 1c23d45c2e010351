package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// jsonReference is JSON as it was before it streamed: the whole document
// through one json.Encoder with two-space indentation. The streaming
// writer must give its bytes exactly (docs/json.md is a contract).
func jsonReference(w io.Writer, r *lint.Result, o Options) error {
	type jsonDoc struct {
		Version     int              `json:"version"`
		Findings    []lint.Finding   `json:"findings"`
		Directories []lint.Directory `json:"directories"`
		Drift       []lint.Drift     `json:"drift"`
		Summary     lint.Summary     `json:"summary"`
	}
	doc := jsonDoc{Version: JSONVersion, Findings: r.Findings, Directories: r.Directories, Drift: r.Drift, Summary: r.Summary()}
	if doc.Findings == nil {
		doc.Findings = []lint.Finding{}
	}
	if doc.Directories == nil {
		doc.Directories = []lint.Directory{}
	}
	if doc.Drift == nil {
		doc.Drift = []lint.Drift{}
	}
	if !o.AllDirectories {
		doc.Findings = append([]lint.Finding{}, doc.Findings...)
		for i := range doc.Findings {
			f := &doc.Findings[i]
			f.Directories, f.DirectoriesTotal = capDirs(f.Directories, false)
		}
		doc.Drift = append([]lint.Drift{}, doc.Drift...)
		for i := range doc.Drift {
			d := &doc.Drift[i]
			d.Directories, d.DirectoriesTotal = capDirs(d.Directories, false)
		}
	}
	enc := json.NewEncoder(runnerSafeJSON(w))
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// countingWriter records every Write, to check that no "##[" is split
// between two of them.
type countingWriter struct {
	buf    bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.buf.Write(p)
}

// oddResult has what the fixtures lack: strings json escapes (quotes,
// backslashes, control bytes, U+2028, <>&, invalid UTF-8), nested
// objects, a fix, empty and nil lists, and more directories than the
// JSON output lists.
func oddResult(s string) *lint.Result {
	many := make([]string, MaxListedDirectories+7)
	for i := range many {
		many[i] = fmt.Sprintf("d%03d/%s", i, s)
	}
	return &lint.Result{
		Findings: []lint.Finding{
			{Rule: "RL010", Name: "hidden-unicode", Severity: lint.Error, Path: s, Line: 1, Column: 2, Message: s + "\"\\\u2028\u2029<>&\x01\xff{}[],:",
				Directories: many, Fix: &lint.Fix{Description: s, Edits: []lint.Edit{{Text: s + "\n"}}}},
			{Rule: "RL005", Name: "override", Severity: lint.Notice, Path: "a", Directories: []string{}},
			{Rule: "RL009", Name: "empty", Severity: lint.Warning, Path: "~/x", User: true},
		},
		Directories: []lint.Directory{
			{Path: s, Fingerprint: "fp", Layers: []lint.Layer{{Path: s, Scope: "project", State: "active", Bytes: 12}, {Path: "b", State: "rejected", Reason: s}}},
			{Path: ".", Layers: []lint.Layer{}},
		},
		Drift: []lint.Drift{
			{Directories: many, Base: s, Changes: []lint.LayerChange{{Path: s, Change: "added", Detail: s}}},
			{Directories: nil, Changes: nil},
		},
	}
}

func checkJSONStream(t *testing.T, r *lint.Result, o Options) {
	t.Helper()
	var want bytes.Buffer
	if err := jsonReference(&want, r, o); err != nil {
		t.Fatal(err)
	}
	got := &countingWriter{}
	if err := JSON(got, r, o); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.buf.Bytes(), want.Bytes()) {
		g, w := got.buf.String(), want.String()
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		t.Fatalf("streamed JSON differs at byte %d of %d (want %d):\n got: %q\nwant: %q", i, len(g), len(w), g[max(0, i-40):min(len(g), i+40)], w[max(0, i-40):min(len(w), i+40)])
	}
}

// TestJSONStreamIsEncoderOutput: the streamed JSON is byte for byte what
// one json.Encoder with indentation wrote, for every fixture, with and
// without --all-directories, and for the empty result; and it is written
// in more than one piece when large (it streams).
func TestJSONStreamIsEncoderOutput(t *testing.T) {
	results := map[string]*lint.Result{
		"fixture": fixtureResult(),
		"hostile": hostileResult(),
		"empty":   {},
		"odd":     oddResult("odd \"name\" \\ ##[x] \u2028 <b>&amp; \x7f \xc3\x28 é/AGENTS.md"),
	}
	big := &lint.Result{}
	for i := range 2000 {
		big.Findings = append(big.Findings, oddResult(fmt.Sprint(i)).Findings...)
	}
	results["big"] = big
	for name, r := range results {
		for _, all := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/all=%v", name, all), func(t *testing.T) {
				checkJSONStream(t, r, Options{AllDirectories: all})
			})
		}
	}
	w := &countingWriter{}
	if err := JSON(w, big, Options{}); err != nil {
		t.Fatal(err)
	}
	if w.writes < 2 {
		t.Errorf("a %d-byte document in %d write: not streamed", w.buf.Len(), w.writes)
	}
	if strings.Contains(w.buf.String(), "##[") {
		t.Error(`"##[" in the JSON output (§10)`)
	}
}

// FuzzJSONStream: for any string in every place a result has one, the
// streamed JSON is the encoder's.
func FuzzJSONStream(f *testing.F) {
	for _, s := range []string{"", "a", `"`, `\`, "##[", "#", "\u2028", "\xff", "{[,:]}", "\"\\\"", "x\n\ty"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkJSONStream(t, oddResult(s), Options{})
	})
}

// TestJSONStreamPieces: the indenter gives json.Indent's bytes whatever
// pieces the text comes in, one byte at a time included (a string, an
// escape or a token split between two pieces).
func TestJSONStreamPieces(t *testing.T) {
	compact, err := json.Marshal(oddResult("a \"quoted\\\" name\\\\\" ##[x] \u2028 \xff"))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := json.Indent(&want, compact, "", "  "); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1, 2, 3, 7, len(compact)} {
		s := &jsonStream{}
		for i := 0; i < len(compact); i += size {
			s.raw(compact[i:min(i+size, len(compact))])
		}
		if got := string(s.out); got != want.String() {
			t.Errorf("pieces of %d bytes: %d bytes unlike json.Indent's %d", size, len(got), want.Len())
		}
	}
}
