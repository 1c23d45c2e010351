package baseline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// B2: the numbers a message holds as positions, sizes and counts go; the
// digits of words and code points stay.
func TestSubjectB2(t *testing.T) {
	for in, want := range map[string]string{
		"first invalid byte at line 12, column 4 (offset 3)": "first invalid byte at line #, column # (offset #)",
		"is 40000 bytes; the limit is 32768":                 "is # bytes; the limit is #",
		"pass 3 character(s); the first is U+200B":           "pass # character(s); the first is U+200B",
		"U+2060 WORD JOINER":                                 "U+2060 WORD JOINER",
		"not UTF-16, v2 or RL004":                            "not UTF-16, v2 or RL004",
		"90.6% of the budget, 1.5x":                          "#% of the budget, 1.5x",
		"2024/AGENTS.md and docs/2024":                       "#/AGENTS.md and docs/#",
		"ends with a dot 1.":                                 "ends with a dot #.",
		"":                                                   "",
	} {
		if got := subject(in); got != want {
			t.Errorf("subject(%q) = %q, want %q", in, got, want)
		}
	}
}

// B1: the hash is the first 8 bytes of SHA-256 over rule, NUL, agent,
// NUL, subject, in hex, as docs/baseline.md says; a baseline written
// today must match tomorrow.
func TestHashIsDocumentedB1(t *testing.T) {
	sum := sha256.Sum256([]byte("RL004\x00codex\x00at line #"))
	if got, want := hashOf("RL004", "codex", "at line #"), hex.EncodeToString(sum[:8]); got != want {
		t.Fatalf("hashOf = %s, want %s", got, want)
	}
	f := lint.Finding{Rule: "RL004", Agent: "codex", Path: "a/AGENTS.md", Message: "at line 7"}
	if k := keyOf(&f); k.hash != hex.EncodeToString(sum[:8]) || k.path != "a/AGENTS.md" {
		t.Fatalf("keyOf = %+v", k)
	}
}

func finding(rule, path, msg string, line int) lint.Finding {
	return lint.Finding{Rule: rule, Path: path, Message: msg, Line: line}
}

