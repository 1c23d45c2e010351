package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// B2 across releases: the identities a baseline records for the demo's
// findings, with Rivumi alone and with every agent profile, are the ones
// testdata/baseline/demo.txt lists. An identity hashes the finding's
// subject, which is its message unless its rule gives one, so rewording a
// message turns the findings users have accepted into new ones after an
// upgrade. This test makes that a decision: keep the identity (give the
// finding a Subject of the old words), or list the change in CHANGELOG.md
// and rewrite the list with -update (docs/baseline.md, "Across
// releases").
func TestDemoBaselineIdentitiesB2(t *testing.T) {
	requireDemoSymlink(t)
	t.Setenv("HOME", t.TempDir()) // no user-level file of the machine's
	var got strings.Builder
	for _, agent := range []string{"rivumi", "all"} {
		file := filepath.Join(t.TempDir(), "baseline.json")
		var stdout, stderr bytes.Buffer
		code := run([]string{"check", "--root", "../../testdata/demo", "--agent", agent, "--write-baseline", file}, env{Stdout: &stdout, Stderr: &stderr})
		if code != exitOK {
			t.Fatalf("--agent %s --write-baseline: exit %d, want 0; stderr:\n%s", agent, code, stderr.String())
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Findings []struct {
				Rule, Path, Agent, Hash string
				Count                   int
			}
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		fmt.Fprintf(&got, "# --agent %s\n", agent)
		for _, f := range doc.Findings {
			fmt.Fprintf(&got, "%s %s %s agent=%s count=%d\n", f.Rule, f.Path, f.Hash, f.Agent, f.Count)
		}
	}
	const golden = "../../testdata/baseline/demo.txt"
	const head = "# The baseline identities of the demo's findings (cmd/rivumi-lint, TestDemoBaselineIdentitiesB2).\n" +
		"# A change here makes users' baselines count these findings as new: list it in CHANGELOG.md.\n"
	if *updateDocs {
		if err := os.WriteFile(golden, []byte(head+got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (write it with -update)", err)
	}
	if w := strings.TrimPrefix(string(want), head); w != got.String() {
		t.Errorf("the demo's baseline identities changed: a baseline recorded by the last release would count these findings as new.\n"+
			"Keep them (give the finding a Subject of the old words, lint.Finding.Subject), or list the change in CHANGELOG.md and run "+
			"go test ./cmd/rivumi-lint -run TestDemoBaselineIdentitiesB2 -update.\n%s", lineDiff(w, got.String()))
	}
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}
