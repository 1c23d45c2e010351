package lint_test

import (
	"testing"

	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/content"
	. "github.com/rivumi/rivumi-lint/internal/lint"
)

// X1, RL010: the finding carries the text edit that deletes every hidden
// character of the file (bidi, zero-width, tag characters, C0 controls but
// tab, LF and CR); adjacent ones are one edit, positions in bytes.
func TestHiddenFindingCarriesFix(t *testing.T) {
	text := "a\u202eb\x00\x01c\r\n\td\u200b\n\U000E0041e\x1b"
	r := runTree(t, config.Default(), map[string]string{"AGENTS.md": text}, "")
	if len(r.Findings) != 1 || r.Findings[0].Rule != "RL010" {
		t.Fatalf("findings %+v, want one RL010", r.Findings)
	}
	fix := r.Findings[0].Fix
	if fix == nil {
		t.Fatal("RL010 finding has no Fix")
	}
	want := []Edit{
		{Path: "AGENTS.md", Start: Pos{Line: 1, Column: 2, Offset: 1}, End: Pos{Line: 1, Column: 5, Offset: 4}},
		{Path: "AGENTS.md", Start: Pos{Line: 1, Column: 6, Offset: 5}, End: Pos{Line: 1, Column: 8, Offset: 7}},
		{Path: "AGENTS.md", Start: Pos{Line: 2, Column: 3, Offset: 12}, End: Pos{Line: 2, Column: 6, Offset: 15}},
		{Path: "AGENTS.md", Start: Pos{Line: 3, Column: 1, Offset: 16}, End: Pos{Line: 3, Column: 5, Offset: 20}},
		{Path: "AGENTS.md", Start: Pos{Line: 3, Column: 6, Offset: 21}, End: Pos{Line: 3, Column: 7, Offset: 22}},
	}
	if len(fix.Edits) != len(want) {
		t.Fatalf("edits %+v, want %+v", fix.Edits, want)
	}
	for i := range want {
		if fix.Edits[i] != want[i] {
			t.Errorf("edit %d = %+v, want %+v", i, fix.Edits[i], want[i])
		}
	}
	if fix.Description != "Remove 6 hidden character(s)" {
		t.Errorf("description %q", fix.Description)
	}
	// Applying the edits leaves no hidden character and keeps the rest.
	b := []byte(text)
	var out []byte
	last := 0
	for _, e := range fix.Edits {
		out = append(append(out, b[last:e.Start.Offset]...), e.Text...)
		last = e.End.Offset
	}
	out = append(out, b[last:]...)
	if got := string(out); got != "abc\r\n\td\ne" {
		t.Errorf("fixed text %q", got)
	}
	if _, n := content.HiddenChars(out, 0); n != 0 {
		t.Errorf("%d hidden characters left", n)
	}
}

// X1: a finding whose cause is not a text edit carries no Fix.
func TestOtherFindingsCarryNoFix(t *testing.T) {
	r := runTree(t, config.Default(), map[string]string{"AGENTS.md": "x <rivumi:section>\n", "a/AGENTS.override.md": ""}, "", "a")
	for _, f := range r.Findings {
		if f.Fix != nil {
			t.Errorf("%s carries a Fix: %+v", f.Rule, f.Fix)
		}
	}
}

// X1: each fixable finding carries its repair as data (Finding.Repair), so
// fix never decides from the rule id: RL010 its edits, RL004 a
// transcoding, RL011 a rename to the exact name in another case (and none
// named for a name one edit away), RL001 a swap; other findings none.
func TestFindingsCarryRepair(t *testing.T) {
	r := runTree(t, config.Default(), map[string]string{
		"h/AGENTS.md": "a\u200bb\n",
		"l/AGENTS.md": "caf\xe9\n",
		"c/Agents.md": "case\n",
		"e/AGENT.md":  "edit\n",
		"m/AGENTS.md": "<rivumi:x>\n",
	}, "h", "l", "c", "e", "m")
	want := map[string]Repair{
		"h/AGENTS.md": {Kind: RepairDeleteHidden},
		"l/AGENTS.md": {Kind: RepairTranscode},
		"c/Agents.md": {Kind: RepairRename, Name: "AGENTS.md"},
		"e/AGENT.md":  {Kind: RepairRename},
		"m/AGENTS.md": {},
	}
	for _, f := range r.Findings {
		w, ok := want[f.Path]
		if !ok {
			continue
		}
		delete(want, f.Path)
		if f.Repair != w {
			t.Errorf("%s [%s]: repair %+v, want %+v", f.Path, f.Rule, f.Repair, w)
		}
		if (f.Repair.Kind == RepairDeleteHidden) != (f.Fix != nil) {
			t.Errorf("%s [%s]: repair %+v with Fix %v", f.Path, f.Rule, f.Repair, f.Fix)
		}
	}
	for p := range want {
		t.Errorf("no finding for %s: %s", p, rulesOf(r))
	}
}
