package lsp

import (
	"testing"

	"github.com/rivumi/rivumi-lint/lint"
)

// X4, X1: a fix's byte edits become LSP text edits in the negotiated
// encoding; applying them gives the fixed text in both.
func TestFixToWorkspaceEditX4(t *testing.T) {
	text := "# R\n" + bidiLine + " z\u200b\n"
	// Line 2: "a" (1 byte), U+1F600 (4), U+202E at byte offset 4+5=9 (3
	// bytes), "b z" and U+200B at offset 4+11=15 (3 bytes).
	fix := &lint.Fix{Description: "Remove 2 hidden characters", Edits: []lint.Edit{
		{Path: "AGENTS.md", Start: lint.Pos{Line: 2, Column: 6, Offset: 9}, End: lint.Pos{Line: 2, Column: 9, Offset: 12}},
		{Path: "AGENTS.md", Start: lint.Pos{Line: 2, Column: 12, Offset: 15}, End: lint.Pos{Line: 2, Column: 15, Offset: 18}},
	}}
	if text[9:12] != "\u202e" || text[15:18] != "\u200b" {
		t.Fatalf("offsets do not hold the characters: %q %q", text[9:12], text[15:18])
	}
	for _, tc := range []struct {
		enc        encoding
		start, end Position
	}{
		{utf16, Position{1, 3}, Position{1, 4}},
		{utf8e, Position{1, 5}, Position{1, 8}},
	} {
		d := &document{uri: "file:///r/AGENTS.md", rel: "AGENTS.md", root: "/r", text: []byte(text)}
		s := &Server{enc: tc.enc, docs: map[string]*document{"/r/AGENTS.md": d}}
		we, ok := s.workspaceEdit(d, fix)
		if !ok {
			t.Fatalf("%s: no edit", tc.enc)
		}
		edits := we.Changes[d.uri]
		if len(edits) != 2 || edits[0].Range.Start != tc.start || edits[0].Range.End != tc.end {
			t.Errorf("%s: edits %+v, want the first at %+v-%+v", tc.enc, edits, tc.start, tc.end)
		}
		if got, want := applyEdits(t, text, edits, tc.enc), "# R\na\U0001F600b z\n"; got != want {
			t.Errorf("%s: applied %q, want %q", tc.enc, got, want)
		}
		// An edit past the text (the text changed since the check) gives
		// no action rather than a wrong one.
		d.text = []byte("# R\n")
		if _, ok := s.workspaceEdit(d, fix); ok {
			t.Errorf("%s: an edit past the end of the text was converted", tc.enc)
		}
	}
}

// X4: positions of findings (1-based line, byte column) in each encoding.
func TestFindingRangeX4(t *testing.T) {
	text := []byte("x\n\U0001F600\u00e9!\n")
	f := lint.Finding{Line: 2, Column: 7} // "!" after 4+2 bytes
	if got, want := utf16.findingRange(text, f), (Range{Position{1, 3}, Position{1, 4}}); got != want {
		t.Errorf("utf-16 %+v, want %+v", got, want)
	}
	if got, want := utf8e.findingRange(text, f), (Range{Position{1, 6}, Position{1, 7}}); got != want {
		t.Errorf("utf-8 %+v, want %+v", got, want)
	}
	if got := utf16.findingRange(text, lint.Finding{}); got != (Range{}) {
		t.Errorf("whole-file finding %+v, want the start", got)
	}
	if got := utf16.findingRange(text, lint.Finding{Line: 9, Column: 1}); got != (Range{}) {
		t.Errorf("line past the end %+v", got)
	}
}
