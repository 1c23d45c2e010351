package content

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// inSpecSet is the RL010 set written out independently from the spec's
// table (§5), to check the implementation against. DEL U+007F is not in it.
func inSpecSet(r rune, off int) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069: // bidi
		return true
	case r >= 0x200B && r <= 0x200D, r == 0x2060: // zero-width
		return true
	case r == 0xFEFF: // zero-width no-break space, except the BOM at the start
		return off != 0
	case r >= 0xE0000 && r <= 0xE007F: // tags
		return true
	case r <= 0x1F: // C0 but tab, LF, CR
		return r != 0x09 && r != 0x0A && r != 0x0D
	}
	return false
}

// RL010: every class of the set, with exact positions, runes and names.
// Columns count bytes: each case puts the character after "ab\r\n" (line 1)
// and "é" (2 bytes) on line 2, so it is at line 2, column 3, offset 6.
func TestHiddenCharsEachClass(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		name string
	}{
		// Bidi controls.
		{0x202A, "U+202A LEFT-TO-RIGHT EMBEDDING"},
		{0x202B, "U+202B RIGHT-TO-LEFT EMBEDDING"},
		{0x202C, "U+202C POP DIRECTIONAL FORMATTING"},
		{0x202D, "U+202D LEFT-TO-RIGHT OVERRIDE"},
		{0x202E, "U+202E RIGHT-TO-LEFT OVERRIDE"},
		{0x2066, "U+2066 LEFT-TO-RIGHT ISOLATE"},
		{0x2067, "U+2067 RIGHT-TO-LEFT ISOLATE"},
		{0x2068, "U+2068 FIRST STRONG ISOLATE"},
		{0x2069, "U+2069 POP DIRECTIONAL ISOLATE"},
		// Zero-width.
		{0x200B, "U+200B ZERO WIDTH SPACE"},
		{0x200C, "U+200C ZERO WIDTH NON-JOINER"},
		{0x200D, "U+200D ZERO WIDTH JOINER"},
		{0x2060, "U+2060 WORD JOINER"},
		{0xFEFF, "U+FEFF ZERO WIDTH NO-BREAK SPACE"},
		// Tags.
		{0xE0000, "U+E0000 TAG CHARACTER (unassigned)"},
		{0xE0001, "U+E0001 LANGUAGE TAG"},
		{0xE001F, "U+E001F TAG CHARACTER (unassigned)"},
		{0xE0020, "U+E0020 TAG SPACE"},
		{0xE0021, "U+E0021 TAG EXCLAMATION MARK"},
		{0xE0030, "U+E0030 TAG DIGIT ZERO"},
		{0xE0039, "U+E0039 TAG DIGIT NINE"},
		{0xE0041, "U+E0041 TAG LATIN CAPITAL LETTER A"},
		{0xE005A, "U+E005A TAG LATIN CAPITAL LETTER Z"},
		{0xE005C, "U+E005C TAG REVERSE SOLIDUS"},
		{0xE0061, "U+E0061 TAG LATIN SMALL LETTER A"},
		{0xE007A, "U+E007A TAG LATIN SMALL LETTER Z"},
		{0xE007E, "U+E007E TAG TILDE"},
		{0xE007F, "U+E007F CANCEL TAG"},
		// C0 controls.
		{0x00, "U+0000 NULL"},
		{0x01, "U+0001 START OF HEADING"},
		{0x07, "U+0007 ALERT"},
		{0x08, "U+0008 BACKSPACE"},
		{0x0B, "U+000B LINE TABULATION"},
		{0x0C, "U+000C FORM FEED"},
		{0x1B, "U+001B ESCAPE"},
		{0x1C, "U+001C INFORMATION SEPARATOR FOUR"},
		{0x1F, "U+001F INFORMATION SEPARATOR ONE"},
	} {
		in := "ab\r\né" + string(tc.r) + "z\n"
		first, total := HiddenChars([]byte(in), 0)
		want := []Hidden{{Pos: Pos{2, 3, 6, 2}, Rune: tc.r, Name: tc.name}}
		if total != 1 || !reflect.DeepEqual(first, want) {
			t.Errorf("HiddenChars(%q) = %+v, %d; want %+v, 1", in, first, total, want)
		}
	}
}

// RL010: exactly the spec's set, over every code point; DEL, C1 controls,
// tab, LF, CR, other format characters (U+200E LRM, U+00AD) are not in it.
func TestHiddenCharsExactSet(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		b := []byte("x" + string(r))
		first, total := HiddenChars(b, 0)
		want := 0
		if inSpecSet(r, 1) {
			want = 1
		}
		if total != want || len(first) != want {
			t.Fatalf("HiddenChars(%q): total %d, %d reported; want %d", b, total, len(first), want)
		}
		if want == 1 {
			if first[0].Rune != r || first[0].Offset != 1 || !strings.HasPrefix(first[0].Name, hexName(r)+" ") {
				t.Fatalf("HiddenChars(%q) = %+v", b, first[0])
			}
		}
	}
	for _, s := range []string{"\x7f", "\u0080", "\u0085", "\u009f", "\t", "\n", "\r", "\u200e", "\u200f", "\u00ad", "\u061c", "\U000E0080", "\U000E0100"} {
		if _, n := HiddenChars([]byte("a"+s), 0); n != 0 {
			t.Errorf("HiddenChars(%q) reported %d, want 0", "a"+s, n)
		}
	}
}

