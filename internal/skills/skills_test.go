package skills

import (
	"strings"
	"testing"
)

// P4b, §10: the front matter parser never panics, returns one line, and
// returns no text when it finds no description key.
func FuzzDescription(f *testing.F) {
	for _, s := range []string{
		"---\ndescription: plain\n---\n",
		"\xef\xbb\xbf---\r\ndescription: \"q\\u00e9\"\r\n---\r\n",
		"---\ndescription: >-\n  a\n\n  b\nx: y\n...\n",
		"---\ndescription: '\n---\n",
		"---\ndescription: \"unterminated\n---\n",
		"---\n---\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, ok := Description(b)
		if !ok && d != "" {
			t.Fatalf("Description(%q) = %q without a key", b, d)
		}
		if strings.ContainsAny(d, "\n\r") || d != strings.TrimSpace(d) {
			t.Fatalf("Description(%q) = %q is not one trimmed line", b, d)
		}
	})
}
