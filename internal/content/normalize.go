package content

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Normalize returns the text of a layer as Rivumi renders it inside its
// <rivumi:layer> element (P2 "Format v1"):
//
//  1. A leading UTF-8 BOM (EF BB BF) is dropped. If the file starts with
//     several BOMs in a row, all of them are dropped (see "fixed point").
//  2. CRLF becomes LF. Precisely: every CR that is immediately followed by
//     an LF is dropped, and so is a run of CRs that ends in an LF (the
//     "\r\r\n" of a file whose line endings were converted twice), so the
//     result never contains CRLF. A lone CR (not followed by LF, possibly
//     after other CRs) is kept: it is not a line break (see PosAt).
//  3. Trailing white space is trimmed at the END OF THE TEXT ONLY, not per
//     line: every trailing rune for which unicode.IsSpace is true (space,
//     tab, LF, CR, VT, FF, U+0085, U+00A0, U+2000–U+200A, U+2028, U+2029,
//     U+3000, …) is removed from the end of the whole content. White space
//     at the end of inner lines is content and is kept byte for byte.
//     (U+200B ZERO WIDTH SPACE and U+FEFF are not white space for
//     unicode.IsSpace and are kept; RL010 reports them.)
//  4. Exactly one final LF is appended.
//
// Text that is empty after these steps (an empty file, only white space, or
// only BOMs and white space) yields an empty, non-nil slice with no newline:
// RL009 "empty" is len(Normalize(b)) == 0.
//
// Fixed point: for every input, Normalize(Normalize(b)) equals Normalize(b),
// and the result is empty or ends in exactly one LF preceded by a character
// that is not white space. That is why steps 1 and 2 consume runs (a single
// pass of a plain "\r\n" → "\n" replacement turns "\r\r\n" into a new
// "\r\n"; dropping one BOM from a doubled BOM leaves a new leading BOM).
// Both runs only occur in damaged files, and RL010 reports the stray U+FEFF.
//
// Normalize does not validate UTF-8 (CheckUTF8 does, C4): on invalid input
// the bytes are kept as they are, and trimming stops at the first invalid
// byte from the end. The result is a new slice (one allocation); b is not
// modified.
func Normalize(b []byte) []byte {
	b = trimmed(b)
	if len(b) == 0 {
		return []byte{}
	}
	out := make([]byte, 0, len(b)+1)
	for {
		i := bytes.IndexByte(b, '\r')
		if i < 0 {
			out = append(out, b...)
			break
		}
		j := i + 1
		for j < len(b) && b[j] == '\r' {
			j++
		}
		if j < len(b) && b[j] == '\n' {
			out = append(out, b[:i]...) // drop the CR run, keep the LF
		} else {
			out = append(out, b[:j]...) // lone CRs are content
		}
		b = b[j:]
	}
	return append(out, '\n')
}

// trimmed is b after steps 1 and 3 of Normalize: without its leading
// BOMs and its trailing white space.
func trimmed(b []byte) []byte {
	for bytes.HasPrefix(b, utf8BOM) {
		b = b[len(utf8BOM):]
	}
	end := len(b)
	for end > 0 {
		r, size := utf8.DecodeLastRune(b[:end])
		if !unicode.IsSpace(r) {
			// utf8.RuneError (an invalid byte) is not white space.
			break
		}
		end -= size
	}
	// The trimmed text ends in a rune that is not white space, so it does
	// not end in CR and step 2 cannot expose new trailing white space.
	return b[:end]
}

// NormalizedLen is len(Normalize(b)), without the copy: the budget (P3)
// measures every layer, and most have no CR to drop.
func NormalizedLen(b []byte) int {
	b = trimmed(b)
	if len(b) == 0 {
		return 0
	}
	n := len(b) + 1
	for {
		i := bytes.IndexByte(b, '\r')
		if i < 0 {
			return n
		}
		j := i + 1
		for j < len(b) && b[j] == '\r' {
			j++
		}
		if j < len(b) && b[j] == '\n' {
			n -= j - i // the CR run before an LF is dropped
		}
		b = b[j:]
	}
}
