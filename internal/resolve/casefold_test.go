package resolve

import (
	"fmt"
	"testing"
)

// listing is a fake directory listing: names of regular files.
func listing(names ...string) []Entry {
	ents := make([]Entry, len(names))
	for i, n := range names {
		ents[i] = Entry{Name: n, Kind: Regular, Size: -1}
	}
	return ents
}

// TestCaseFoldLayer checks D1 against fake directory listings: on a
// case-insensitive disk (macOS, Windows) the runtime opening a candidate
// gets the entry equal to it in any case, in R2's priority order; where
// that is the case-sensitive answer there is nothing to say; names that
// differ only in case collide (a checkout there holds one of them).
func TestCaseFoldLayer(t *testing.T) {
	cands := append(append([]string{}, defaultOpts.Overrides...), defaultOpts.Normals...)
	for _, tc := range []struct {
		names []string
		want  string // "As: names" or "nil"
	}{
		{[]string{"AGENTS.md", "README.md"}, "nil"},
		{[]string{"README.md"}, "nil"},
		{[]string{"agents.md"}, "AGENTS.md: [agents.md]"},
		{[]string{"Agents.MD", "main.go"}, "AGENTS.md: [Agents.MD]"},
		// A lower-case override wins over the exact AGENTS.md there.
		{[]string{"AGENTS.md", "agents.override.md"}, "AGENTS.override.md: [agents.override.md]"},
		// A higher candidate in its exact case wins everywhere.
		{[]string{"RIVUMI.md", "agents.md"}, "nil"},
		{[]string{"rivumi.md", "AGENTS.md"}, "RIVUMI.md: [rivumi.md]"},
		// Two names, one file on a case-insensitive disk.
		{[]string{"AGENTS.md", "agents.md"}, "AGENTS.md: [AGENTS.md agents.md]"},
		{[]string{"agents.md", "Agents.md"}, "AGENTS.md: [Agents.md agents.md]"},
		// Unicode simple folding: the long s folds to s on APFS and NTFS.
		{[]string{"AGENTſ.md"}, "AGENTS.md: [AGENTſ.md]"},
		// Not a candidate in any case.
		{[]string{"AGENT.md", "agents.markdown"}, "nil"},
	} {
		got := "nil"
		if cf := caseFoldLayer(listing(tc.names...), cands); cf != nil {
			got = fmt.Sprintf("%s: %v", cf.As, cf.Names)
		}
		if got != tc.want {
			t.Errorf("%q: caseFoldLayer = %s, want %s", tc.names, got, tc.want)
		}
	}
}

// TestCaseFoldInResolution checks D1 through the engine over a fake
// source: the resolution stays case-sensitive (R2: agents.md is no layer,
// the fingerprint is that of no layer) and records what a
// case-insensitive checkout loads; a directory without a case variant
// records nothing.
func TestCaseFoldInResolution(t *testing.T) {
	src := newMem(map[string]string{"agents.md": "lower\n", "a/AGENTS.md": "ok\n", "b/AGENTS.md": "x\n", "b/agents.md": "y\n",
		"c/AGENTſ.md": "long s\n", "d/Agents.md/x.go": ""})
	e := New(src, defaultOpts)
	root, err := e.Dir("")
	if err != nil {
		t.Fatal(err)
	}
	if len(root.Files) != 0 {
		t.Errorf("root layer %v: names are matched case-sensitively (R2)", root.Files)
	}
	if got := root.CaseFold.Loads(); got != "agents.md" || root.CaseFold.As != "AGENTS.md" {
		t.Errorf("root CaseFold = %+v, want agents.md opened as AGENTS.md", root.CaseFold)
	}
	a, err := e.Dir("a")
	if err != nil {
		t.Fatal(err)
	}
	if a.CaseFold != nil {
		t.Errorf("a: CaseFold = %+v, want nil (the exact name, alone)", a.CaseFold)
	}
	b, err := e.Dir("b")
	if err != nil {
		t.Fatal(err)
	}
	if b.CaseFold == nil || b.CaseFold.Loads() != "" || len(b.CaseFold.Names) != 2 {
		t.Errorf("b: CaseFold = %+v, want AGENTS.md and agents.md colliding", b.CaseFold)
	}
	// Not near misses, still what such a disk opens: a folded long s, and a
	// directory (a rejected layer there, RL002).
	for dir, want := range map[string]string{"c": "AGENTſ.md", "d": "Agents.md"} {
		info, err := e.Dir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.CaseFold.Loads(); got != want {
			t.Errorf("%s: CaseFold = %+v, want %s", dir, info.CaseFold, want)
		}
	}
	if got, want := chain(t, src, defaultOpts, "").Fingerprint, chain(t, newMem(map[string]string{"x.go": ""}), defaultOpts, "").Fingerprint; got != want {
		t.Errorf("a case variant changed the fingerprint (R8): %s != %s", got, want)
	}
}
