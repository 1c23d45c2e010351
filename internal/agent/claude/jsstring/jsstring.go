// Package jsstring is JavaScript's string semantics, which Claude Code's
// file pipeline runs on: strings of UTF-16 code units,
// String.prototype.trim and the \s of its regular expressions. The
// Markdown lexer (package marked) is a port of that pipeline and works on
// code units, so that positions, a surrogate pair split by a search and
// the character classes it asks about match the original exactly.
package jsstring

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// String is a JavaScript string: UTF-16 code units.
type String = []uint16

// Inf stands for JavaScript's Infinity in the ported position arithmetic.
const Inf = int(^uint(0)>>1) / 4

// Of converts valid UTF-8 (the lossy decoding's output) to code units.
func Of(s string) String {
	out := make(String, 0, len(s))
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

// UTF8 converts code units back to UTF-8; a lone surrogate, which a
// valid input never leaves, would become U+FFFD.
func UTF8(u String) string {
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

// IsSpace is \s of a JavaScript regular expression (WhiteSpace and
// LineTerminator), also what String.prototype.trim removes.
func IsSpace(c int) bool {
	switch c {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return c >= 0x2000 && c <= 0x200a
}

// IsLineEnd is what a JavaScript "." does not match.
func IsLineEnd(c int) bool { return c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029 }

// Trim is String.prototype.trim.
func Trim(s String) String {
	i, j := 0, len(s)
	for i < j && IsSpace(int(s[i])) {
		i++
	}
	for j > i && IsSpace(int(s[j-1])) {
		j--
	}
	return s[i:j]
}

// TrimStart is String.prototype.trimStart.
func TrimStart(s String) String {
	i := 0
	for i < len(s) && IsSpace(int(s[i])) {
		i++
	}
	return s[i:]
}

// TrimEnd is String.prototype.trimEnd.
func TrimEnd(s String) String {
	j := len(s)
	for j > 0 && IsSpace(int(s[j-1])) {
		j--
	}
	return s[:j]
}

// TrimString is String.prototype.trim on UTF-8 text: the file text
// Claude Code puts into its message is trimmed so.
func TrimString(s string) string {
	i, j := 0, len(s)
	for i < j {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !IsSpace(int(r)) {
			break
		}
		i += n
	}
	for j > i {
		r, n := utf8.DecodeLastRuneInString(s[i:j])
		if !IsSpace(int(r)) {
			break
		}
		j -= n
	}
	return s[i:j]
}

// Cat concatenates code unit strings into a new one (JavaScript's +),
// never sharing the first's backing array.
func Cat(parts ...String) String {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make(String, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// Lit is a constant ASCII string as code units.
func Lit(s string) String { return Of(s) }

// Eq reports whether a holds the ASCII string s.
func Eq(a String, s string) bool {
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

// At is charCodeAt with -1 out of range (Tt in the original).
func At(e String, i int) int {
	if i >= 0 && i < len(e) {
		return int(e[i])
	}
	return -1
}

// CodePointAt is codePointAt, -1 past the end.
func CodePointAt(e String, i int) int {
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

// StartsWith is String.prototype.startsWith(s, pos) for an ASCII s.
func StartsWith(e String, s string, pos int) bool {
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

// StartsWithString is String.prototype.startsWith(s, pos).
func StartsWithString(e, s String, pos int) bool {
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

// IndexOf is String.prototype.indexOf for an ASCII s.
func IndexOf(e String, s string, from int) int {
	if from < 0 {
		from = 0
	}
	for i := from; i+len(s) <= len(e); i++ {
		if StartsWith(e, s, i) {
			return i
		}
	}
	return -1
}

// IndexOfUnit is String.prototype.indexOf(c, from) for one code unit.
func IndexOfUnit(e String, c uint16, from int) int {
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

// LastIndexOfUnit is String.prototype.lastIndexOf(c, from).
func LastIndexOfUnit(e String, c uint16, from int) int {
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

// Lower is String.prototype.toLowerCase: Unicode's full lower-casing
// (U+0130 is the one letter whose mapping is longer than itself).
func Lower(e String) String {
	rs := utf16.Decode(e)
	out := make([]rune, 0, len(rs))
	for _, r := range rs {
		if r == 0x130 {
			out = append(out, 'i', 0x307)
			continue
		}
		out = append(out, unicode.ToLower(r))
	}
	return String(utf16.Encode(out))
}

// UpperASCII upper-cases ASCII letters only: what the original compares
// with ("[CDATA[").
func UpperASCII(e String) String {
	out := make(String, len(e))
	for i, c := range e {
		if c >= 'a' && c <= 'z' {
			c -= 32
		}
		out[i] = c
	}
	return out
}

// IsASCIIDigit, IsASCIILetter and IsWordUnit are the classes [0-9],
// [A-Za-z] and \w of a JavaScript regular expression.
func IsASCIIDigit(c int) bool  { return c >= '0' && c <= '9' }
func IsASCIILetter(c int) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func IsWordUnit(c int) bool    { return IsASCIILetter(c) || IsASCIIDigit(c) || c == '_' }
