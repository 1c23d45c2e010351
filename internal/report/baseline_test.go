package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// baselined is the fixture with its first finding known and the rest new,
// as baseline.Apply marks them.
func baselined(t *testing.T) *lint.Result {
	t.Helper()
	r := fixtureResult()
	if len(r.Findings) < 2 {
		t.Fatalf("the fixture has %d findings, want 2 or more", len(r.Findings))
	}
	for i := range r.Findings {
		r.Findings[i].Baseline = lint.BaselineNew
	}
	r.Findings[0].Baseline = lint.BaselineUnchanged
	r.Baseline = &lint.BaselineStats{File: "base.json", Known: 1, New: len(r.Findings) - 1, Fixed: 2}
	return r
}

// B3 sarif: every result carries baselineState, valid SARIF 2.1.0.
func TestSARIFBaselineStateB3(t *testing.T) {
	r := baselined(t)
	out := writeSARIF(t, r)
	validateSARIF(t, out)
	var doc struct {
		Runs []struct {
			Results []struct {
				BaselineState string `json:"baselineState"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	res := doc.Runs[0].Results
	if len(res) != len(r.Findings) {
		t.Fatalf("%d results for %d findings: the known one must stay", len(res), len(r.Findings))
	}
	known := 0
	for _, x := range res {
		switch x.BaselineState {
		case "unchanged":
			known++
		case "new":
		default:
			t.Errorf("baselineState %q", x.BaselineState)
		}
	}
	if known != 1 {
		t.Errorf("%d unchanged results, want 1", known)
	}
	if plain := writeSARIF(t, fixtureResult()); bytes.Contains(plain, []byte("baselineState")) {
		t.Error("baselineState without a baseline")
	}
}

// B3 json: every finding kept and marked, the baseline object before the
// summary, and the summary counting only the new.
func TestJSONBaselineB3(t *testing.T) {
	r := baselined(t)
	var buf bytes.Buffer
	if err := JSON(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Findings []struct {
			Baseline string `json:"baseline"`
		} `json:"findings"`
		Baseline *lint.BaselineStats `json:"baseline"`
		Summary  lint.Summary        `json:"summary"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	if len(doc.Findings) != len(r.Findings) || doc.Findings[0].Baseline != "unchanged" || doc.Findings[1].Baseline != "new" {
		t.Fatalf("findings %+v", doc.Findings)
	}
	if doc.Baseline == nil || *doc.Baseline != *r.Baseline {
		t.Fatalf("baseline %+v, want %+v", doc.Baseline, r.Baseline)
	}
	full := fixtureResult().Summary()
	if n, all := doc.Summary.Errors+doc.Summary.Warnings+doc.Summary.Notices, full.Errors+full.Warnings+full.Notices; n != all-1 {
		t.Fatalf("summary counts %d, want %d (all but the known one)", n, all-1)
	}
}

// B3 text, github, rdjson, markdown: the known finding is left out; text
// ends with the baseline's line.
func TestNewOnlyFormatsB3(t *testing.T) {
	r := baselined(t)
	known := r.Findings[0].Message
	for _, name := range []string{"text", "line", "github", "rdjson", "rdjsonl", "markdown"} {
		w, _ := Lookup(name)
		var with, without bytes.Buffer
		if err := w(&with, r, Options{}); err != nil {
			t.Fatal(err)
		}
		if err := w(&without, fixtureResult(), Options{}); err != nil {
			t.Fatal(err)
		}
		first := strings.SplitN(known, " ", 6)
		probe := strings.Join(first[:len(first)-1], " ")
		if !strings.Contains(without.String(), probe) {
			t.Fatalf("%s: the probe %q is not in the output without a baseline", name, probe)
		}
		if strings.Count(with.String(), probe) >= strings.Count(without.String(), probe) {
			t.Errorf("%s: the known finding is still listed", name)
		}
	}
	for _, name := range []string{"text", "line"} {
		w, _ := Lookup(name)
		var buf bytes.Buffer
		if err := w(&buf, r, Options{}); err != nil {
			t.Fatal(err)
		}
		if want := "\n1 known finding in base.json not reported; 2 of its entries no longer found (check --write-baseline base.json drops them)\n"; !strings.HasSuffix(buf.String(), want) {
			t.Errorf("%s ends %q, want %q", name, buf.String()[max(0, buf.Len()-200):], want)
		}
	}
}

// B3 markdown (the job summary and a comment): the baseline's line under
// the headline, escaped.
func TestMarkdownBaselineLineB3(t *testing.T) {
	r := baselined(t)
	r.Baseline.File = "ci/*base*.json"
	var buf bytes.Buffer
	if err := Markdown(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(buf.String(), "\n\n###")
	if !strings.Contains(head, "1 known finding in ci/\\*base\\*.json not reported") {
		t.Errorf("markdown head:\n%s", head)
	}
}
