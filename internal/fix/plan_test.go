package fix

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/lint"
)

// X1: fix plans from the repair a finding carries (lint.Finding.Repair),
// not from its rule id: a made-up id with a repair is planned, a
// fixable rule's id without one is left alone.
func TestPlanFromFindingData(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		abs := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("l/AGENTS.md", "caf\xe9\n")
	write("h/AGENTS.md", "a\u200bb\n")
	write("c/Agents.md", "case\n")
	write("e/AGENT.md", "edit\n")
	write("real/target.md", "text\n")
	if err := os.Mkdir(filepath.Join(root, "s"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../real/target.md", filepath.Join(root, "s/AGENTS.md")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	cfg := config.Default()
	pl := &planner{root: root, cfg: cfg, limit: cfg.Limits.MaxFileBytes, touched: map[string]bool{},
		inScope: func(string) bool { return true }}
	hidden := &lint.Fix{Description: "Remove 1 hidden character(s)", Edits: []lint.Edit{{Path: "h/AGENTS.md",
		Start: lint.Pos{Line: 1, Column: 2, Offset: 1}, End: lint.Pos{Line: 1, Column: 5, Offset: 4}}}}
	for _, f := range []lint.Finding{
		{Rule: "RLX1", Path: "l/AGENTS.md", Repair: lint.Repair{Kind: lint.RepairTranscode}},
		{Rule: "RLX2", Path: "h/AGENTS.md", Fix: hidden, Repair: lint.Repair{Kind: lint.RepairDeleteHidden}},
		{Rule: "RLX3", Path: "c/Agents.md", Repair: lint.Repair{Kind: lint.RepairRename, Name: "AGENTS.md"}},
		{Rule: "RLX4", Path: "s/AGENTS.md", Repair: lint.Repair{Kind: lint.RepairSwap}},
		{Rule: "RLX5", Path: "e/AGENT.md", Repair: lint.Repair{Kind: lint.RepairRename}},
		// Rule ids of fixable rules, without a repair: nothing is planned.
		{Rule: "RL004", Path: "l/AGENTS.md"},
		{Rule: "RL001", Path: "s/AGENTS.md"},
		{Rule: "RL011", Path: "c/Agents.md"},
		{Rule: "RL010", Path: "h/AGENTS.md", Fix: hidden},
	} {
		pl.plan(f)
	}
	type got struct {
		kind     kind
		path, to string
	}
	want := []got{
		{kindText, "l/AGENTS.md", ""},
		{kindText, "h/AGENTS.md", ""},
		{kindRename, "c/Agents.md", "c/AGENTS.md"},
		{kindSwap, "s/AGENTS.md", "real/target.md"},
	}
	if len(pl.changes) != len(want) {
		t.Fatalf("%d changes, want %d: %+v; skips %+v", len(pl.changes), len(want), pl.changes, pl.skips)
	}
	for i, c := range pl.changes {
		if g := (got{c.kind, c.path, c.to}); g != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, g, want[i])
		}
		if c.rule != "RLX"+string(rune('1'+i)) {
			t.Errorf("change %d is of rule %s: the rule id is the finding's, only shown", i, c.rule)
		}
	}
	if string(pl.changes[0].new) != "café\n" || pl.changes[0].from != "Windows-1252" {
		t.Errorf("transcode = %q from %s", pl.changes[0].new, pl.changes[0].from)
	}
	if string(pl.changes[1].new) != "ab\n" {
		t.Errorf("edits = %q", pl.changes[1].new)
	}
	// A rename with no exact name is the user's to make: a skip, saying so.
	if len(pl.skips) != 1 || pl.skips[0].path != "e/AGENT.md" || !strings.Contains(pl.skips[0].reason, "not an instruction file name in another case") {
		t.Errorf("skips %+v, want one for e/AGENT.md", pl.skips)
	}
}
