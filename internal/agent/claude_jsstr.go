package agent

// JavaScript's string semantics, which Claude Code's file pipeline runs on:
// strings of UTF-16 code units, String.prototype.trim and the \s of its
// regular expressions. The Markdown pass (claude_markdown.go) is a port of
// that pipeline and works on code units, so that positions, a surrogate
// pair split by a search and the character classes it asks about match the
// original exactly.

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// js is a JavaScript string: UTF-16 code units.
type js = []uint16

// jsInf stands for JavaScript's Infinity in the ported position arithmetic.
const jsInf = int(^uint(0)>>1) / 4

// toJS converts valid UTF-8 (the lossy decoding's output) to code units.
func toJS(s string) js {
	out := make(js, 0, len(s))
	for _, r := range s {
		if r >= 0x10000 {
			a, b := utf16.EncodeRune(r)
			out = append(out, uint16(a), uint16(b))
			continue
		}
		out = append(out, uint16(r))
	}
	return out
}

// fromJS converts code units back to UTF-8; a lone surrogate, which a
// valid input never leaves, would become U+FFFD.
func fromJS(u js) string {
	b := make([]byte, 0, len(u))
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		if utf16.IsSurrogate(c) && i+1 < len(u) {
			if r := utf16.DecodeRune(c, rune(u[i+1])); r != utf8.RuneError {
				b = utf8.AppendRune(b, r)
				i++
				continue
			}
		}
		b = utf8.AppendRune(b, c)
	}
	return string(b)
}

// jsSpace is \s of a JavaScript regular expression (WhiteSpace and
// LineTerminator), also what String.prototype.trim removes.
func jsSpace(c int) bool {
	switch c {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return c >= 0x2000 && c <= 0x200a
}

// jsLineEnd is what a JavaScript "." does not match.
func jsLineEnd(c int) bool { return c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029 }

// jsTrim is String.prototype.trim.
func jsTrim(s js) js {
	i, j := 0, len(s)
	for i < j && jsSpace(int(s[i])) {
		i++
	}
	for j > i && jsSpace(int(s[j-1])) {
		j--
	}
	return s[i:j]
}

func jsTrimStart(s js) js {
	i := 0
	for i < len(s) && jsSpace(int(s[i])) {
		i++
	}
	return s[i:]
}

func jsTrimEnd(s js) js {
	j := len(s)
	for j > 0 && jsSpace(int(s[j-1])) {
		j--
	}
	return s[:j]
}

// jsTrimString is String.prototype.trim on UTF-8 text: the file text
// Claude Code puts into its message is trimmed so.
func jsTrimString(s string) string {
	i, j := 0, len(s)
	for i < j {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !jsSpace(int(r)) {
			break
		}
		i += n
	}
	for j > i {
		r, n := utf8.DecodeLastRuneInString(s[i:j])
		if !jsSpace(int(r)) {
			break
		}
		j -= n
	}
	return s[i:j]
}

// cat concatenates code unit strings into a new one (JavaScript's +),
// never sharing the first's backing array.
func cat(parts ...js) js {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make(js, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// lit is a constant ASCII string as code units.
func lit(s string) js { return toJS(s) }

func eq(a js, s string) bool {
	if len(a) != len(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if a[i] != uint16(s[i]) {
			return false
		}
	}
	return true
}

// at is charCodeAt with -1 out of range (Tt in the original).
func at(e js, i int) int {
	if i >= 0 && i < len(e) {
		return int(e[i])
	}
	return -1
}

// cpAt is codePointAt, -1 past the end.
func cpAt(e js, i int) int {
	if i < 0 || i >= len(e) {
		return -1
	}
	c := int(e[i])
	if c >= 0xd800 && c <= 0xdbff && i+1 < len(e) {
		if d := int(e[i+1]); d >= 0xdc00 && d <= 0xdfff {
			return (c-0xd800)<<10 + (d - 0xdc00) + 0x10000
		}
	}
	return c
}

// startsWith is String.prototype.startsWith(s, pos) for an ASCII s.
func startsWith(e js, s string, pos int) bool {
	if pos < 0 {
		pos = 0
	}
	if pos+len(s) > len(e) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if e[pos+i] != uint16(s[i]) {
			return false
		}
	}
	return true
}

func startsWithJS(e, s js, pos int) bool {
	if pos < 0 {
		pos = 0
	}
	if pos+len(s) > len(e) {
		return false
	}
	for i := range s {
		if e[pos+i] != s[i] {
			return false
		}
	}
	return true
}

// indexOf is String.prototype.indexOf for an ASCII s.
func indexOf(e js, s string, from int) int {
	if from < 0 {
		from = 0
	}
	for i := from; i+len(s) <= len(e); i++ {
		if startsWith(e, s, i) {
			return i
		}
	}
	return -1
}

func indexOfUnit(e js, c uint16, from int) int {
	if from < 0 {
		from = 0
	}
	for i := from; i < len(e); i++ {
		if e[i] == c {
			return i
		}
	}
	return -1
}

// lastIndexOfUnit is String.prototype.lastIndexOf(c, from).
func lastIndexOfUnit(e js, c uint16, from int) int {
	if from >= len(e) {
		from = len(e) - 1
	}
	for i := from; i >= 0; i-- {
		if e[i] == c {
			return i
		}
	}
	return -1
}

// jsLower is String.prototype.toLowerCase: Unicode's full lower-casing
// (U+0130 is the one letter whose mapping is longer than itself).
func jsLower(e js) js {
	rs := utf16.Decode(e)
	out := make([]rune, 0, len(rs))
	for _, r := range rs {
		if r == 0x130 {
			out = append(out, 'i', 0x307)
			continue
		}
		out = append(out, unicode.ToLower(r))
	}
	return js(utf16.Encode(out))
}

// jsUpperASCII upper-cases ASCII letters only: what the original compares
// with ("[CDATA[").
func jsUpperASCII(e js) js {
	out := make(js, len(e))
	for i, c := range e {
		if c >= 'a' && c <= 'z' {
			c -= 32
		}
		out[i] = c
	}
	return out
}

func isASCIIDigit(c int) bool  { return c >= '0' && c <= '9' }
func isASCIILetter(c int) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isWordUnit(c int) bool    { return isASCIILetter(c) || isASCIIDigit(c) || c == '_' }
