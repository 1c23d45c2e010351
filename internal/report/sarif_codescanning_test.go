package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// codeScanningDoc is what GitHub code scanning reads of a rule and a run
// beyond §7's minimum.
type codeScanningDoc struct {
	Runs []struct {
		AutomationDetails *struct {
			ID string `json:"id"`
		} `json:"automationDetails"`
		Tool struct {
			Driver struct {
				SemanticVersion *string `json:"semanticVersion"`
				Rules           []struct {
					ID   string `json:"id"`
					Help struct {
						Text     string `json:"text"`
						Markdown string `json:"markdown"`
					} `json:"help"`
					Properties struct {
						Tags             []string `json:"tags"`
						Precision        string   `json:"precision"`
						SecuritySeverity *string  `json:"security-severity"`
					} `json:"properties"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
	} `json:"runs"`
}

func writeCodeScanning(t *testing.T, o Options) codeScanningDoc {
	t.Helper()
	var buf bytes.Buffer
	if err := SARIF(&buf, fixtureResult(), o); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, buf.Bytes())
	var d codeScanningDoc
	if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// §7 sarif for code scanning: each rule's help.markdown is its doc with the
// fix as a paragraph and the link; tags hold its category, and "security"
// exactly on RL001, RL008 and RL010, which alone carry a security-severity
// ("x.y", 0.1 to 10.0); precision is one of SARIF's values.
func TestSARIFRuleMetadata(t *testing.T) {
	d := writeCodeScanning(t, Options{ToolVersion: "1.2.3"})
	security := map[string]bool{"RL001": true, "RL008": true, "RL010": true}
	for i, r := range lint.Rules() {
		got := d.Runs[0].Tool.Driver.Rules[i]
		md := got.Help.Markdown
		if !strings.HasPrefix(md, "**"+r.ID+" "+r.Name+"**: ") || !strings.Contains(md, "("+r.URL()+")") ||
			!strings.Contains(md, "Default severity: **"+r.Default.String()+"**") {
			t.Errorf("%s: help.markdown lacks the title, the severity or the link:\n%s", r.ID, md)
		}
		if strings.Contains(r.Doc, "Fix: ") && !strings.Contains(md, "\n\n**Fix:** ") {
			t.Errorf("%s: help.markdown does not set the fix apart:\n%s", r.ID, md)
		}
		tags := got.Properties.Tags
		if r.Category == "" || !contains(tags, r.Category) {
			t.Errorf("%s: tags %q lack the category %q", r.ID, tags, r.Category)
		}
		if contains(tags, "security") != security[r.ID] {
			t.Errorf("%s: tags %q; security tag wanted: %v", r.ID, tags, security[r.ID])
		}
		switch got.Properties.Precision {
		case "very-high", "high", "medium", "low":
		default:
			t.Errorf("%s: precision %q", r.ID, got.Properties.Precision)
		}
		ss := got.Properties.SecuritySeverity
		if (ss != nil) != security[r.ID] {
			t.Errorf("%s: security-severity %v; wanted only on security rules", r.ID, ss)
		}
		if ss != nil && !validSecuritySeverity(*ss) {
			t.Errorf("%s: security-severity %q is not \"x.y\" from 0.1 to 10.0", r.ID, *ss)
		}
	}
}

func contains(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

func validSecuritySeverity(s string) bool {
	whole, frac, ok := strings.Cut(s, ".")
	if !ok || len(frac) != 1 || frac[0] < '0' || frac[0] > '9' {
		return false
	}
	switch whole {
	case "0":
		return frac != "0"
	case "10":
		return frac == "0"
	}
	return len(whole) == 1 && whole[0] >= '1' && whole[0] <= '9'
}

// §7 sarif: --sarif-category becomes run.automationDetails.id
// ("CATEGORY/", as upload-sarif writes its own category), absent without
// one; tool.driver.semanticVersion is the version without "v" when it is
// Semantic Versioning, and absent for a devel build. Every log validates.
func TestSARIFRunDetails(t *testing.T) {
	for _, tc := range []struct{ category, id string }{
		{"", ""}, {"rivumi-lint/docs", "rivumi-lint/docs/"}, {"ci/", "ci/"},
	} {
		d := writeCodeScanning(t, Options{ToolVersion: "1.2.3", SARIFCategory: tc.category})
		ad := d.Runs[0].AutomationDetails
		switch {
		case tc.id == "" && ad != nil:
			t.Errorf("category %q: automationDetails %+v, want none", tc.category, ad)
		case tc.id != "" && (ad == nil || ad.ID != tc.id):
			t.Errorf("category %q: automationDetails %+v, want id %q", tc.category, ad, tc.id)
		}
	}
	for v, want := range map[string]string{
		"1.2.3": "1.2.3", "v0.3.0": "0.3.0", "v1.2.0-rc.1": "1.2.0-rc.1",
		"v0.0.0-20261130080000-0123456789ab": "0.0.0-20261130080000-0123456789ab",
		"devel":                              "", "devel-0123456789ab-dirty": "", "v1.2": "", "": "",
	} {
		d := writeCodeScanning(t, Options{ToolVersion: v})
		got := d.Runs[0].Tool.Driver.SemanticVersion
		switch {
		case want == "" && got != nil:
			t.Errorf("version %q: semanticVersion %q, want none", v, *got)
		case want != "" && (got == nil || *got != want):
			t.Errorf("version %q: semanticVersion %v, want %q", v, got, want)
		}
	}
}
