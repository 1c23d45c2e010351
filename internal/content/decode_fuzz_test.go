package content

import (
	"testing"
	"unicode/utf8"
)

// X1, C4: ToUTF8 never panics; it returns valid UTF-8 or an error. A
// Windows-1252 input is one character per byte, and a BOM-marked input
// loses its mark.
func FuzzToUTF8(f *testing.F) {
	for _, s := range []string{"", "\xff\xfe", "\xfe\xff", "\xff\xfe\x00\x00", "\x00\x00\xfe\xff",
		"\xff\xfea", "\xff\xfe\x00\xd8", "\xfe\xff\xd8\x3d\xde\x00", "\xff\xfe\x00\x00\x00\xd8\x00\x00",
		"\x80\x9f\xa0\xff", "x\x81", "\u00e9\xe9", "a\r\nb\xe9", "\xef\xbb\xbf\xe9"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		text, from, err := ToUTF8(b)
		if err != nil {
			return
		}
		if !utf8.Valid(text) {
			t.Fatalf("%q decoded from %s to invalid UTF-8 %q", b, from, text)
		}
		if from == "Windows-1252" && utf8.RuneCount(text) != len(b) {
			t.Fatalf("%q: %d characters from %d Windows-1252 bytes", b, utf8.RuneCount(text), len(b))
		}
	})
}