// RL010: U+FEFF is the BOM only as the very first character.
func TestHiddenCharsFEFF(t *testing.T) {
	if first, total := HiddenChars([]byte("\ufeff# Rules\n"), 0); total != 0 || first != nil {
		t.Errorf("BOM at offset 0 reported: %+v", first)
	}
	first, total := HiddenChars([]byte("\ufeff\ufeffx"), 0)
	if total != 1 || first[0].Pos != (Pos{1, 4, 3, 2}) {
		t.Errorf("second BOM: %+v, %d; want one at 1:4 offset 3", first, total)
	}
	first, total = HiddenChars([]byte("a\nb\ufeffc"), 0)
	if total != 1 || first[0].Pos != (Pos{2, 2, 3, 2}) || first[0].Name != "U+FEFF ZERO WIDTH NO-BREAK SPACE" {
		t.Errorf("FEFF in the middle: %+v, %d", first, total)
	}
}

// RL010: a Trojan Source line (CVE-2021-42574) reports every control at its
// byte column, and max caps the list but not the total.
func TestHiddenCharsTrojanSourceAndCap(t *testing.T) {
	in := "x\nif access_level != \"user\u202e \u2066// Check if admin\u2069 \u2066\" {\n"
	first, total := HiddenChars([]byte(in), 0)
	type hit struct {
		line, col, off int
		r              rune
	}
	var got []hit
	for _, h := range first {
		got = append(got, hit{h.Line, h.Column, h.Offset, h.Rune})
	}
	// Line 2 starts at offset 2. `if access_level != "user` is 24 bytes, so
	// U+202E (3 bytes) is at column 25; a space; U+2066 at column 29; the
	// 17 bytes "// Check if admin" fill columns 32–48; U+2069 at 49; a
	// space; U+2066 at 53.
	want := []hit{
		{2, 25, 26, 0x202E},
		{2, 29, 30, 0x2066},
		{2, 49, 50, 0x2069},
		{2, 53, 54, 0x2066},
	}
	if total != 4 || !reflect.DeepEqual(got, want) {
		t.Fatalf("Trojan Source: %+v, total %d; want %+v", got, total, want)
	}
	capped, total := HiddenChars([]byte(in), 2)
	if total != 4 || !reflect.DeepEqual(capped, first[:2]) {
		t.Errorf("max 2: %+v, total %d", capped, total)
	}
	if _, total := HiddenChars([]byte(in), -1); total != 4 {
		t.Errorf("max -1: total %d", total)
	}
}

// RL010: NUL bytes and other C0 controls, several on several lines.
func TestHiddenCharsControls(t *testing.T) {
	in := "a\x00b\r\n\tc\x1b[31m\n\x7f\x08"
	first, total := HiddenChars([]byte(in), 0)
	want := []Hidden{
		{Pos{1, 2, 1, 2}, 0x00, "U+0000 NULL"},
		{Pos{2, 3, 7, 3}, 0x1B, "U+001B ESCAPE"},
		{Pos{3, 2, 14, 2}, 0x08, "U+0008 BACKSPACE"},
	}
	if total != 3 || !reflect.DeepEqual(first, want) {
		t.Errorf("HiddenChars(%q) = %+v, %d; want %+v", in, first, total, want)
	}
}

// RL010 on bytes that are not UTF-8 (RL004 reports those): invalid bytes are
// skipped one at a time and never reported.
func TestHiddenCharsInvalidInput(t *testing.T) {
	in := "\xff\xe2\x80\u200b\xe2\x80"
	first, total := HiddenChars([]byte(in), 0)
	if total != 1 || first[0].Offset != 3 || first[0].Rune != 0x200B {
		t.Errorf("HiddenChars(%q) = %+v, %d", in, first, total)
	}
}

// referenceHidden is an obviously-correct (slower) HiddenChars.
func referenceHidden(b []byte) []Hidden {
	var out []Hidden
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if !(r == utf8.RuneError && size == 1) && inSpecSet(r, i) {
			out = append(out, Hidden{Pos: PosAt(b, i), Rune: r, Name: runeName(r)})
		}
		i += size
	}
	return out
}

// RL010 fuzz target: every reported offset decodes to a rune of the set, the
// list is what a naive scan finds, and the cap keeps a prefix.
func FuzzHiddenChars(f *testing.F) {
	for _, s := range []string{
		"", "plain", "\ufeffa\ufeff", "a\u202eb", "\x00\x01\t\n\r", "x\U000E0041\U000E007F",
		"é\u200b\r\n\u2066", "\xff\u200d", "\xe2\x80", "\xf3\xa0\x80",
	} {
		f.Add([]byte(s), 0)
		f.Add([]byte(s), 1)
	}
	f.Fuzz(func(t *testing.T, b []byte, max int) {
		first, total := HiddenChars(b, max)
		if total < len(first) || (max > 0 && len(first) > max) {
			t.Fatalf("HiddenChars(%q, %d): %d reported, total %d", b, max, len(first), total)
		}
		if max <= 0 && len(first) != total {
			t.Fatalf("HiddenChars(%q, %d): %d reported, total %d, no cap", b, max, len(first), total)
		}
		for _, h := range first {
			r, _ := utf8.DecodeRune(b[h.Offset:])
			if r != h.Rune || !inSpecSet(r, h.Offset) {
				t.Fatalf("HiddenChars(%q): %+v decodes to %U", b, h, r)
			}
			if h.Pos != PosAt(b, h.Offset) {
				t.Fatalf("HiddenChars(%q): %+v, PosAt %+v", b, h, PosAt(b, h.Offset))
			}
		}
		ref := referenceHidden(b)
		if total != len(ref) {
			t.Fatalf("HiddenChars(%q): total %d, reference %d", b, total, len(ref))
		}
		if len(first) > 0 && !reflect.DeepEqual(first, ref[:len(first)]) {
			t.Fatalf("HiddenChars(%q) = %+v, reference %+v", b, first, ref)
		}
	})
}
