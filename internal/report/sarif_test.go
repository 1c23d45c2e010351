package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchemaPath is the SARIF 2.1.0 schema the repository carries
// (testdata/README.md says where it comes from and under which licence).
var sarifSchemaPath = filepath.Join("testdata", "sarif-2.1.0-rtm.5.json")

var sarifSchemaOnce struct {
	sync.Once
	schema *jsonschema.Schema // the whole log
	result *jsonschema.Schema // #/definitions/result, for the fuzz target
	err    error
	where  string
}

// sarifSchema compiles the draft-04 SARIF schema once. A missing schema
// fails the test, saying where it looked: SARIF output is never left
// unvalidated.
func sarifSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	s := &sarifSchemaOnce
	s.Do(func() {
		abs, err := filepath.Abs(sarifSchemaPath)
		if err != nil {
			s.err = err
			return
		}
		s.where = abs
		if _, err := os.Stat(abs); err != nil {
			s.err = err
			return
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		if s.schema, s.err = c.Compile(abs); s.err == nil {
			s.result, s.err = c.Compile(abs + "#/definitions/result")
		}
	})
	if s.err != nil {
		t.Fatalf("SARIF schema: looked for %s (%s from report/, committed with the repository): %v",
			s.where, sarifSchemaPath, s.err)
	}
	return s.schema
}

func validateSARIF(t testing.TB, out []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("SARIF output is not JSON: %v\n%s", err, out)
	}
	if err := sarifSchema(t).Validate(inst); err != nil {
		t.Fatalf("SARIF output does not validate against the SARIF 2.1.0 schema: %v", err)
	}
}

func writeSARIF(t testing.TB, r *lint.Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := SARIF(&buf, r, Options{ToolVersion: "1.2.3"}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// decoded SARIF, as much as the tests read.
type sarifDoc struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name           string `json:"name"`
				Version        string `json:"version"`
				InformationURI string `json:"informationUri"`
				Rules          []struct {
					ID               string            `json:"id"`
					Name             string            `json:"name"`
					ShortDescription map[string]string `json:"shortDescription"`
					FullDescription  map[string]string `json:"fullDescription"`
					Help             map[string]string `json:"help"`
					HelpURI          string            `json:"helpUri"`
					Default          map[string]string `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string            `json:"ruleId"`
			RuleIndex *int              `json:"ruleIndex"`
			Level     string            `json:"level"`
			Message   map[string]string `json:"message"`
			Locations []struct {
				PhysicalLocation *struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region *struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
				LogicalLocations []struct {
					FullyQualifiedName string `json:"fullyQualifiedName"`
				} `json:"logicalLocations"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
		} `json:"results"`
	} `json:"runs"`
}

func decodeSARIF(t testing.TB, out []byte) sarifDoc {
	t.Helper()
	var d sarifDoc
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatalf("decode SARIF: %v", err)
	}
	if len(d.Runs) != 1 {
		t.Fatalf("SARIF has %d runs, want 1", len(d.Runs))
	}
	return d
}

// §7 sarif: byte-for-byte golden of the fixture, valid against the schema.
func TestSARIFGolden(t *testing.T) {
	out := writeSARIF(t, fixtureResult())
	validateSARIF(t, out)
	golden(t, "sarif_fixture.golden", out)
}

// §7 sarif: an empty result is still a valid log with every rule and an
// empty (not null) results array, which GitHub requires.
func TestSARIFEmpty(t *testing.T) {
	out := writeSARIF(t, &lint.Result{})
	validateSARIF(t, out)
	if !bytes.Contains(out, []byte(`"results": []`)) {
		t.Errorf("empty result must have \"results\": []:\n%s", out)
	}
	d := decodeSARIF(t, out)
	if got, want := len(d.Runs[0].Tool.Driver.Rules), len(lint.Rules()); got != want {
		t.Errorf("rules = %d, want %d", got, want)
	}
}

