package resolve

import (
	"strings"
	"testing"
)

// RL011, R2: a near miss is (a) a candidate in another case, or (b) one
// edit (insert, delete, replace, adjacent swap) from a candidate compared
// case-sensitively. Nothing looser: a lowercase agent.md is neither.
func TestNearMissOfRL011Precise(t *testing.T) {
	cands := []string{"RIVUMI.override.md", "AGENTS.override.md", "RIVUMI.md", "AGENTS.md"}
	for _, tc := range []struct{ name, like string }{
		// (a) another case
		{"agents.md", "AGENTS.md"},
		{"AGENTS.MD", "AGENTS.md"},
		{"Agents.override.md", "AGENTS.override.md"},
		{"rivumi.md", "RIVUMI.md"},
		// (b) one edit, case-sensitive
		{"AGENT.md", "AGENTS.md"},   // delete
		{"AGENTS.mdd", "AGENTS.md"}, // insert
		{"AGENTS.mx", "AGENTS.md"},  // replace
		{"AGNETS.md", "AGENTS.md"},  // adjacent swap
		{"RIVUMI.overide.md", "RIVUMI.override.md"},
		{"AGENTS_override.md", "AGENTS.override.md"},
		// neither
		{"agent.md", ""},
		{"docs.md", ""},
		{"README.md", ""},
		{"AGENTS.md", ""}, // exact: a candidate, never a near miss
		{"AGENTS.markdown", ""},
		{"AGENTS.md.bak", ""},
		{"agents", ""},
		{"AGENTS.overrides.md.txt", ""},
		{"GANETS.md", ""}, // two swaps
		{"AGNEST.md", ""},
	} {
		like, ok := NearMissOf(tc.name, cands)
		if like != tc.like || ok != (tc.like != "") {
			t.Errorf("NearMissOf(%q) = %q, %v; want %q", tc.name, like, ok, tc.like)
		}
	}
	// Non-ASCII: one rune is one edit, whatever its byte length.
	if like, ok := NearMissOf("AGENTS.mé", cands); !ok || like != "AGENTS.md" {
		t.Errorf("NearMissOf(AGENTS.mé) = %q, %v; want AGENTS.md", like, ok)
	}
	if _, ok := NearMissOf("AGENTS.mdéé", cands); ok {
		t.Error("NearMissOf(AGENTS.mdéé): two inserted runes are two edits")
	}
}

// TestRelevantIsItsDefinition (RL011, R2): the listing keeps a regular
// file exactly when it is a candidate, has a note extension (any case; any
// non-ASCII name) or is a near miss of a candidate; the length shortcut
// changes no answer, for ASCII candidates and for one that folds across
// lengths (the Kelvin sign).
func TestRelevantIsItsDefinition(t *testing.T) {
	noteRef := func(name string) bool {
		for i := 0; i < len(name); i++ {
			if name[i] >= 0x80 {
				return true
			}
		}
		for _, e := range noteExts {
			if len(name) > len(e) && strings.EqualFold(name[len(name)-len(e):], e) {
				return true
			}
		}
		return false
	}
	for _, cands := range [][]string{
		{"RIVUMI.override.md", "AGENTS.override.md", "RIVUMI.md", "AGENTS.md"},
		{"AGENTS.md", "\u212aEEP", "x"},
	} {
		w := &Worktree{}
		w.useCandidates(cands, 0)
		names := []string{"", "a", "ab", "kEEP", "KEEP", "keep", "kEP", "y", "xy", "main.go", "core_75661.ts", "README", "notes.TXT", "a.Markdown", "a.mdX", ".md", "md", "x.d", "x.n"}
		for _, c := range cands {
			for i := 0; i <= len(c); i++ {
				names = append(names, c[:i]+"Z"+c[i:], c[:i]+c[min(i+1, len(c)):], strings.ToLower(c[:i])+c[i:])
				if i+1 < len(c) {
					names = append(names, c[:i]+c[i+1:i+2]+c[i:i+1]+c[i+2:], c[:i]+"q"+c[i+1:])
				}
			}
			names = append(names, c+"x", c+"xx", "x"+c, strings.ToUpper(c))
		}
		for _, n := range names {
			_, near := NearMissOf(n, cands)
			want := noteRef(n) || near
			for _, c := range cands {
				want = want || n == c
			}
			if len(n) > 0 && n[0] == '.' {
				want = true
			}
			if got := w.relevant([]byte(n)); got != want {
				t.Errorf("candidates %q: relevant(%q) = %v, want %v", cands, n, got, want)
			}
		}
	}
}

// TestRelevantShortNamesExhaustive (RL011, R2): every name of up to five
// bytes over a small alphabet, against candidates of two to five bytes,
// is kept exactly when the definition keeps it. Short names are where
// the first-and-last-byte shortcut of relevant has its edge cases: an
// adjacent swap of a two-byte name changes both of its ends.
func TestRelevantShortNamesExhaustive(t *testing.T) {
	cands := []string{"ab", "aBc", "xy.z", "K.mdq", "q", "KbK"}
	w := &Worktree{}
	w.useCandidates(cands, 0)
	alphabet := "abBcKkxyz.q"
	var names []string
	var grow func(prefix string)
	grow = func(prefix string) {
		names = append(names, prefix)
		if len(prefix) == 5 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			grow(prefix + alphabet[i:i+1])
		}
	}
	grow("")
	wrong := 0
	for _, n := range names {
		_, near := NearMissOf(n, cands)
		want := near || len(n) > 0 && n[0] == '.'
		for _, e := range noteExts {
			want = want || len(n) > len(e) && strings.EqualFold(n[len(n)-len(e):], e)
		}
		for _, c := range cands {
			want = want || n == c
		}
		if got := w.relevant([]byte(n)); got != want {
			if wrong++; wrong <= 10 {
				t.Errorf("relevant(%q) = %v, want %v", n, got, want)
			}
		}
	}
	if wrong > 10 {
		t.Errorf("%d names in all", wrong)
	}
}
