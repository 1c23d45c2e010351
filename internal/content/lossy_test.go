package content

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// The cases are the ones Rust's documentation and the Unicode standard's
// "U+FFFD substitution of maximal subparts" table (Table 3-8) give.
func TestLossy(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain €", "plain €"},
		{"Hello \xF0\x90\x80World", "Hello \uFFFDWorld"},
		{"\xE2\x82A", "\uFFFDA"},
		{"\xE2\x82", "\uFFFD"},                           // a file cut inside a character
		{"abc\xe2\x82", "abc\uFFFD"},                     // the same at a budget's end
		{"\xF0\x9F\x98", "\uFFFD"},                       // three of four bytes
		{"\xF0\x9F", "\uFFFD"},                           // two of four
		{"\x80\x80", "\uFFFD\uFFFD"},                     // stray continuations: one each
		{"\xC0\xAF", "\uFFFD\uFFFD"},                     // overlong: C0 starts nothing
		{"\xE0\x80\xAF", "\uFFFD\uFFFD\uFFFD"},           // overlong three-byte form
		{"\xED\xA0\x80", "\uFFFD\uFFFD\uFFFD"},           // a surrogate
		{"\xF4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"}, // above U+10FFFF
		{"\xF5\xFF", "\uFFFD\uFFFD"},
		{"\xC0\x80", "\uFFFD\uFFFD"},           // overlong NUL (Java's "modified UTF-8")
		{"\xC1\xBF", "\uFFFD\uFFFD"},           // C1 starts nothing either
		{"\xF0\x80\x80", "\uFFFD\uFFFD\uFFFD"}, // 0xF0 0x80: an overlong four-byte form
		{"\xE0\xA0", "\uFFFD"},                 // a valid start cut short
		{"\xF4\x8F\xBF", "\uFFFD"},             // U+10FFFF cut short
		{"\xF4\x8F\xBFx", "\uFFFDx"},
		{"\xEF\xBF\xBD", "\uFFFD"}, // U+FFFD itself is valid
		// Table 3-8 of the Unicode standard.
		{"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64", "a\uFFFD\uFFFD\uFFFDb\uFFFDc\uFFFD\uFFFDd"},
		{"\xEF\xBB\xBFbom", "\uFEFFbom"}, // a BOM is a character like any other
		{"\xFF\xFEa\x00", "\uFFFD\uFFFDa\x00"},
	} {
		if got := Lossy([]byte(tc.in)); string(got) != tc.want {
			t.Errorf("Lossy(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := lossyOracle([]byte(tc.in)); string(got) != tc.want {
			t.Errorf("the fuzz oracle gives %q for %q, want %q", got, tc.in, tc.want)
		}
	}
}

func FuzzLossy(f *testing.F) {
	for _, s := range []string{"", "a", "\xE2\x82A", "\xF0\x9F\x98\x80", "\xED\xA0\x80", "\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := Lossy(b)
		if !utf8.Valid(got) {
			t.Fatalf("Lossy(%q) = %q, not UTF-8", b, got)
		}
		if utf8.Valid(b) && !bytes.Equal(got, b) {
			t.Fatalf("Lossy changed valid input %q to %q", b, got)
		}
		// Every well-formed character of the input survives in order,
		// and each replacement stands for 1–3 input bytes: the output
		// with the replacements taken out is the input's valid part.
		var valid []byte
		for i := 0; i < len(b); {
			if n := validPrefixAny(b[i:]); n > 0 {
				valid = append(valid, b[i:i+n]...)
				i += n
			} else {
				i += -n
			}
		}
		if want := lossyOracle(b); !bytes.Equal(got, want) {
			t.Fatalf("Lossy(%q) = %q, want %q (maximal subparts)", b, got, want)
		}
		if stripped := bytes.ReplaceAll(got, []byte("\uFFFD"), nil); !bytes.Equal(stripped, bytes.ReplaceAll(valid, []byte("\uFFFD"), nil)) {
			t.Fatalf("Lossy(%q) = %q lost or invented characters", b, got)
		}
	})
}

func validPrefixAny(b []byte) int {
	if b[0] < utf8.RuneSelf {
		return 1
	}
	return validPrefix(b)
}

// lossyOracle is the standard's definition of the substitution, written
// from utf8.Valid instead of the byte ranges validPrefix spells out: at
// each position take the longest valid sequence, else the longest prefix
// of some valid sequence (one U+FFFD), else one byte (one U+FFFD).
func lossyOracle(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		n := 0
		for k := min(4, len(b)-i); k >= 1; k-- {
			if utf8.Valid(b[i:i+k]) && utf8.RuneCount(b[i:i+k]) == 1 {
				n = k
				break
			}
		}
		if n > 0 {
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		sub := 1
		for k := min(3, len(b)-i); k >= 2; k-- {
			if completes(b[i : i+k]) {
				sub = k
				break
			}
		}
		out = append(out, "\uFFFD"...)
		i += sub
	}
	return out
}

// completes reports whether p (two or three bytes) begins some valid
// sequence of up to four bytes: only the second byte is constrained
// beyond being a continuation, and p holds it.
func completes(p []byte) bool {
	for total := len(p) + 1; total <= 4; total++ {
		for _, c := range []byte{0x80, 0xBF} {
			q := append([]byte(nil), p...)
			for len(q) < total {
				q = append(q, c)
			}
			if utf8.Valid(q) && utf8.RuneCount(q) == 1 {
				return true
			}
		}
	}
	return false
}
