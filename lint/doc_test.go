package lint_test

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/rivumi/rivumi-lint/config"
	. "github.com/rivumi/rivumi-lint/lint"
)

var update = flag.Bool("update", false, "rewrite golden files and generated docs")

// docs/rules.md is generated from the rule table (issue: rule list link).
func TestRulesDoc(t *testing.T) {
	var b bytes.Buffer
	if err := WriteRulesDoc(&b); err != nil {
		t.Fatal(err)
	}
	const path = "../docs/rules.md"
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v (run go test ./lint -run TestRulesDoc -update)", path, err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("%s is stale: run go test ./lint -run TestRulesDoc -update", path)
	}
}

// §5: the table holds exactly the spec's rule ids, in order, each with a
// name, a doc and a default severity; the config accepts exactly these ids
// (it validates against the table, §8).
func TestRuleTable(t *testing.T) {
	want := []string{"RL001", "RL002", "RL003", "RL004", "RL005", "RL006", "RL007", "RL008", "RL009", "RL010", "RL011", "RL012", "RL013", "RL014"}
	if len(Rules()) != len(want) {
		t.Fatalf("%d rules, want %d", len(Rules()), len(want))
	}
	for i, r := range Rules() {
		if r.ID != want[i] || r.Name == "" || r.Summary == "" || r.Doc == "" || r.Default == Off {
			t.Errorf("rule %d = %+v", i, r)
		}
		if _, err := config.Parse("c.yaml", []byte("version: 1\nrules:\n  "+r.ID+": notice\n")); err != nil {
			t.Errorf("config refuses rule %s: %v", r.ID, err)
		}
	}
	if _, err := config.Parse("c.yaml", []byte("version: 1\nrules:\n  RL015: notice\n")); err == nil {
		t.Error("config accepts RL015, which the table does not have")
	}
}
