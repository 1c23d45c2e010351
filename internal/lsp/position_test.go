package lsp

import (
	"testing"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/lint"
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

// lspLines are the [start, end) byte ranges of text's lines as the
// protocol counts them (line endings "\n", "\r\n", "\r"), without the
// line ending; a reference written apart from encoding.position.
func lspLines(text []byte) [][2]int {
	var out [][2]int
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			out = append(out, [2]int{start, i})
			start = i + 1
		case '\r':
			out = append(out, [2]int{start, i})
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(out, [2]int{start, len(text)})
}

// X4: converting a byte offset (and a finding's line and byte column) to
// a position in either encoding never panics, never lands past the end
// of a line, and converts back to the same offset when the offset starts
// a character.
func FuzzPosition(f *testing.F) {
	f.Add([]byte("a\U0001F600\u202eb\r\nx\ry\n"), 5, 2, 3)
	f.Add([]byte("\xff\xe2\x80\r\r\n\n"), 2, 1, 9)
	f.Add([]byte(""), 0, 0, 0)
	f.Fuzz(func(t *testing.T, text []byte, off, line, col int) {
		lines := lspLines(text)
		for _, enc := range []encoding{utf16, utf8e} {
			p := enc.position(text, off)
			if p.Line < 0 || p.Line >= len(lines) {
				t.Fatalf("%s: offset %d: line %d of %d", enc, off, p.Line, len(lines))
			}
			l := lines[p.Line]
			if n := enc.units(text[l[0]:l[1]]); p.Character < 0 || p.Character > n {
				t.Fatalf("%s: offset %d: character %d past the line's %d", enc, off, p.Character, n)
			}
			// Back: walk the line's characters as units counts them.
			back, units := l[0], 0
			for units < p.Character {
				_, size := utf8.DecodeRune(text[back:l[1]])
				units += enc.units(text[back : back+size])
				back += size
			}
			o := max(0, min(off, len(text)))
			starts := o == l[0]
			for i := l[0]; i < l[1] && i < o; {
				_, size := utf8.DecodeRune(text[i:l[1]])
				i += size
				starts = starts || i == o
			}
			if starts && o <= l[1] && back != o {
				t.Fatalf("%s: offset %d -> %+v -> offset %d", enc, o, p, back)
			}
			r := enc.findingRange(text, lint.Finding{Line: line, Column: col})
			for _, q := range []Position{r.Start, r.End} {
				if q.Line < 0 || q.Line >= len(lines) || q.Character < 0 ||
					q.Character > enc.units(text[lines[q.Line][0]:lines[q.Line][1]]) {
					t.Fatalf("%s: finding %d:%d: range %+v past a line's end", enc, line, col, r)
				}
			}
			if before(r.End, r.Start) {
				t.Fatalf("%s: finding %d:%d: range %+v ends before it starts", enc, line, col, r)
			}
		}
	})
}

// findingRange is where a finding's diagnostic goes: the character at its
// line and column (a hidden character, an invalid byte), or the start of
// the file for a finding about the whole file.
func (enc encoding) findingRange(text []byte, f lint.Finding) Range {
	off, ok := offset(text, f.Line, f.Column)
	if !ok {
		return Range{}
	}
	return enc.charRange(text, off)
}