// B1: sorted by path, rule, agent and hash, equal findings counted, the
// same bytes for the same findings in any order; it reads back.
func TestWriteSortedStableB1(t *testing.T) {
	fs := []lint.Finding{
		finding("RL021", "b/AGENTS.md", "the link to `x` does not resolve", 3),
		finding("RL004", "a/AGENTS.md", "first invalid byte at line 1", 1),
		finding("RL021", "b/AGENTS.md", "the link to `x` does not resolve", 9),
		finding("RL010", "a/AGENTS.md", "pass 2 character(s)", 2),
	}
	var one, two bytes.Buffer
	if err := Write(&one, fs); err != nil {
		t.Fatal(err)
	}
	rev := []lint.Finding{fs[3], fs[2], fs[1], fs[0]}
	if err := Write(&two, rev); err != nil {
		t.Fatal(err)
	}
	if one.String() != two.String() {
		t.Fatalf("order changes the file:\n%s\n%s", one.String(), two.String())
	}
	out := one.String()
	ia, ib, ic := strings.Index(out, `"rule": "RL004"`), strings.Index(out, `"rule": "RL010"`), strings.Index(out, `"rule": "RL021"`)
	if ia < 0 || ib < ia || ic < ib || strings.Count(out, `"rule"`) != 3 || !strings.Contains(out, `"count": 2`) {
		t.Fatalf("not sorted by path then rule, or not counted:\n%s", out)
	}
	if !strings.HasPrefix(out, "{\n  \"version\": 1,\n  \"findings\": [\n") || strings.Contains(out, `"line"`) {
		t.Fatalf("shape:\n%s", out)
	}
	b, err := parse("b.json", one.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if n := b.counts[keyOf(&fs[0])]; n != 2 {
		t.Fatalf("count read back %d, want 2", n)
	}
}

// B3: a multiset: each entry accepts as many findings as its count; the
// rest are new, and what no finding matched is counted as fixed.
func TestApplyCountsB3(t *testing.T) {
	known := Accepting([]lint.Finding{
		finding("RL021", "AGENTS.md", "the link to `x` does not resolve", 1),
		finding("RL004", "gone/AGENTS.md", "bad", 1),
	})
	res := &lint.Result{Findings: []lint.Finding{
		finding("RL021", "AGENTS.md", "the link to `x` does not resolve", 4), // moved
		finding("RL021", "AGENTS.md", "the link to `x` does not resolve", 9), // a second one
		finding("RL021", "sub/AGENTS.md", "the link to `x` does not resolve", 4),
	}}
	known.Apply(res, "b.json")
	got := []string{res.Findings[0].Baseline, res.Findings[1].Baseline, res.Findings[2].Baseline}
	if got[0] != lint.BaselineUnchanged || got[1] != lint.BaselineNew || got[2] != lint.BaselineNew {
		t.Fatalf("states %q", got)
	}
	if st := *res.Baseline; st != (lint.BaselineStats{File: "b.json", Known: 1, New: 2, Fixed: 1}) {
		t.Fatalf("stats %+v", st)
	}
	if s := res.Summary(); s.Errors+s.Warnings+s.Notices != 0 {
		// Severity 0 findings count nowhere; the known one must not either.
		t.Fatalf("summary %+v", s)
	}
	if k := Known(res); len(k) != 1 || k[0].Line != 4 {
		t.Fatalf("Known = %+v", k)
	}
}

// B6: a change's base marks findings old by the same counted identity,
// in Finding.Base only: nothing a baseline file decides changes.
func TestMarkBaseB6(t *testing.T) {
	base := Accepting([]lint.Finding{
		finding("RL021", "AGENTS.md", "the link to `x` does not resolve", 2),
	})
	res := &lint.Result{Findings: []lint.Finding{
		finding("RL021", "AGENTS.md", "the link to `x` does not resolve", 5), // moved: old
		finding("RL021", "AGENTS.md", "the link to `x` does not resolve", 9), // a second one: new
		finding("RL004", "AGENTS.md", "bad", 1),
	}}
	base.MarkBase(res, "HEAD")
	got := []string{res.Findings[0].Base, res.Findings[1].Base, res.Findings[2].Base}
	if got[0] != lint.BaselineUnchanged || got[1] != lint.BaselineNew || got[2] != lint.BaselineNew {
		t.Fatalf("states %q", got)
	}
	if res.BaseLabel != "HEAD" || res.Baseline != nil || res.Findings[0].Baseline != "" || res.Findings[0].Known() {
		t.Fatalf("MarkBase touched the baseline's fields: %+v", res)
	}
	if s := res.Findings[0].BaselineState(); s != lint.BaselineUnchanged {
		t.Fatalf("old finding's SARIF state %q", s)
	}
	// Known to a baseline file and new to the base: unchanged for SARIF.
	res.Findings[1].Baseline = lint.BaselineUnchanged
	if s := res.Findings[1].BaselineState(); s != lint.BaselineUnchanged {
		t.Fatalf("known finding's SARIF state %q", s)
	}
	if s := res.Findings[2].BaselineState(); s != lint.BaselineNew {
		t.Fatalf("new finding's SARIF state %q", s)
	}
}

// B5: every refusal names the file and says how to get a good one.
func TestParseRefusesB5(t *testing.T) {
	for in, want := range map[string]string{
		``:                                       "is not a baseline file (it is empty)",
		`[]`:                                     "is not a baseline file (line 1, column 1",
		`{"version": 1, "findings": []} {}`:      "has more than one JSON value",
		`{"version": 0, "findings": []}`:         "has version 0; this rivumi-lint reads version 1",
		`{"findings": []}`:                       "has version 0",
		`{"version": 1, "findings": [], "x": 1}`: `unknown field "x"`,
		`{"version": 1, "findings": [{"rule": "", "path": "a", "hash": "0123456789abcdef", "count": 1}]}`:   "findings[0] has no rule or no path",
		`{"version": 1, "findings": [{"rule": "R", "path": "a", "hash": "0123456789ABCDEF", "count": 1}]}`:  "not 16 hex digits",
		`{"version": 1, "findings": [{"rule": "R", "path": "a", "hash": "0123456789abcdef", "count": -1}]}`: "has count -1",
		"{\"version\": 1,\n \"findings\": \"no\"}":                                                          "line 2, column",
	} {
		_, err := parse("b.json", []byte(in))
		var be *fileError
		if !errors.As(err, &be) || !strings.HasPrefix(err.Error(), "baseline b.json: ") || !strings.Contains(err.Error(), want) ||
			!strings.Contains(err.Error(), "--write-baseline b.json") {
			t.Errorf("parse(%q) = %v, want a *fileError with %q and the fix", in, err, want)
		}
	}
	// #38.12: one identity twice, or counts that overflow when added, are
	// malformed: added up they wrapped negative and hid a known finding.
	ent := func(path, n string) string {
		return `{"rule": "R", "path": "` + path + `", "hash": "0123456789abcdef", "count": ` + n + `, "message": "m"}`
	}
	for in, want := range map[string]string{
		`{"version": 1, "findings": [` + ent("a", "1") + `, ` + ent("a", "2") + `]}`:                                     "findings[1] repeats the identity (rule, path, agent, hash) of findings[0]",
		`{"version": 1, "findings": [` + ent("a", "9223372036854775807") + `, ` + ent("a", "9223372036854775807") + `]}`: "findings[1] repeats the identity",
		`{"version": 1, "findings": [` + ent("a", "9223372036854775807") + `, ` + ent("b", "1") + `]}`:                   "findings[1] has count 1, and the counts add up to more than 9223372036854775807",
		`{"version": 1, "findings": [` + ent("a", "9223372036854775808") + `]}`:                                          "is not a baseline file (line 1",
		`{"version": 1, "findings": [` + ent("a", "0") + `]}`:                                                            "findings[0] has count 0",
	} {
		_, err := parse("b.json", []byte(in))
		var be *fileError
		if !errors.As(err, &be) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--write-baseline b.json") {
			t.Errorf("parse(%q) = %v, want a *fileError with %q and the fix", in, err, want)
		}
	}
	// The same path and hash under another agent is another identity.
	b, err := parse("b.json", []byte(`{"version": 1, "findings": [`+ent("a", "9223372036854775806")+`, `+
		`{"rule": "R", "path": "a", "agent": "claude", "hash": "0123456789abcdef", "count": 1, "message": "m"}]}`))
	if err != nil || b.counts[key{"R", "a", "", "0123456789abcdef"}] != 9223372036854775806 || b.counts[key{"R", "a", "claude", "0123456789abcdef"}] != 1 {
		t.Fatalf("two agents: %v %+v", err, b)
	}
}