// §7 sarif: tool.driver names the tool and lists every rule with id, name,
// descriptions, help text and URI and the default level.
func TestSARIFDriver(t *testing.T) {
	d := decodeSARIF(t, writeSARIF(t, &lint.Result{}))
	if d.Schema != "https://json.schemastore.org/sarif-2.1.0.json" || d.Version != "2.1.0" {
		t.Errorf("$schema, version = %q, %q", d.Schema, d.Version)
	}
	drv := d.Runs[0].Tool.Driver
	if drv.Name != "rivumi-lint" || drv.Version != "1.2.3" || drv.InformationURI != "https://github.com/rivumi/rivumi-lint" {
		t.Errorf("driver = %q %q %q", drv.Name, drv.Version, drv.InformationURI)
	}
	levels := map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Notice: "note"}
	for i, want := range lint.Rules() {
		got := drv.Rules[i]
		if got.ID != want.ID || got.Name != want.Name || got.ShortDescription["text"] != want.Summary ||
			got.FullDescription["text"] != want.Doc || got.Help["text"] != want.Doc+"\n"+want.URL() ||
			got.HelpURI != want.URL() || got.Default["level"] != levels[want.Default] {
			t.Errorf("rule %d = %+v, want %+v", i, got, want)
		}
	}
}

// §7 sarif: results carry ruleId, the matching ruleIndex, level, message and
// one location; a whole-file finding gets region.startLine 1 (GitHub needs a
// startLine); a user-level file has no physical location and is named in the
// message; URIs are escaped and give the path back.
func TestSARIFResults(t *testing.T) {
	r := fixtureResult()
	d := decodeSARIF(t, writeSARIF(t, r))
	run := d.Runs[0]
	findings := orderFindings(r)
	if len(run.Results) != len(findings) {
		t.Fatalf("results = %d, want %d", len(run.Results), len(findings))
	}
	for i, res := range run.Results {
		f := findings[i]
		if res.RuleID != f.Rule || res.RuleIndex == nil || run.Tool.Driver.Rules[*res.RuleIndex].ID != f.Rule {
			t.Errorf("result %d: ruleId %q / ruleIndex %v do not name rule %s", i, res.RuleID, res.RuleIndex, f.Rule)
		}
		if want := map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Notice: "note"}[f.Severity]; res.Level != want {
			t.Errorf("result %d: level %q, want %q", i, res.Level, want)
		}
		if len(res.Locations) != 1 {
			t.Fatalf("result %d: %d locations, want 1", i, len(res.Locations))
		}
		loc := res.Locations[0]
		if f.User {
			if loc.PhysicalLocation != nil {
				t.Errorf("result %d: user-level %q has a physical location", i, f.Path)
			}
			if len(loc.LogicalLocations) != 1 || loc.LogicalLocations[0].FullyQualifiedName != f.Path {
				t.Errorf("result %d: logical location %+v, want %q", i, loc.LogicalLocations, f.Path)
			}
			if res.Message["text"] != messageText(f.Path+": "+f.Message) {
				t.Errorf("result %d: message %q does not name %q", i, res.Message["text"], f.Path)
			}
			continue
		}
		if res.Message["text"] != messageText(f.Message) {
			t.Errorf("result %d: message %q, want %q", i, res.Message["text"], messageText(f.Message))
		}
		pl := loc.PhysicalLocation
		if pl == nil || pl.Region == nil {
			t.Fatalf("result %d: no physical location with a region", i)
		}
		if pl.ArtifactLocation.URIBaseID != "%SRCROOT%" {
			t.Errorf("result %d: uriBaseId %q", i, pl.ArtifactLocation.URIBaseID)
		}
		back, err := url.PathUnescape(pl.ArtifactLocation.URI)
		if err != nil || back != f.Path {
			t.Errorf("result %d: uri %q unescapes to %q (%v), want %q", i, pl.ArtifactLocation.URI, back, err, f.Path)
		}
		wantLine, wantCol := f.Line, f.UTF16Column
		if f.Line == 0 {
			wantLine, wantCol = 1, 0
		}
		if pl.Region.StartLine != wantLine || pl.Region.StartColumn != wantCol {
			t.Errorf("result %d: region %d:%d, want %d:%d", i, pl.Region.StartLine, pl.Region.StartColumn, wantLine, wantCol)
		}
	}
}

