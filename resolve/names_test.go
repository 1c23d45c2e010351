package resolve

import "testing"

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