// B5: a missing file says how to record one; a directory is refused.
func TestLoadB5(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.json")
	if _, err := Load(missing); err == nil || !strings.Contains(err.Error(), "no such file; record the current findings with rivumi-lint check --write-baseline "+missing) {
		t.Errorf("missing: %v", err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("directory: %v", err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, bytes.Repeat([]byte(" "), maxBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "is over") {
		t.Errorf("big: %v", err)
	}
}

// B1, B5: Parse never panics, and what it accepts is what Write writes of
// the counts it read (the identities survive a round trip).
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"version": 1, "findings": [{"rule": "RL004", "path": "AGENTS.md", "hash": "0123456789abcdef", "count": 2, "message": "m"}]}`))
	f.Add([]byte(`{"version": 1, "findings": []}`))
	f.Add([]byte(`{"version": 2}`))
	f.Add([]byte("\xff"))
	// #38.12: a repeated identity, counts at the edge of int64.
	f.Add([]byte(`{"version": 1, "findings": [{"rule": "R", "path": "a", "hash": "0123456789abcdef", "count": 1, "message": ""}, {"rule": "R", "path": "a", "hash": "0123456789abcdef", "count": 1, "message": ""}]}`))
	f.Add([]byte(`{"version": 1, "findings": [{"rule": "R", "path": "a", "hash": "0123456789abcdef", "count": 9223372036854775807, "message": ""}, {"rule": "R", "path": "b", "hash": "0123456789abcdef", "count": 9223372036854775807, "message": ""}]}`))
	f.Add([]byte(`{"version": 1, "findings": [{"rule": "R", "path": "a", "agent": "codex", "hash": "0123456789abcdef", "count": 9223372036854775806, "message": ""}, {"rule": "R", "path": "a", "hash": "0123456789abcdef", "count": 1, "message": ""}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := parse("f.json", data)
		if err != nil {
			var be *fileError
			if !errors.As(err, &be) {
				t.Fatalf("error %T %v is not a *fileError", err, err)
			}
			return
		}
		total := 0
		for k, n := range b.counts {
			if total += n; total < n {
				t.Fatalf("accepted counts that overflow: %+v", b.counts)
			}
			if n < 1 || k.rule == "" || k.path == "" || !hashRe.MatchString(k.hash) {
				t.Fatalf("accepted %+v count %d", k, n)
			}
		}
	})
}

// B2: subject keeps every byte that is not a standalone number and is
// idempotent: a subject is its own subject.
func FuzzSubject(f *testing.F) {
	f.Add("line 12, column 4 (offset 3) U+200B 90.6%")
	f.Fuzz(func(t *testing.T, msg string) {
		s := subject(msg)
		if subject(s) != s {
			t.Fatalf("subject(%q) = %q, not a fixed point (%q)", msg, s, subject(s))
		}
		if strings.Trim(msg, "0123456789.") == "" && msg != "" && strings.ContainsAny(msg, "0123456789") && !strings.Contains(s, "#") {
			t.Fatalf("subject(%q) = %q kept a bare number", msg, s)
		}
	})
}
