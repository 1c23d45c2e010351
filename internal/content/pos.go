package content

import (
	"bytes"
	"unicode/utf8"
)

// Pos is a position in a file: Line and Column 1-based, Column counted in
// bytes (as Go tools and reviewdog do); Offset 0-based byte offset.
// UTF16Column is the same column counted in UTF-16 code units, the unit
// SARIF viewers (GitHub code scanning) and editors count in: a character
// of 2 or 3 bytes is one unit, one of 4 bytes two, and an invalid byte
// one (it shows as one U+FFFD). It is computed here, where the byte column
// is, so that no writer has to read the file again.
type Pos struct {
	Line, Column, Offset, UTF16Column int
}

// PosAt returns the position of byte offset off in b. off may equal len(b)
// (the position just past the last byte); an off below 0 or above len(b) is
// clamped into that range rather than panicking, because a linter must never
// crash on its own bookkeeping.
//
// Line breaks: LF ends a line, so the byte after an LF starts the next line.
// In CRLF the CR is the last byte of the line it ends (it has that line's
// number and the column after the last visible character). A lone CR (one
// not followed by LF) is NOT a line break: Go's tools, Git and reviewdog all
// count lines by LF only, and a position that counted lone CRs would point at
// the wrong line in a PR annotation. Columns count bytes, so a multi-byte
// character advances the column by its encoded length.
//
// PosAt is linear in off. To compute many increasing positions in one file
// use the package's single-pass functions (HiddenChars, Markers) instead of
// calling PosAt in a loop.
func PosAt(b []byte, off int) Pos {
	if off < 0 {
		off = 0
	}
	if off > len(b) {
		off = len(b)
	}
	head := b[:off]
	line := 1 + bytes.Count(head, nl)
	lineStart := bytes.LastIndexByte(head, '\n') + 1
	return Pos{Line: line, Column: off - lineStart + 1, Offset: off, UTF16Column: utf16Len(b[lineStart:off]) + 1}
}

var nl = []byte{'\n'}

// utf16Len is the length of b in UTF-16 code units, decoding b as UTF-8
// with each invalid byte one unit (U+FFFD). A rune cut off at the end of b
// counts as its bytes: a column never points into a character.
func utf16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		_, size := utf8.DecodeRune(b[i:])
		n += utf16Units(size)
		i += size
	}
	return n
}

// utf16Units is how many UTF-16 code units the UTF-8 sequence of size
// bytes (as utf8.DecodeRune returned it; 1 for an invalid byte) takes.
func utf16Units(size int) int {
	if size == 4 {
		return 2 // outside the BMP: a surrogate pair
	}
	return 1
}

// tracker computes positions for non-decreasing offsets in one pass over b:
// each call only looks at the bytes since the previous call.
type tracker struct {
	b         []byte
	off       int // offset the state below describes
	line      int // line number at off
	lineStart int // offset of the first byte of that line
	// bound is the last character boundary at or before off, counting
	// from lineStart, and units the UTF-16 code units from lineStart to
	// it; the bytes of a character that off cuts count one unit each, as
	// in PosAt.
	bound, units int
}

func newTracker(b []byte) tracker { return tracker{b: b, line: 1} }

// at returns the position of off, which must be >= every earlier off.
func (t *tracker) at(off int) Pos {
	if off > t.off {
		seg := t.b[t.off:off]
		if n := bytes.Count(seg, nl); n > 0 {
			t.line += n
			t.lineStart = t.off + bytes.LastIndexByte(seg, '\n') + 1
			t.bound, t.units = t.lineStart, 0
		}
		t.off = off
		for t.bound < off {
			if t.b[t.bound] < utf8.RuneSelf {
				t.bound++
				t.units++
				continue
			}
			_, size := utf8.DecodeRune(t.b[t.bound:])
			if t.bound+size > off {
				break
			}
			t.bound += size
			t.units += utf16Units(size)
		}
	}
	return Pos{Line: t.line, Column: off - t.lineStart + 1, Offset: off, UTF16Column: t.units + off - t.bound + 1}
}
