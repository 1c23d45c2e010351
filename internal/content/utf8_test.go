package content

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// C4 / RL004: the first invalid byte as line:column (bytes) and offset, and
// a UTF-16/UTF-32 byte-order mark named as such.
func TestCheckUTF8(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want *Invalid // nil: valid
	}{
		{"empty", "", nil},
		{"ASCII", "# Rules\n\nBe nice.\n", nil},
		{"multi-byte", "café € 😀 日本語\n", nil},
		{"UTF-8 BOM is valid", "\xef\xbb\xbf# Rules\n", nil},
		{"encoded U+FFFD is valid", "a\xef\xbf\xbdb", nil},
		{"max code point U+10FFFF", "\xf4\x8f\xbf\xbf", nil},
		{"NUL is valid UTF-8", "a\x00b", nil},

		// Latin-1 é (E9) on line 3: "# Title\n" is 8 bytes, "\n" 1, so
		// line 3 starts at offset 9 and "It's a caf" is 10 bytes.
		{"Latin-1 on line 3", "# Title\n\nIt's a caf\xe9 here\n", &Invalid{Pos: Pos{3, 11, 19, 11}}},
		{"Latin-1 first byte", "\xe9t\xe9", &Invalid{Pos: Pos{1, 1, 0, 1}}},
		{"column counts bytes of earlier runes", "héllo \xff", &Invalid{Pos: Pos{1, 8, 7, 7}}},
		{"after CRLF lines", "a\r\nb\r\nc\xff", &Invalid{Pos: Pos{3, 2, 7, 2}}},
		{"lone CR is not a line break", "a\rb\xff", &Invalid{Pos: Pos{1, 4, 3, 4}}},
		{"after a long ASCII run", strings.Repeat("x", 21) + "\x80", &Invalid{Pos: Pos{1, 22, 21, 22}}},
		{"after long ASCII lines", strings.Repeat("abcdefg\n", 5) + "\x80", &Invalid{Pos: Pos{6, 1, 40, 1}}},

		// Truncated sequences: the lead byte is the first invalid byte.
		{"truncated 3-byte at EOF", "ok\n\xe2\x82", &Invalid{Pos: Pos{2, 1, 3, 1}}},
		{"truncated 4-byte at EOF", "a\xf0\x9f\x98", &Invalid{Pos: Pos{1, 2, 1, 2}}},
		{"truncated 2-byte at EOF", "ab\xc3", &Invalid{Pos: Pos{1, 3, 2, 3}}},
		{"truncated in the middle", "a\xe2\x82b", &Invalid{Pos: Pos{1, 2, 1, 2}}},
		{"lone continuation byte", "ab\x80", &Invalid{Pos: Pos{1, 3, 2, 3}}},

		// Overlong encodings.
		{"overlong 2-byte slash", "/\xc0\xaf", &Invalid{Pos: Pos{1, 2, 1, 2}}},
		{"overlong 2-byte C1", "\xc1\xbf", &Invalid{Pos: Pos{1, 1, 0, 1}}},
		{"overlong 3-byte", "\xe0\x80\xaf", &Invalid{Pos: Pos{1, 1, 0, 1}}},
		{"overlong 4-byte", "\xf0\x80\x80\xaf", &Invalid{Pos: Pos{1, 1, 0, 1}}},
		{"overlong NUL", "x\xc0\x80", &Invalid{Pos: Pos{1, 2, 1, 2}}},

		// Surrogates and out of range.
		{"high surrogate ED A0 80", "ab\xed\xa0\x80", &Invalid{Pos: Pos{1, 3, 2, 3}}},
		{"low surrogate ED BF BF", "\n\xed\xbf\xbf", &Invalid{Pos: Pos{2, 1, 1, 1}}},
		{"above U+10FFFF", "\xf4\x90\x80\x80", &Invalid{Pos: Pos{1, 1, 0, 1}}},
		{"F5 lead byte", "\xf5\x80\x80\x80", &Invalid{Pos: Pos{1, 1, 0, 1}}},
		{"FF byte", "abc\xff", &Invalid{Pos: Pos{1, 4, 3, 4}}},

		// Byte-order marks of other encodings.
		{"UTF-16LE", "\xff\xfeH\x00i\x00\n\x00", &Invalid{Pos: Pos{1, 1, 0, 1}, BOM: "UTF-16LE"}},
		{"UTF-16BE", "\xfe\xff\x00H\x00i\x00\n", &Invalid{Pos: Pos{1, 1, 0, 1}, BOM: "UTF-16BE"}},
		{"UTF-16LE BOM only", "\xff\xfe", &Invalid{Pos: Pos{1, 1, 0, 1}, BOM: "UTF-16LE"}},
		{"UTF-16BE BOM only", "\xfe\xff", &Invalid{Pos: Pos{1, 1, 0, 1}, BOM: "UTF-16BE"}},
		{"UTF-32LE", "\xff\xfe\x00\x00H\x00\x00\x00", &Invalid{Pos: Pos{1, 1, 0, 1}, BOM: "UTF-32LE"}},
		// 00 00 are two valid NULs; FE at offset 2 is the first invalid byte.
		{"UTF-32BE", "\x00\x00\xfe\xff\x00\x00\x00H", &Invalid{Pos: Pos{1, 3, 2, 3}, BOM: "UTF-32BE"}},
		{"UTF-32BE BOM only", "\x00\x00\xfe\xff", &Invalid{Pos: Pos{1, 3, 2, 3}, BOM: "UTF-32BE"}},
		{"BOM bytes not at the start are not named", "x\xff\xfe", &Invalid{Pos: Pos{1, 2, 1, 2}}},
		{"UTF-16LE after UTF-8 BOM is not named", "\xef\xbb\xbf\xff\xfe", &Invalid{Pos: Pos{1, 4, 3, 2}}},
	} {
		got := CheckUTF8([]byte(tc.in))
		switch {
		case tc.want == nil && got != nil:
			t.Errorf("%s: CheckUTF8(%q) = %+v, want nil", tc.name, tc.in, *got)
		case tc.want != nil && got == nil:
			t.Errorf("%s: CheckUTF8(%q) = nil, want %+v", tc.name, tc.in, *tc.want)
		case tc.want != nil && *got != *tc.want:
			t.Errorf("%s: CheckUTF8(%q) = %+v, want %+v", tc.name, tc.in, *got, *tc.want)
		}
	}
}