// §7 sarif: RFC 3986 escaping per segment, '/' kept, ':' always escaped so
// that no first segment reads as a scheme, and a leading '/' escaped so
// that the reference stays relative (no "//authority").
func TestEscapeURIPath(t *testing.T) {
	for in, want := range map[string]string{
		"AGENTS.md":                   "AGENTS.md",
		"a/b/AGENTS.md":               "a/b/AGENTS.md",
		"dir with spaces/AGENTS.md":   "dir%20with%20spaces/AGENTS.md",
		"c:/x":                        "c%3A/x",
		"a,b:c::d/%0A/x#y?z[1]":       "a%2Cb%3Ac%3A%3Ad/%250A/x%23y%3Fz%5B1%5D",
		"odd\nname\r/AGENTS.md":       "odd%0Aname%0D/AGENTS.md",
		"ünï/AGENTS.md":               "%C3%BCn%C3%AF/AGENTS.md",
		"~tilde/-._":                  "~tilde/-._",
		"bad\xffutf8":                 "bad%FFutf8",
		"semi;colon=eq&amp+plus@at$d": "semi%3Bcolon%3Deq%26amp%2Bplus%40at%24d",
		"// ":                         "%2F/%20",
		"/etc/passwd":                 "%2Fetc/passwd",
		"a//b":                        "a//b",
	} {
		got := escapeURIPath(in)
		if got != want {
			t.Errorf("escapeURIPath(%q) = %q, want %q", in, got, want)
		}
		if back, err := url.PathUnescape(got); err != nil || back != in {
			t.Errorf("url.PathUnescape(%q) = %q, %v; want %q", got, back, err, in)
		}
		if u, err := url.Parse(got); err != nil || u.Scheme != "" || u.Host != "" {
			t.Errorf("%q does not parse as a relative reference: %+v, %v", got, u, err)
		}
	}
}

// §7 sarif: primaryLocationLineHash is stable across runs: it does not move
// with line numbers or with digits in the message, nor with the order the
// engine lists findings in; it changes with rule and path; equal hashes are
// numbered :1, :2 like GitHub's own.
func TestSARIFFingerprint(t *testing.T) {
	base := lint.Finding{Rule: "RL006", Name: "budget", Severity: lint.Error, Path: "a/AGENTS.md", Line: 3,
		Message: "a renders 9000 of 8192 bytes"}
	fp := func(fs ...lint.Finding) []string {
		d := decodeSARIF(t, writeSARIF(t, &lint.Result{Findings: fs}))
		var out []string
		for _, res := range d.Runs[0].Results {
			out = append(out, res.PartialFingerprints["primaryLocationLineHash"])
		}
		return out
	}
	one := fp(base)[0]
	if !strings.HasSuffix(one, ":1") || len(one) != 64+2 {
		t.Fatalf("fingerprint %q: want 64 hex digits and :1", one)
	}
	moved := base
	moved.Line, moved.Column, moved.Message = 40, 2, "a renders 9100 of 8192 bytes"
	if got := fp(moved)[0]; got != one {
		t.Errorf("fingerprint changed with line and digits: %q vs %q", got, one)
	}
	for _, change := range []func(*lint.Finding){
		func(f *lint.Finding) { f.Rule = "RL009" },
		func(f *lint.Finding) { f.Path = "b/AGENTS.md" },
		func(f *lint.Finding) { f.Message = "b renders 9000 of 8192 bytes" },
	} {
		g := base
		change(&g)
		if got := fp(g)[0]; got == one {
			t.Errorf("fingerprint did not change for %+v", g)
		}
	}
	second := base
	second.Line = 9
	a, b := fp(base, second), fp(second, base)
	if a[0] != one || a[1] != strings.TrimSuffix(one, ":1")+":2" {
		t.Errorf("equal hashes = %q, want :1 and :2", a)
	}
	if a[0] != b[0] || a[1] != b[1] {
		t.Errorf("fingerprints depend on the engine's order: %q vs %q", a, b)
	}
}

