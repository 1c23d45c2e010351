package jsstring

import "testing"

func TestJSTrim(t *testing.T) {
	// JavaScript's trim: ES white space and line terminators, U+FEFF
	// among them; not U+0085 nor U+200B.
	for in, want := range map[string]string{
		"\u00a0\u3000\u2028\ufeff\v\f x \t\n\r": "x",
		"\u0085x\u200b":                         "\u0085x\u200b",
		"":                                      "",
		" \u2029 ":                              "",
	} {
		if got := TrimString(in); got != want {
			t.Errorf("TrimString(%q) = %q, want %q", in, got, want)
		}
		if got := UTF8(Trim(Of(in))); got != want {
			t.Errorf("Trim(%q) = %q, want %q", in, got, want)
		}
	}
}
