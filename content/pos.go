package content

import "bytes"

// Pos is a position in a file: Line and Column 1-based, Column counted in
// bytes (as Go tools and reviewdog do); Offset 0-based byte offset.
type Pos struct {
	Line, Column, Offset int
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
	return Pos{Line: line, Column: off - lineStart + 1, Offset: off}
}

var nl = []byte{'\n'}

// tracker computes positions for non-decreasing offsets in one pass over b:
// each call only looks at the bytes since the previous call.
type tracker struct {
	b         []byte
	off       int // offset the state below describes
	line      int // line number at off
	lineStart int // offset of the first byte of that line
}

func newTracker(b []byte) tracker { return tracker{b: b, line: 1} }

// at returns the position of off, which must be >= every earlier off.
func (t *tracker) at(off int) Pos {
	if off > t.off {
		seg := t.b[t.off:off]
		if n := bytes.Count(seg, nl); n > 0 {
			t.line += n
			t.lineStart = t.off + bytes.LastIndexByte(seg, '\n') + 1
		}
		t.off = off
	}
	return Pos{Line: t.line, Column: off - t.lineStart + 1, Offset: off}
}
