package lsp

import (
	"testing"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// X4: the protocol ends lines at "\n", "\r\n" and a lone "\r"; findings
// count "\n" alone. A finding after a lone CR, on a CRLF line, or on a
// last line without a newline lands where the editor shows the
// character.
func TestFindingRangeLineBreaksX4(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line, col  int // the finding's, as check counts them
		want       Range
	}{
		// "x\ry" is one line for check (column 4 is U+202E after "x\ry")
		// and two for the editor.
		{"lone CR", "x\ry\u202e\n", 1, 4, Range{Position{1, 1}, Position{1, 2}}},
		{"CRLF", "x\r\ny\u202e\r\n", 2, 2, Range{Position{1, 1}, Position{1, 2}}},
		{"last line without newline", "x\n\u202e", 2, 1, Range{Position{1, 0}, Position{1, 1}}},
		{"column past the line end", "x\r\nyz\r\n", 2, 99, Range{Position{1, 2}, Position{1, 2}}},
		{"CR then LF as two breaks", "x\r\r\n\u202e", 2, 1, Range{Position{2, 0}, Position{2, 1}}},
	} {
		for _, enc := range []encoding{utf16, utf8e} {
			want := tc.want
			if enc == utf8e && want.End.Character > want.Start.Character {
				want.End.Character = want.Start.Character + utf8.RuneLen('\u202e')
			}
			got := enc.findingRange([]byte(tc.text), lint.Finding{Line: tc.line, Column: tc.col})
			if got != want {
				t.Errorf("%s, %s: %+v, want %+v", tc.name, enc, got, want)
			}
		}
	}
	// An offset between "\r" and "\n" is the end of its line, never a
	// character of the line ending.
	if got := utf16.position([]byte("ab\r\nc"), 3); got != (Position{0, 2}) {
		t.Errorf("inside CRLF: %+v, want {0 2}", got)
	}
}
