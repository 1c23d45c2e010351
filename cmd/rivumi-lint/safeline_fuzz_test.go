package main

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzSafeLine is §10 for messages on standard error (which the GitHub
// Actions runner reads for workflow commands too): whatever a file name in a
// message holds, "rivumi-lint: " + safeLine(msg) is one line with no
// control or format character (a bidi override would reorder the line), no
// invalid UTF-8 and no "##[", and a message without any of them is left as
// it is.
func FuzzSafeLine(f *testing.F) {
	for _, s := range []string{"", "plain", "a\nb", "x\r\n::error::y", "##[add-mask]x", "###[", "#\x00#[",
		"\x1b[31m", "\u0085::x", "\u202egnp.exe", "a\u200bb\ufeff", "\U000e0041", "\x9b31m", "caf\xe9", "##", "[##[##[", "%0A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		out := safeLine(msg)
		line := "rivumi-lint: " + out
		if strings.ContainsFunc(line, isControlRune) || !utf8.ValidString(line) {
			t.Fatalf("safeLine(%q) = %q holds a control character or invalid UTF-8", msg, out)
		}
		if strings.Contains(line, "##[") {
			t.Fatalf("safeLine(%q) = %q holds ##[", msg, out)
		}
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
			t.Fatalf("%q starts a workflow command", line)
		}
		if !strings.ContainsFunc(msg, isControlRune) && utf8.ValidString(msg) && !strings.Contains(msg, "##[") && out != msg {
			t.Fatalf("safeLine(%q) = %q changed a harmless message", msg, out)
		}
	})
}

// isControlRune is a C0 or C1 control character or DEL, a format character
// (Cf: bidi controls, zero-width characters) or a line or paragraph
// separator: what report.SafeLine shows escaped.
func isControlRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}