// C4: a UTF-16 file in both byte orders, as a real editor writes it, is
// rejected at offset 0 with its BOM named, whatever the text.
func TestCheckUTF8UTF16Files(t *testing.T) {
	const text = "# Rules\r\nUse tabs.\r\n"
	le := []byte{0xFF, 0xFE}
	be := []byte{0xFE, 0xFF}
	for _, r := range text {
		le = append(le, byte(r), byte(r>>8))
		be = append(be, byte(r>>8), byte(r))
	}
	for name, b := range map[string][]byte{"UTF-16LE": le, "UTF-16BE": be} {
		got := CheckUTF8(b)
		if got == nil || got.BOM != name || got.Pos != (Pos{1, 1, 0, 1}) {
			t.Errorf("%s file: CheckUTF8 = %+v, want BOM %s at 1:1", name, got, name)
		}
	}
}

// C4 fuzz target: CheckUTF8 agrees with utf8.Valid; an invalid result points
// at the first byte where decoding fails, and its position is PosAt's.
func FuzzCheckUTF8(f *testing.F) {
	for _, s := range []string{
		"", "abc", "caf\xe9", "\xff\xfeH\x00", "\xfe\xff\x00H", "\xff\xfe\x00\x00H\x00\x00\x00",
		"\x00\x00\xfe\xff\x00\x00\x00H", "\xef\xbb\xbfok", "a\r\nb\xe2\x82", "\xed\xa0\x80",
		"\xc0\xaf", "\xf4\x90\x80\x80", "12345678\x80", "日本語\xe6\x97",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		inv := CheckUTF8(b)
		if (inv == nil) != utf8.Valid(b) {
			t.Fatalf("CheckUTF8(%q) = %+v, utf8.Valid = %v", b, inv, utf8.Valid(b))
		}
		// PosAt: line = 1 + LFs before, column = bytes since the last LF.
		for _, off := range []int{0, len(b) / 2, len(b)} {
			p := PosAt(b, off)
			line := 1 + bytes.Count(b[:off], []byte{'\n'})
			col := off - (bytes.LastIndexByte(b[:off], '\n') + 1) + 1
			// The UTF-16 column from the standard library's view of the
			// line: each invalid byte one U+FFFD.
			u16 := len(utf16.Encode([]rune(string(b[bytes.LastIndexByte(b[:off], '\n')+1:off])))) + 1
			if p != (Pos{line, col, off, u16}) {
				t.Fatalf("PosAt(%q, %d) = %+v, want {%d %d %d %d}", b, off, p, line, col, off, u16)
			}
		}
		if inv == nil {
			return
		}
		off := inv.Offset
		if off < 0 || off >= len(b) {
			t.Fatalf("CheckUTF8(%q): offset %d out of range", b, off)
		}
		if !utf8.Valid(b[:off]) {
			t.Fatalf("CheckUTF8(%q): b[:%d] is not valid, so %d is not the first invalid byte", b, off, off)
		}
		if r, size := utf8.DecodeRune(b[off:]); r != utf8.RuneError || size != 1 {
			t.Fatalf("CheckUTF8(%q): decoding at %d succeeds (%U, %d)", b, off, r, size)
		}
		if inv.Pos != PosAt(b, off) {
			t.Fatalf("CheckUTF8(%q): Pos %+v, PosAt %+v", b, inv.Pos, PosAt(b, off))
		}
		var bom string
		switch {
		case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}):
			bom = "UTF-32LE"
		case bytes.HasPrefix(b, []byte{0, 0, 0xFE, 0xFF}):
			bom = "UTF-32BE"
		case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
			bom = "UTF-16LE"
		case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
			bom = "UTF-16BE"
		}
		if inv.BOM != bom {
			t.Fatalf("CheckUTF8(%q): BOM %q, want %q", b, inv.BOM, bom)
		}
	})
}
