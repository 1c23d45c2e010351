package main

import (
	"strings"
	"testing"
	"unicode"
)

// FuzzSafeLine is §10 for messages on standard error (which the GitHub
// Actions runner reads for workflow commands too): whatever a file name in a
// message holds, "rivumi-lint: " + safeLine(msg) is one line with no
// control character and no "##[", and a message without either is left as
// it is.
func FuzzSafeLine(f *testing.F) {
	for _, s := range []string{"", "plain", "a\nb", "x\r\n::error::y", "##[add-mask]x", "###[", "#\x00#[",
		"\x1b[31m", "\u0085::x", "caf\xe9", "##", "[##[##[", "%0A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		out := safeLine(msg)
		line := "rivumi-lint: " + out
		if strings.ContainsFunc(line, isControlRune) {
			t.Fatalf("safeLine(%q) = %q holds a control character", msg, out)
		}
		if strings.Contains(line, "##[") {
			t.Fatalf("safeLine(%q) = %q holds ##[", msg, out)
		}
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
			t.Fatalf("%q starts a workflow command", line)
		}
		if !strings.ContainsFunc(msg, isControlRune) && !strings.Contains(msg, "##[") && out != msg {
			t.Fatalf("safeLine(%q) = %q changed a harmless message", msg, out)
		}
	})
}

// isControlRune is a C0 or C1 control character or DEL.
func isControlRune(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }
