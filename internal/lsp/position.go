package lsp

import (
	"bytes"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// encoding is the unit of Position.Character the client and the server
// agreed on (initialize): UTF-16 code units unless the client offered
// UTF-8. Findings count columns in bytes, so every position is converted
// with the document's text.
type encoding string

const (
	utf16 encoding = "utf-16"
	utf8e encoding = "utf-8"
)

// negotiate picks UTF-8 when the client offers it (LSP 3.17's
// general.positionEncodings), else UTF-16, the protocol's default.
func negotiate(offered []string) encoding {
	for _, e := range offered {
		if e == string(utf8e) {
			return utf8e
		}
	}
	return utf16
}

// position is the position of byte offset off in text. Lines end at
// "\n", "\r\n" or a lone "\r", as the protocol counts them (the findings
// count "\n" alone; offset converts from theirs); an offset past the end
// is the end, one between "\r" and "\n" the end of its line, one inside a
// character the character's start.
func (enc encoding) position(text []byte, off int) Position {
	off = max(0, min(off, len(text)))
	if off > 0 && off < len(text) && text[off-1] == '\r' && text[off] == '\n' {
		off--
	}
	line, start := 0, 0
	for {
		i := bytes.IndexAny(text[start:off], "\r\n")
		if i < 0 {
			break
		}
		start += i + 1
		if text[start-1] == '\r' && start < off && text[start] == '\n' {
			start++
		}
		line++
	}
	// An offset inside a character is that character's start: the editor
	// decodes the whole line, where a cut-off prefix would count each of
	// its bytes.
	end := start
	for end < off {
		_, size := utf8.DecodeRune(text[end:])
		if end+size > off {
			break
		}
		end += size
	}
	return Position{Line: line, Character: enc.units(text[start:end])}
}

// units is how many units of enc the bytes b take.
func (enc encoding) units(b []byte) int {
	if enc == utf8e {
		return len(b)
	}
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r >= 0x10000 {
			n += 2 // a surrogate pair
		} else {
			n++ // an invalid byte is one U+FFFD in the editor
		}
	}
	return n
}

// offset is the byte offset of a finding's 1-based line and byte column
// in text, clamped to that line; ok is false for a finding about the whole
// file (line 0) or a line past the end.
func offset(text []byte, line, column int) (int, bool) {
	if line <= 0 {
		return 0, false
	}
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(text[start:], '\n')
		if i < 0 {
			return 0, false
		}
		start += i + 1
	}
	end := len(text)
	if i := bytes.IndexByte(text[start:], '\n'); i >= 0 {
		end = start + i
	}
	return min(start+max(column-1, 0), end), true
}

// charRange is the range of the character at byte offset off of text
// (empty at a line end or the end).
func (enc encoding) charRange(text []byte, off int) Range {
	end := off
	if off < len(text) && text[off] != '\n' {
		_, size := utf8.DecodeRune(text[off:])
		end += size
	}
	return Range{Start: enc.position(text, off), End: enc.position(text, end)}
}

// textEdits turns a fix's edits of one file into LSP text edits. The
// positions come from the edits' byte offsets in text, the bytes the check
// read; an edit outside text means the text changed since, and no edits
// are returned (ok false).
func (enc encoding) textEdits(text []byte, edits []lint.Edit) ([]TextEdit, bool) {
	out := make([]TextEdit, 0, len(edits))
	for _, e := range edits {
		if e.Start.Offset < 0 || e.End.Offset < e.Start.Offset || e.End.Offset > len(text) {
			return nil, false
		}
		out = append(out, TextEdit{
			Range:   Range{Start: enc.position(text, e.Start.Offset), End: enc.position(text, e.End.Offset)},
			NewText: e.Text,
		})
	}
	return out, true
}

// before reports whether a comes before b.
func before(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// overlaps reports whether two ranges share a position (touching counts:
// a cursor at a diagnostic's edge asks for its fixes).
func overlaps(a, b Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}
