package content

import (
	"bytes"
	"testing"
	"unicode"
	"unicode/utf8"
)

// P2: BOM dropped, CRLF → LF, trailing white space trimmed at the end of the
// whole text (not per line), exactly one final newline; empty stays empty.
func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"BOM, CRLF, trailing spaces", "\xef\xbb\xbf# Rules\r\n\r\nBe nice.  \r\n  \t\r\n", "# Rules\n\nBe nice.\n"},
		{"inner trailing spaces are kept", "a  \r\nb\t\n", "a  \nb\n"},
		{"no trailing newline: one added", "no newline", "no newline\n"},
		{"many trailing newlines: one kept", "x\n\n\n\n", "x\n"},
		{`"\r\n\r\n" ending`, "x\r\n\r\n", "x\n"},
		{"blank lines inside are kept", "a\r\n\r\n\r\nb\r\n\r\n", "a\n\n\nb\n"},
		{"leading white space is kept", "\n\n  indented\n", "\n\n  indented\n"},
		{"lone CR is content", "a\rb\r", "a\rb\n"},
		{"CR run before LF is one line ending", "a\r\r\nb", "a\nb\n"},
		{"CR run not before LF is kept", "a\r\rb", "a\r\rb\n"},
		{"LF CR is not CRLF", "a\n\rb", "a\n\rb\n"},
		{"BOM in the middle is kept", "a\ufeffb", "a\ufeffb\n"},
		{"every leading BOM dropped", "\ufeff\ufeffa", "a\n"},
		{"Unicode white space trimmed at end", "a\u00a0\u2003\u3000\u2028\u0085\v\f", "a\n"},
		{"zero-width space is not white space", "a\u200b", "a\u200b\n"},
		{"FEFF at end is not white space", "a\ufeff ", "a\ufeff\n"},
		{"invalid UTF-8 is kept", "caf\xe9 \r\n", "caf\xe9\n"},
		{"invalid byte stops trimming", "a\xc2 ", "a\xc2\n"},
		{"multi-byte text", "日本語\r\n", "日本語\n"},
	} {
		if got := Normalize([]byte(tc.in)); string(got) != tc.want {
			t.Errorf("%s: Normalize(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// P2 / RL009: text that is empty after normalisation is an empty, non-nil
// slice without a newline.
func TestNormalizeEmpty(t *testing.T) {
	for _, in := range []string{"", "\n", "\r\n\r\n", " \t\r\n\v\f", "\ufeff", "\ufeff\ufeff", "\ufeff \r\n", "\u00a0\u3000\u2029"} {
		got := Normalize([]byte(in))
		if got == nil || len(got) != 0 {
			t.Errorf("Normalize(%q) = %q (nil %v), want empty non-nil", in, got, got == nil)
		}
	}
}

// P2: Normalize neither modifies nor aliases its input.
func TestNormalizeDoesNotAlias(t *testing.T) {
	in := []byte("abc")
	out := Normalize(in)
	out[0] = 'X'
	if string(in) != "abc" {
		t.Errorf("input changed to %q", in)
	}
}

// referenceNormalize is an obviously-correct (multi-pass) Normalize.
func referenceNormalize(b []byte) []byte {
	for bytes.HasPrefix(b, []byte("\ufeff")) {
		b = b[3:]
	}
	s := b
	for bytes.Contains(s, []byte("\r\n")) {
		s = bytes.ReplaceAll(s, []byte("\r\n"), []byte("\n"))
	}
	s = bytes.TrimRightFunc(s, unicode.IsSpace)
	if len(s) == 0 {
		return []byte{}
	}
	return append(append([]byte{}, s...), '\n')
}

// P2 fuzz target: Normalize is idempotent, never leaves CRLF, ends in
// exactly one LF after a non-space rune or is empty, and agrees with a naive
// multi-pass implementation.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"", "a", "\ufeffa\r\n", "a\r\r\n", "\ufeff\ufeff", " \n", "a \r\n\r\n", "x\u00a0", "\r", "\xc2\x85", "caf\xe9\r\n",
		"a\r\nb\r\r\nc\rd\r", // inner CR runs: dropped before LF, kept before others
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in := bytes.Clone(b)
		n := Normalize(b)
		if l := NormalizedLen(b); l != len(n) {
			t.Fatalf("NormalizedLen(%q) = %d, len(Normalize) = %d", b, l, len(n))
		}
		if !bytes.Equal(b, in) {
			t.Fatalf("Normalize modified its input %q to %q", in, b)
		}
		if nn := Normalize(n); !bytes.Equal(nn, n) {
			t.Fatalf("not idempotent: Normalize(%q) = %q, Normalize of that = %q", b, n, nn)
		}
		if bytes.Contains(n, []byte("\r\n")) {
			t.Fatalf("Normalize(%q) = %q contains CRLF", b, n)
		}
		if bytes.HasPrefix(n, []byte("\ufeff")) {
			t.Fatalf("Normalize(%q) = %q starts with a BOM", b, n)
		}
		if len(n) > 0 {
			if n[len(n)-1] != '\n' {
				t.Fatalf("Normalize(%q) = %q does not end in LF", b, n)
			}
			if r, _ := utf8.DecodeLastRune(n[:len(n)-1]); len(n) == 1 || unicode.IsSpace(r) {
				t.Fatalf("Normalize(%q) = %q: the final LF follows white space", b, n)
			}
		}
		if ref := referenceNormalize(b); !bytes.Equal(n, ref) {
			t.Fatalf("Normalize(%q) = %q, reference %q", b, n, ref)
		}
	})
}