// §7 sarif, §10: any path and message give a valid SARIF log that
// round-trips through encoding/json.
func FuzzSARIFRoundTrip(f *testing.F) {
	f.Add("AGENTS.md", "plain")
	f.Add(pathNewline, msgHostile)
	f.Add(pathCR, "\r\n")
	f.Add(pathUser, "user")
	f.Add("", "")
	f.Add("a:b/c", "bad \xff utf8")
	f.Add("\xff\xfe/AGENTS.md", "</rivumi:layer>")
	f.Fuzz(func(t *testing.T, path, msg string) {
		r := &lint.Result{Findings: []lint.Finding{{Rule: "RL010", Name: "hidden-unicode", Severity: lint.Error,
			Path: path, Line: 1, Column: 1, UTF16Column: 1, Message: msg, Directories: []string{path}, User: isUserLevelPath(path)}}}
		out := writeSARIF(t, r)
		if !json.Valid(out) {
			t.Fatalf("invalid JSON:\n%s", out)
		}
		// The rules are fixed and validated by the other tests; validating
		// the result alone keeps the fuzzer fast.
		var raw struct {
			Runs []struct {
				Results []json.RawMessage `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(out, &raw); err != nil {
			t.Fatal(err)
		}
		sarifSchema(t)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw.Runs[0].Results[0]))
		if err != nil {
			t.Fatal(err)
		}
		if err := sarifSchemaOnce.result.Validate(inst); err != nil {
			t.Fatalf("result does not validate against the SARIF 2.1.0 schema: %v\n%s", err, raw.Runs[0].Results[0])
		}
		d := decodeSARIF(t, out)
		res := d.Runs[0].Results[0]
		wantMsg := messageText(msg)
		if isUserLevelPath(path) {
			wantMsg = messageText(path + ": " + msg)
		}
		if res.Message["text"] != jsonRoundTrip(wantMsg) {
			t.Fatalf("message %q, want %q", res.Message["text"], jsonRoundTrip(wantMsg))
		}
		if isUserLevelPath(path) {
			if res.Locations[0].LogicalLocations[0].FullyQualifiedName != jsonRoundTrip(path) {
				t.Fatalf("logical location %q, want %q", res.Locations[0].LogicalLocations[0].FullyQualifiedName, path)
			}
			return
		}
		back, err := url.PathUnescape(res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
		if err != nil || back != path {
			t.Fatalf("uri gives back %q (%v), want %q", back, err, path)
		}
	})
}

// jsonRoundTrip is s as encoding/json gives it back: invalid UTF-8 becomes
// U+FFFD, everything else is unchanged.
func jsonRoundTrip(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	var back string
	if err := json.Unmarshal(b, &back); err != nil {
		panic(err)
	}
	return back
}

// §7 sarif: GitHub rejects a run with more than 25,000 results: the most
// severe 25,000 are kept and a notification says how many were left out.
func TestSARIFResultLimit(t *testing.T) {
	t.Parallel()
	if MaxSARIFResults != 25000 {
		t.Fatalf("MaxSARIFResults = %d, want GitHub's 25000", MaxSARIFResults)
	}
	if bytes.Contains(writeSARIF(t, fixtureResult()), []byte(`"invocations"`)) {
		t.Error("invocations written although nothing was left out")
	}
	const maxResults = 3
	fs := make([]lint.Finding, 0, maxResults+2)
	for i := 0; i < maxResults+1; i++ {
		fs = append(fs, lint.Finding{Rule: "RL007", Name: "shadowed", Severity: lint.Warning, Path: fmt.Sprintf("d%05d/AGENTS.md", i), Message: "m"})
	}
	fs = append(fs, lint.Finding{Rule: "RL001", Name: "symlink", Severity: lint.Error, Path: "zzz/AGENTS.md", Message: "m"})
	var buf bytes.Buffer
	if err := SARIF(&buf, &lint.Result{Findings: fs}, Options{ToolVersion: "1.2.3", SARIFResultLimit: maxResults}); err != nil {
		t.Fatal(err)
	}
	out := buf.Bytes()
	validateSARIF(t, out)
	var d struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful        bool `json:"executionSuccessful"`
				ToolExecutionNotifications []struct {
					Message map[string]string `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatal(err)
	}
	run := d.Runs[0]
	if len(run.Results) != maxResults || run.Results[0].RuleID != "RL001" {
		t.Errorf("%d results, first %s; want %d, the error first", len(run.Results), run.Results[0].RuleID, maxResults)
	}
	if len(run.Invocations) != 1 || !run.Invocations[0].ExecutionSuccessful ||
		!strings.HasPrefix(run.Invocations[0].ToolExecutionNotifications[0].Message["text"], "2 results left out: ") {
		t.Errorf("invocations = %+v", run.Invocations)
	}
}

// X1: a finding's Fix is the result's one fix: an artifactChange for its
// file (the result's URI) with one replacement per edit, the deleted
// region by byte offset and length, the inserted text; no fixes without
// a Fix. The log validates against the schema.
func TestSARIFFixes(t *testing.T) {
	r := fixtureResult()
	out := writeSARIF(t, r)
	validateSARIF(t, out)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Fixes []struct {
					Description     struct{ Text string } `json:"description"`
					ArtifactChanges []struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Replacements []struct {
							DeletedRegion struct {
								ByteOffset *int `json:"byteOffset"`
								ByteLength *int `json:"byteLength"`
							} `json:"deletedRegion"`
							InsertedContent *struct{ Text *string } `json:"insertedContent"`
						} `json:"replacements"`
					} `json:"artifactChanges"`
				} `json:"fixes"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	withFix := 0
	for _, res := range log.Runs[0].Results {
		if res.RuleID != "RL010" {
			if len(res.Fixes) != 0 {
				t.Errorf("%s carries fixes", res.RuleID)
			}
			continue
		}
		withFix++
		if len(res.Fixes) != 1 || len(res.Fixes[0].ArtifactChanges) != 1 {
			t.Fatalf("RL010 fixes: %+v, want one fix with one artifactChange", res.Fixes)
		}
		fx := res.Fixes[0]
		ch := fx.ArtifactChanges[0]
		if fx.Description.Text != "Remove 2 hidden character(s)" {
			t.Errorf("description %q", fx.Description.Text)
		}
		if ch.ArtifactLocation.URI != res.Locations[0].PhysicalLocation.ArtifactLocation.URI || ch.ArtifactLocation.URIBaseID != "%SRCROOT%" {
			t.Errorf("artifactChange location %+v, want the result's", ch.ArtifactLocation)
		}
		want := [][2]int{{12, 3}, {17, 3}}
		if len(ch.Replacements) != len(want) {
			t.Fatalf("%d replacements, want %d", len(ch.Replacements), len(want))
		}
		for i, rp := range ch.Replacements {
			d := rp.DeletedRegion
			if d.ByteOffset == nil || d.ByteLength == nil || *d.ByteOffset != want[i][0] || *d.ByteLength != want[i][1] ||
				rp.InsertedContent == nil || rp.InsertedContent.Text == nil || *rp.InsertedContent.Text != "" {
				t.Errorf("replacement %d = %+v, want offset %d length %d, text \"\"", i, rp, want[i][0], want[i][1])
			}
		}
	}
	if withFix != 1 {
		t.Errorf("%d RL010 results, want 1", withFix)
	}
}
