package lint_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/config"
	. "github.com/rivumi/rivumi-lint/internal/lint"
)

var update = flag.Bool("update", false, "rewrite golden files and generated docs")

// docs/rules.md is generated from the rule table (issue: rule list link).
func TestRulesDoc(t *testing.T) {
	var b bytes.Buffer
	if err := WriteRulesDoc(&b); err != nil {
		t.Fatal(err)
	}
	const path = "../../docs/rules.md"
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v (run go test ./internal/lint -run TestRulesDoc -update)", path, err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("%s is stale: run go test ./internal/lint -run TestRulesDoc -update", path)
	}
}

// §5: the table holds the spec's rule ids RL001 onwards, in order and
// without a gap (each rule registers itself from its own file), each with
// a name, a doc and a default severity; the config accepts exactly these
// ids (it validates against the table, §8).
func TestRuleTable(t *testing.T) {
	if len(Rules()) < 14 {
		t.Fatalf("%d rules, want RL001 to RL014 at least", len(Rules()))
	}
	// Ids 18 to 20 are reserved for another profile's rules, landing apart.
	reserved := map[int]bool{18: true, 19: true, 20: true}
	n := 0
	for _, r := range Rules() {
		n++
		for reserved[n] && r.ID != fmt.Sprintf("RL%03d", n) {
			n++
		}
		if r.ID != fmt.Sprintf("RL%03d", n) || r.Name == "" || r.Summary == "" || r.Doc == "" || r.Default == Off {
			t.Errorf("rule %d = %+v", n, r)
		}
		if _, err := config.Parse("c.yaml", []byte("version: 1\nrules:\n  "+r.ID+": notice\n")); err != nil {
			t.Errorf("config refuses rule %s: %v", r.ID, err)
		}
	}
	if _, err := config.Parse("c.yaml", []byte("version: 1\nrules:\n  RL999: notice\n")); err == nil {
		t.Error("config accepts RL999, which the table does not have")
	}
}
