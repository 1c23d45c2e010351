package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/preview/view"
)

// hostilePreview carries, in every kind of value a preview shows, text
// that could issue a GitHub Actions workflow command (a line starting with
// "::", "##[" anywhere) or hide or reorder text (U+202E, U+200B).
func hostilePreview() *view.Preview {
	const bad = "::error::owned ##[group]x \u202eevil\u200b"
	return &view.Preview{
		Version: view.Version, Directory: bad, Fingerprint: "rivumi-fp-v1:00",
		Sections: []view.Section{
			{Name: "instructions", Kind: view.KindDynamic, Included: true, Bytes: 1,
				Text: "<rivumi:section>\n::error::owned ##[group]x\n  ::warning::indented\n\t##[endgroup]\n</rivumi:section>\n"},
		},
		Layers:   []lint.Layer{{Path: bad, Scope: "project", State: "shadowed", Reason: bad, Bytes: 3}},
		Skills:   []view.Skill{{Name: bad, State: "rejected", Reason: "RL004", Problem: bad}},
		Memory:   view.Memory{Path: "  " + bad, Project: bad},
		Budget:   view.Budget{Status: "ok"},
		Findings: []lint.Finding{{Rule: "RL010", Severity: lint.Error, Path: bad, Message: bad}},
		Notes:    []string{bad},
	}
}

// §10, P5 (issue 12): the preview's writers share check's escaping. In the
// text format no line can start a workflow command, "##[" never appears,
// and bidi and zero-width characters are shown as \uXXXX; the JSON is
// runner-safe and still decodes to the same values; markdown escapes
// every value as check's markdown does. (A rendered section keeps bidi
// and zero-width characters: it is the text the model reads, and RL010
// reports them.)
func TestPreviewWritersDefuseHostileText(t *testing.T) {
	pv := hostilePreview()
	for _, name := range PreviewNames() {
		f, _ := LookupPreview(name)
		var b bytes.Buffer
		if err := f.Write(&b, pv, Options{}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.Contains(out, "##[") {
			t.Errorf("%s: output holds ##[:\n%s", name, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "::") {
				t.Errorf("%s: a line starts a workflow command: %q", name, l)
			}
		}
		if name != "json" && strings.ContainsAny(out, "\u202e\u200b") {
			t.Errorf("%s: output holds a bidi or zero-width character:\n%s", name, out)
		}
		if name == "json" {
			var back view.Preview
			if err := json.Unmarshal(b.Bytes(), &back); err != nil || back.Directory != pv.Directory || back.Sections[0].Text != pv.Sections[0].Text {
				t.Errorf("json does not decode to the same values: %v", err)
			}
		}
	}
	var b bytes.Buffer
	if err := PreviewText(&b, pv, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `\u202eevil\u200b`) {
		t.Errorf("text does not show the invisible characters:\n%s", b.String())
	}
}
