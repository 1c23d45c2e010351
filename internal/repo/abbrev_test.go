package repo

import (
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// TestResolveAbbreviatedNatively is §10: an abbreviated object id is
// resolved by the native readers, in loose objects and in pack indexes, so
// the note "resolved the revision … with the git binary" appears only for
// a real fall-back (failed before: every short id went to the git binary
// and printed the note).
func TestResolveAbbreviatedNatively(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "one\n")
	packed := g.Commit("one")
	g.Git("tag", "-a", "-m", "v1", "v1")
	tag := g.Rev("refs/tags/v1")
	g.Git("gc", "-q") // the first commit and the tag into a pack
	g.Write("AGENTS.md", "two\n")
	loose := g.Commit("two")
	r := open(t, g.Dir)
	for _, tc := range []struct{ rev, want string }{
		{packed[:7], packed},
		{loose[:7], loose},
		{strings.ToLower(loose[:12]), loose},
		{tag[:10], packed},         // a tag's abbreviation peels to its commit
		{loose + "^", packed},      // a full id with a step: pre-commit's FROM_REF^
		{loose[:8] + "~1", packed}, // an abbreviated id with a step
	} {
		h, err := r.ResolveCommit(tc.rev, "--base")
		if err != nil || h.String() != tc.want {
			t.Errorf("ResolveCommit(%q) = %s, %v; want %s", tc.rev, h, err, tc.want)
		}
	}
	if n := r.Notes(); len(n) != 0 {
		t.Errorf("notes %q: no fall-back to the git binary was needed", n)
	}
	// Nothing matches: an error, never another commit.
	if _, err := r.ResolveCommit("0000000", "--base"); err == nil {
		t.Error("an abbreviation nothing matches resolved")
	}
}
