package content

import (
	"strings"
	"testing"
)

// X1, C4: the decoders refuse what is not safely their encoding and keep
// line ends.
func TestToUTF8(t *testing.T) {
	for _, tc := range []struct {
		in, want, from, err string
	}{
		{"\xff\xfea\x00\r\x00\n\x00", "a\r\n", "UTF-16LE", ""},
		{"\xfe\xff\x00a\xd8\x3d\xde\x00", "a\U0001F600", "UTF-16BE", ""},
		{"\xff\xfe\x00\xd8a\x00", "", "UTF-16LE", "unpaired surrogate"},
		{"\xff\xfe\x00\xdc", "", "UTF-16LE", "unpaired surrogate"},
		{"\x00\x00\xfe\xff\x00\x00\x00a", "a", "UTF-32BE", ""},
		{"\xff\xfe\x00\x00\x00\x00\x11\x00", "", "UTF-32LE", "not a character"},
		{"\xff\xfe\x00\x00a\x00\x00", "", "UTF-32LE", "not a multiple of 4"},
		{"\x80\x9f\xa0\xff", "\u20ac\u0178\u00a0\u00ff", "Windows-1252", ""},
		{"x\x8d", "", "Windows-1252", "0x8d, which Windows-1252 leaves undefined"},
		{"x\x8f", "", "Windows-1252", "undefined"},
		{"x\x90", "", "Windows-1252", "undefined"},
		{"x\x9d", "", "Windows-1252", "undefined"},
		{"\u00e9\xe9", "", "Windows-1252", "not Windows-1252 alone"},
	} {
		got, from, err := ToUTF8([]byte(tc.in))
		if from != tc.from {
			t.Errorf("%q: from %s, want %s", tc.in, from, tc.from)
		}
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.err == "" && string(got) != tc.want:
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// X1, C4: a BOM-only file decodes to nothing; a UTF-8 mark does not make
// a file UTF-16 or UTF-32.
func TestToUTF8MarkOnly(t *testing.T) {
	for _, tc := range []struct{ in, from string }{
		{"\xff\xfe", "UTF-16LE"}, {"\xfe\xff", "UTF-16BE"}, {"\x00\x00\xfe\xff", "UTF-32BE"},
	} {
		got, from, err := ToUTF8([]byte(tc.in))
		if err != nil || len(got) != 0 || from != tc.from {
			t.Errorf("%q: %q from %s, %v; want empty text from %s", tc.in, got, from, err, tc.from)
		}
	}
	_, from, err := ToUTF8([]byte("\xef\xbb\xbfa\xe9"))
	if from == "UTF-32LE" || from == "UTF-32BE" || from == "UTF-16LE" || from == "UTF-16BE" {
		t.Errorf("UTF-8 mark: decoded as %s (%v)", from, err)
	}
}
