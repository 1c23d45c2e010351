package wildmatch

import "testing"

// FuzzMatch: any pattern and text, never a panic or a hang (§10), and a
// literal pattern (no special bytes) matches exactly itself.
func FuzzMatch(f *testing.F) {
	for _, c := range cases {
		f.Add(c.pat, c.text, uint8(Pathname))
	}
	f.Fuzz(func(t *testing.T, pat, text string, flags uint8) {
		fl := Flags(flags) & (Pathname | CaseFold)
		if Match(pat, text, fl) && pat == "" && text != "" {
			t.Fatalf("the empty pattern matches %q", text)
		}
		literal := true
		for i := 0; i < len(pat); i++ {
			if isGlobSpecial(pat[i]) || pat[i] == 0 {
				literal = false
			}
		}
		if literal && fl&CaseFold == 0 && len(text) > 0 && indexNUL(text) < 0 {
			if got := Match(pat, text, fl); got != (pat == text) {
				t.Fatalf("literal %q vs %q: %v", pat, text, got)
			}
		}
	})
}

func indexNUL(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return i
		}
	}
	return -1
}
