package lint

import (
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// §5, C1–C5, F5: every cause the engine or a source can reject a file for
// is reported by exactly one rule of the table, the one mapping of causes
// to rule ids; a cause added to resolve without a rule here fails. R8: the
// fingerprint's reason code of each cause is that rule's id, so the
// fingerprint bytes stay those of rivumi-fp-v1.
func TestRejectionRules(t *testing.T) {
	names := map[string]bool{}
	for _, c := range resolve.Causes() {
		id := RejectionRule(c)
		if id == "" {
			t.Errorf("cause %v: no rule reports it (add it to a rule's rejects)", c)
			continue
		}
		r, ok := Lookup(id)
		if !ok {
			t.Errorf("cause %v: rule %s is not in the table", c, id)
		}
		if r.Category != "loading" {
			t.Errorf("cause %v: rule %s is of category %q, want loading", c, id, r.Category)
		}
		if fp := resolve.FingerprintCode(c); fp != id {
			t.Errorf("cause %v: fingerprint code %q, rule %s (R8: the reason code is the rule id)", c, fp, id)
		}
		// The finding's advice is the cause's own, not the fall-back.
		l := resolve.Layer{File: &resolve.File{Path: "AGENTS.md", Rej: &resolve.Rejection{Cause: c}}, State: resolve.Rejected}
		if fix := rejectedFix(l); strings.HasPrefix(fix, "make it a regular, readable UTF-8 file") {
			t.Errorf("cause %v: rejectedFix has no advice of its own: %q", c, fix)
		}
		if n := c.String(); n == "" || strings.HasPrefix(n, "cause(") || names[n] {
			t.Errorf("cause %d: name %q missing or not unique", c, n)
		} else {
			names[n] = true
		}
	}
	if RejectionRule(0) != "" || resolve.FingerprintCode(0) != "" {
		t.Error("the zero Cause maps to a rule")
	}
	// Every cause a rule lists is one of resolve's.
	for _, r := range Rules() {
		for _, c := range r.rejects {
			if resolve.FingerprintCode(c) == "" {
				t.Errorf("rule %s rejects %v, which is not a cause of resolve.Causes", r.ID, c)
			}
		}
	}
}

// X1: a rejection's finding says which repair fix makes, by cause.
func TestRejectedRepair(t *testing.T) {
	want := map[resolve.Cause]RepairKind{
		resolve.CauseSymlink:          RepairSwap,
		resolve.CauseBehindLink:       RepairSwap, // fix refuses to write through the linked directory, and says so
		resolve.CauseNotUTF8:          RepairTranscode,
		resolve.CauseCheckoutEncoding: RepairTranscode, // fix refuses while the attribute is set, and says so
	}
	for _, c := range resolve.Causes() {
		if got := rejectedRepair(c); got != want[c] {
			t.Errorf("cause %v: repair %v, want %v", c, got, want[c])
		}
	}
}
