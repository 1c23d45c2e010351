package content

import "unicode/utf8"

// Lossy decodes b as UTF-8 the way Rust's String::from_utf8_lossy does
// (an agent written in Rust reads its instruction files so): each maximal
// invalid subsequence becomes one U+FFFD. A subsequence is the start of a
// well-formed sequence cut short, or one byte that cannot start one; so
// "\xE2\x82A" gives one replacement before the A, where Go's decoders
// (strings.ToValidUTF8 joins runs, range loops replace byte by byte)
// would give another count. Valid input is returned as it is.
func Lossy(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		n := validPrefix(b[i:])
		if n > 0 {
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		out = append(out, "\uFFFD"...)
		i += -n
	}
	return out
}

// validPrefix looks at the sequence starting at b[0] (not ASCII): its
// length when it is well-formed, else minus the length of the invalid
// subsequence (at least one byte), as Rust's UTF-8 validator counts it.
func validPrefix(b []byte) int {
	at := func(i int) byte {
		if i < len(b) {
			return b[i]
		}
		return 0
	}
	cont := func(c byte) bool { return c&0xC0 == 0x80 }
	c := b[0]
	switch {
	case c >= 0xC2 && c <= 0xDF:
		if !cont(at(1)) {
			return -1
		}
		return 2
	case c >= 0xE0 && c <= 0xEF:
		d := at(1)
		ok := (c == 0xE0 && d >= 0xA0 && d <= 0xBF) ||
			(c >= 0xE1 && c <= 0xEC && cont(d)) ||
			(c == 0xED && d >= 0x80 && d <= 0x9F) ||
			(c >= 0xEE && cont(d))
		if !ok {
			return -1
		}
		if !cont(at(2)) {
			return -2
		}
		return 3
	case c >= 0xF0 && c <= 0xF4:
		d := at(1)
		ok := (c == 0xF0 && d >= 0x90 && d <= 0xBF) ||
			(c >= 0xF1 && c <= 0xF3 && cont(d)) ||
			(c == 0xF4 && d >= 0x80 && d <= 0x8F)
		if !ok {
			return -1
		}
		if !cont(at(2)) {
			return -2
		}
		if !cont(at(3)) {
			return -3
		}
		return 4
	}
	return -1
}
