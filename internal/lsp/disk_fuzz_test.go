package lsp

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/content"
)

// FuzzPerByte: perByte is what encoding/json makes of raw bytes in a
// string (the text a client that sends a buffer's bytes as they are
// reaches the server as), and either replacement decoding of an unchanged
// file's bytes makes the server judge the disk (#33.1).
func FuzzPerByte(f *testing.F) {
	for _, s := range []string{"", "caf\xe9", "a\xe2\x82b", "\xed\xa0\x80", "\xc0\x80", "\xf0\x9f\x98", "\xef\xbf\xbd", "\xff\xfe", "\xef\xbb\xbf\xff", "\xef\xbb\xbfa\xe2\x82"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := perByte(b)
		if !utf8.Valid(got) {
			t.Fatalf("perByte(%q) = %q, not UTF-8", b, got)
		}
		// JSON needs quotes, backslashes and controls escaped; the rest
		// of the bytes go in as they are.
		msg := []byte{'"'}
		for _, c := range b {
			if c == '"' || c == '\\' || c < 0x20 {
				msg = append(msg, []byte(`\u00`)...)
				msg = append(msg, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
				continue
			}
			msg = append(msg, c)
		}
		msg = append(msg, '"')
		var s string
		if err := json.Unmarshal(msg, &s); err != nil {
			t.Fatalf("json.Unmarshal(%q): %v", msg, err)
		}
		if !bytes.Equal(got, []byte(s)) {
			t.Fatalf("perByte(%q) = %q, encoding/json gives %q", b, got, s)
		}
		if utf8.Valid(b) {
			return // judgeDisk reads valid bytes as UTF-8 (with a mark or not)
		}
		texts := [][]byte{got, content.Lossy(b)}
		if bytes.HasPrefix(b, utf8BOM) {
			texts = append(texts, perByte(b[3:]), content.Lossy(b[3:]))
		}
		for _, text := range texts {
			v := replacedView(b, text)
			if v == nil {
				t.Fatalf("%q decoded as %q: no disk view", b, text)
			}
			if n, ok := v.decoded(len(b)); !ok || n != len(text) {
				t.Fatalf("%q decoded as %q: the end maps to %d, %v", b, text, n, ok)
			}
		}
	})
}
