package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestEveryFindingSaysHowToFix: each finding of the demo (RL001–RL011, §5)
// carries its fix in the message itself, not only in docs/rules.md.
func TestEveryFindingSaysHowToFix(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--root", "../../testdata/demo", "--format", "json"}, env{Stdout: &stdout, Stderr: &stderr}); code != exitFindings {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr.String())
	}
	var doc struct {
		Findings []struct {
			Rule, Path, Message string
		} `json:"findings"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	rules := map[string]bool{}
	for _, f := range doc.Findings {
		rules[f.Rule] = true
		if strings.Count(f.Message, "Fix: ") != 1 {
			t.Errorf("%s on %s: want one \"Fix: \" in the message: %q", f.Rule, f.Path, f.Message)
		}
	}
	if len(rules) < 11 {
		t.Errorf("the demo fired %d rules, want RL001–RL011", len(rules))
	}
}
