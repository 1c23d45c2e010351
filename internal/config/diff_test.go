package config

import (
	"strings"
	"testing"
)

// TestDiff is F7: every changed key with its direction; a rule set to its
// default (lint's table) changes nothing.
func TestDiff(t *testing.T) {
	parse := func(s string) *Config {
		t.Helper()
		c, err := Parse(".rivumi-lint.yaml", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	base := parse("version: 1\nrules:\n  RL005: notice\nignore: [\"a/**\", \"b\"]\n")
	head := parse("version: 1\nrules:\n  RL001: error\n  RL005: error\n  RL007: off\nlimits:\n  max_dynamic_bytes: 70000\n  reserved_bytes: 9000\n  warn_ratio: 0.9\nfilenames:\n  override: [AGENTS.override.md]\nignore: [\"b\"]\nproject: p\n")
	var got []string
	for _, k := range Diff(base, head) {
		got = append(got, k.String())
	}
	want := []string{
		"rules.RL005 tightened (notice → error)",
		"rules.RL007 loosened (warning → off)",
		"limits.max_dynamic_bytes loosened (65536 → 70000)",
		"limits.reserved_bytes tightened (8192 → 9000)",
		"limits.warn_ratio loosened (0.8 → 0.9)",
		`filenames.override changed (["RIVUMI.override.md", "AGENTS.override.md"] → ["AGENTS.override.md"])`,
		`ignore tightened (["a/**", "b"] → ["b"])`,
		`project changed ("" → "p")`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Diff:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d := Diff(head, head); len(d) != 0 {
		t.Errorf("Diff of a config with itself: %v", d)
	}
	if d := Diff(Default(), parse("version: 1\nignore: [x]\nlimits:\n  max_file_bytes: 100\n")); len(d) != 2 ||
		d[0].String() != "limits.max_file_bytes tightened (32768 → 100)" || d[1].Effect != Loosened {
		t.Errorf("Diff: %v", d)
	}
	// RL021's section: off and fewer commands loosen; more ignored targets loosen.
	got = nil
	for _, k := range Diff(Default(), parse("version: 1\nreferences:\n  enabled: false\n  ignore: [gen/**]\n  commands: [make]\n")) {
		got = append(got, k.String())
	}
	want = []string{
		"references.enabled loosened (true → false)",
		`references.ignore loosened ([] → ["gen/**"])`,
		`references.commands loosened (["make", "npm", "pnpm", "yarn", "bun", "just"] → ["make"])`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Diff of references:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// F7, O3: a change to overrides is a KeyChange marked changed (an entry
// may turn rules off or on: the reviewer judges), spelled with each
// entry's globs and its rules by id, so a rule named by its name and by
// its id is the same setting.
func TestDiffOverridesF7(t *testing.T) {
	parse := func(s string) *Config {
		t.Helper()
		c, err := Parse(".rivumi-lint.yaml", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	base := parse("version: 1\noverrides:\n  - paths: [docs]\n    rules: {near-miss-name: \"off\"}\n")
	byID := parse("version: 1\noverrides:\n  - paths: [docs]\n    rules: {RL011: \"off\"}\n")
	if d := Diff(base, byID); len(d) != 0 {
		t.Errorf("the same override by id: %v", d)
	}
	head := parse("version: 1\noverrides:\n  - paths: [docs, src]\n    rules: {RL011: \"off\", RL003: warning}\n")
	d := Diff(base, head)
	want := `overrides changed ([{paths: ["docs"], rules: {RL011: off}}] → [{paths: ["docs", "src"], rules: {RL003: warning, RL011: off}}])`
	if len(d) != 1 || d[0].String() != want {
		t.Errorf("Diff = %v, want %s", d, want)
	}
	if d := Diff(base, Default()); len(d) != 1 || d[0].New != "[]" {
		t.Errorf("overrides removed: %v", d)
	}
}
