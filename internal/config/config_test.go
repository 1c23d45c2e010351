package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/rivumi/rivumi-lint/internal/lint/severity"
)

const name = ".rivumi-lint.yaml"

// §8: no config file means the defaults of §3 (C3), §4 (P3) and §2 (R2).
func TestDefault(t *testing.T) {
	c := Default(testProfiles...)
	want := &Config{
		Version: 1,
		Limits:  Limits{MaxFileBytes: 32768, MaxDynamicBytes: 65536, ReservedBytes: 8192, WarnRatio: 0.8},
		Filenames: Filenames{
			Override: []string{"RIVUMI.override.md", "AGENTS.override.md"},
			Normal:   []string{"RIVUMI.md", "AGENTS.md"},
		},
		Rules:  map[string]severity.Severity{},
		Agents: []string{"rivumi"},
		References: References{Enabled: true,
			Commands: []string{"make", "npm", "pnpm", "yarn", "bun", "just"}},
	}
	if !equal(c, want) {
		t.Fatalf("Default(testProfiles...) = %+v, want %+v", c, want)
	}
	if got := c.Candidates(); !reflect.DeepEqual(got, []string{"RIVUMI.override.md", "AGENTS.override.md", "RIVUMI.md", "AGENTS.md"}) {
		t.Fatalf("Candidates() = %q", got)
	}
	// Callers may modify what they get; the next Default must not see it.
	c.Filenames.Normal[0] = "X"
	c.Rules["RL001"] = severity.Off
	c.Candidates()[0] = "Y"
	if d := Default(testProfiles...); d.Filenames.Normal[0] != "RIVUMI.md" || len(d.Rules) != 0 || d.Candidates()[0] != "RIVUMI.override.md" {
		t.Fatalf("Default shares state between calls: %+v", d)
	}
}

// §5: the known rule ids are lint's table, RL001 onwards without a gap
// (adding a rule touches no list here).
func TestRuleIDs(t *testing.T) {
	ids := ruleIDs()
	if len(ids) < 14 {
		t.Fatalf("len(ruleIDs()) = %d", len(ids))
	}
	// Ids 18 to 20 are reserved for another profile's rules, landing apart.
	reserved := map[int]bool{18: true, 19: true, 20: true}
	n := 0
	for i, id := range ids {
		n++
		for reserved[n] && id != fmt.Sprintf("RL%03d", n) {
			n++
		}
		if want := fmt.Sprintf("RL%03d", n); id != want {
			t.Errorf("ruleIDs()[%d] = %q, want %q", i, id, want)
		}
	}
}

// §8: an empty file, or one of only comments, means the defaults.
func TestParseEmpty(t *testing.T) {
	for _, in := range []string{"", "\n\n", "# nothing yet\n  # indented comment\n", "---\n", "--- # c\n...\n", "~\n", "\xef\xbb\xbf# BOM\n"} {
		c, err := Parse(name, []byte(in), testProfiles...)
		if err != nil {
			t.Fatalf("Parse(%q): %v", in, err)
		}
		want := Default(testProfiles...)
		want.Path = name
		if !equal(c, want) {
			t.Errorf("Parse(%q) = %+v, want defaults", in, c)
		}
	}
}

// §8: every key, with the names of the spec.
func TestParseEveryKey(t *testing.T) {
	in := `# full config
version: 1
limits:
  max_file_bytes: 16384
  max_dynamic_bytes: 0x20000
  reserved_bytes: 4_096
  warn_ratio: 0.9
filenames:
  override: [TEAM.override.md]
  normal:
    - TEAM.md
    - AGENTS.md
ignore:
  - testdata/**
  - "**/vendor"
  - docs/{a,b}/*.md
rules:
  RL005: "off"
  RL007: error
  near-miss-name: notice
  RL014: warning
project: github.com/rivumi/rivumi-lint
agents: [alpha, rivumi]
alpha:
  max_bytes: 0
  fallbacks: [CLAUDE.md, README.md]
  markers: []
beta:
  mode: two
  excludes: ["**/vendor/**/CLAUDE.md", /abs/CLAUDE.md]
references:
  enabled: false
  ignore: [generated/**]
  commands: [just, make]
`
	c, err := Parse(name, []byte(in), testProfiles...)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Path:    name,
		Version: 1,
		Limits:  Limits{MaxFileBytes: 16384, MaxDynamicBytes: 0x20000, ReservedBytes: 4096, WarnRatio: 0.9},
		Filenames: Filenames{
			Override: []string{"TEAM.override.md"},
			Normal:   []string{"TEAM.md", "AGENTS.md"},
		},
		Ignore:  []string{"testdata/**", "**/vendor", "docs/{a,b}/*.md"},
		Rules:   map[string]severity.Severity{"RL005": severity.Off, "RL007": severity.Error, "RL011": severity.Notice, "RL014": severity.Warning},
		Project: "github.com/rivumi/rivumi-lint",
		Agents:  []string{"rivumi", "alpha"}, // the table's order
		References: References{Enabled: false, Ignore: []string{"generated/**"},
			Commands: []string{"make", "just"}}, // the key's order
	}
	if !equal(c, want) {
		t.Fatalf("got  %+v\nwant %+v", c, want)
	}
	if got := c.Candidates(); !reflect.DeepEqual(got, []string{"TEAM.override.md", "TEAM.md", "AGENTS.md"}) {
		t.Fatalf("Candidates() = %q", got)
	}
}

// §8: missing keys keep their defaults, one list replaces only that list,
// and an empty (null) section changes nothing.
func TestParsePartial(t *testing.T) {
	cases := []struct {
		in   string
		edit func(*Config)
	}{
		{"limits:\n  max_file_bytes: 100\n", func(c *Config) { c.Limits.MaxFileBytes = 100 }},
		{"limits:\n  warn_ratio: 1\n", func(c *Config) { c.Limits.WarnRatio = 1 }},
		{"limits:\n  reserved_bytes: 0\n", func(c *Config) { c.Limits.ReservedBytes = 0 }},
		{"filenames:\n  override: [X.override.md]\n", func(c *Config) { c.Filenames.Override = []string{"X.override.md"} }},
		{"filenames:\n  override: []\n", func(c *Config) { c.Filenames.Override = []string{} }},
		{"filenames:\n  normal: [AGENTS.md]\n", func(c *Config) { c.Filenames.Normal = []string{"AGENTS.md"} }},
		{"limits:\nfilenames:\nrules:\nignore:\n", func(*Config) {}},
		{"limits: {}\nfilenames: {}\nrules: {}\nignore: []\n", func(c *Config) { c.Ignore = []string{} }},
		{"project: \"\"\n", func(*Config) {}},
		{"rules:\n  RL001: 'off'\n  RL002: off\n", func(c *Config) { c.Rules = map[string]severity.Severity{"RL001": severity.Off, "RL002": severity.Off} }},
		{"project: !!str 123\n", func(c *Config) { c.Project = "123" }},
		{"ignore: [&x a]\n", func(c *Config) { c.Ignore = []string{"a"} }}, // an anchor alone is harmless
	}
	for _, tc := range cases {
		c, err := Parse(name, []byte(tc.in), testProfiles...)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		want := Default(testProfiles...)
		want.Path = name
		tc.edit(want)
		if !equal(c, want) {
			t.Errorf("Parse(%q) =\n %+v, want\n %+v", tc.in, c, want)
		}
	}
}

// §8: strict — an unknown key, a wrong type or a bad value is an error with
// file:line (the exact "NAME:LINE: " prefix) that says what is accepted.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		in   string
		line int
		msg  string // substring of the text after the prefix
	}{
		// unknown keys
		{"version: 1\nlimits:\n  max_file_bytes: 10\nlimts: {}\n", 4, `unknown key "limts" (known: version, limits, filenames, ignore, rules, overrides, project, agents, alpha, beta, references)`},
		{"limits:\n  max_bytes: 1\n", 2, `unknown key "max_bytes" in limits (known: max_file_bytes, max_dynamic_bytes, reserved_bytes, warn_ratio)`},
		{"filenames:\n  overrides: []\n", 2, `unknown key "overrides" in filenames (known: override, normal)`},
		{"\n\nVersion: 1\n", 3, `unknown key "Version"`},
		{"limits:\n  <<: {max_file_bytes: 1}\n", 2, `limits: expected a plain key`},
		{"? [a]\n: 1\n", 1, `config: expected a plain key, got a list`},
		{"project: a\nproject: b\n", 2, `config: duplicate key "project" (first at line 1)`},
		{"rules:\n  RL001: off\n  RL001: error\n", 3, `rules: duplicate key "RL001" (first at line 2)`},
		{"agents: [rivumi, delta]\n", 1, `agents: unknown agent profile "delta"; the profiles are rivumi, alpha, beta, gamma`},
		{"agents: []\n", 1, `agents: expected a list of agent profiles (rivumi, alpha, beta, gamma), got`},
		{"agents: [alpha, alpha]\n", 1, `agents: duplicate profile "alpha"`},
		{"alpha:\n  max_bytes: -1\n", 2, `alpha.max_bytes`},
		{"alpha:\n  fallbacks: [a/b.md]\n", 2, `contains a path separator`},
		{"beta:\n  mode: three\n", 2, `beta.mode: "three" is not one of one, two`},
		{"beta:\n  excludes: [\"[\"]\n", 2, `beta.excludes: "[" is an invalid glob pattern`},
		{"references:\n  enabled: yes\n", 2, `references.enabled: expected true or false, got the string "yes"`},
		{"references:\n  commands: [make, cargo]\n", 2, `references.commands: "cargo" is not one of make, npm, pnpm, yarn, bun, just`},
		{"references:\n  commands: [just, just]\n", 2, `references.commands: duplicate "just"`},
		{"references:\n  commands: make\n", 2, `references.commands: expected a list of make, npm, pnpm, yarn, bun, just (use [] for none)`},
		// the document
		{"- a\n", 1, `expected a mapping of settings at the top level`},
		{"just a string\n", 1, `expected a mapping of settings at the top level (keys: version, limits, filenames, ignore, rules, overrides, project, agents, alpha, beta, references), got the string "just a string"`},
		{"version: 1\n---\nversion: 1\n", 2, `a second YAML document starts here`},
		{"version: 1\n---\n", 2, `a second YAML document`},
		{"version: 1\nlimits: [\n", 2, `invalid YAML: `},
		{"a: 1\nb: 2\nc: d: e\n", 3, `invalid YAML: mapping values are not allowed`},
		{"version: 1\n\tlimits: {}\n", 2, `invalid YAML: found a tab character`},
		{"%FOO\n---\n", 1, `invalid YAML: found unknown directive name`},
		// text
		{"version: 1\nproject: \"a\xffb\"\n", 2, `invalid UTF-8 byte 0xff at column 12 (offset 22)`},
		{"version: 1\r\n\r\nproject: a\x00\n", 3, `character U+0000 at column 11 is not allowed in YAML`},
		{"project: \x1b[31m\n", 1, `character U+001B`},
		{"\xff\xfev\x00", 1, `UTF-16LE byte-order mark; save it as UTF-8`},
		{"\x00\x00\xfe\xff", 1, `UTF-32BE byte-order mark`},
		// aliases
		{"limits: &l {}\nfilenames: *l\n", 2, `alias *l is not allowed`},
		{"ignore:\n  - &g a\n  - *g\n", 3, `alias *g is not allowed: anchors and aliases are not supported`},
		{"version: 1\nignore: [*nothing]\n", 2, `alias *nothing refers to no anchor`},
		// version
		{"version: 2\n", 1, `version: expected 1, got the integer "2" (this rivumi-lint reads config version 1)`},
		{"version: \"1\"\n", 1, `version: expected 1, got the string "1"`},
		{"version:\n", 1, `version: expected 1, got nothing (null)`},
		// limits: types
		{"limits: 5\n", 1, `limits: expected a mapping of keys to values, got the integer "5"`},
		{"limits:\n  max_file_bytes: 32k\n", 2, `limits.max_file_bytes: expected an integer from 1 to 1073741824, got the string "32k"`},
		{"limits:\n  max_file_bytes: 1.5\n", 2, `limits.max_file_bytes: expected an integer from 1 to 1073741824, got the number "1.5"`},
		{"limits:\n  max_file_bytes:\n", 2, `got nothing (null)`},
		{"limits:\n  max_file_bytes: [1]\n", 2, `got a list`},
		{"limits:\n  max_dynamic_bytes: true\n", 2, `limits.max_dynamic_bytes: expected an integer from 1 to 1073741824, got the boolean "true"`},
		{"limits:\n  warn_ratio: high\n", 2, `limits.warn_ratio: expected a number greater than 0 and at most 1, such as 0.8, got the string "high"`},
		{"limits:\n  reserved_bytes: !custom 5\n", 2, `got a value tagged "!custom"`},
		// limits: values
		{"limits:\n  max_file_bytes: 0\n", 2, `limits.max_file_bytes: "0" is out of range; expected an integer from 1 to 1073741824`},
		{"limits:\n  max_file_bytes: -1\n", 2, `limits.max_file_bytes: "-1" is out of range`},
		{"limits:\n  max_file_bytes: 1073741825\n", 2, `limits.max_file_bytes: "1073741825" is out of range`},
		{"limits:\n  max_file_bytes: 99999999999999999999\n", 2, `limits.max_file_bytes: expected an integer from 1 to 1073741824, got the number "99999999999999999999"`},
		{"limits:\n  max_dynamic_bytes: 0\n", 2, `limits.max_dynamic_bytes: "0" is out of range`},
		{"limits:\n  reserved_bytes: -1\n", 2, `limits.reserved_bytes: "-1" is out of range; expected an integer from 0 to`},
		{"limits:\n  max_dynamic_bytes: 100\n  reserved_bytes: 100\n", 3, `limits.reserved_bytes (100) must be less than limits.max_dynamic_bytes (100)`},
		{"limits:\n  reserved_bytes: 100\n  max_dynamic_bytes: 50\n", 2, `limits.reserved_bytes (100) must be less than limits.max_dynamic_bytes (50)`},
		{"\nlimits:\n  max_dynamic_bytes: 4096\n", 3, `limits.reserved_bytes (8192, the default) must be less than limits.max_dynamic_bytes (4096)`},
		{"limits:\n  reserved_bytes: 65536\n", 2, `limits.reserved_bytes (65536) must be less than limits.max_dynamic_bytes (65536, the default)`},
		{"limits:\n  warn_ratio: 0\n", 2, `limits.warn_ratio: "0" is out of range; expected a number greater than 0 and at most 1`},
		{"limits:\n  warn_ratio: 1.01\n", 2, `limits.warn_ratio: "1.01" is out of range`},
		{"limits:\n  warn_ratio: -0.5\n", 2, `out of range`},
		{"limits:\n  warn_ratio: .nan\n", 2, `limits.warn_ratio: ".nan" is out of range`},
		{"limits:\n  warn_ratio: .inf\n", 2, `out of range`},
		// filenames
		{"filenames: [a]\n", 1, `filenames: expected a mapping of keys to values, got a list`},
		{"filenames:\n  override: A.md\n", 2, `filenames.override: expected a list of file names (use [] for none), got the string "A.md"`},
		{"filenames:\n  normal:\n", 2, `filenames.normal: expected a list of file names (use [] for none), got nothing (null)`},
		{"filenames:\n  normal: [1]\n", 2, `filenames.normal: expected a string, got the integer "1"`},
		{"filenames:\n  normal: [\"\"]\n", 2, `filenames.normal: file name is empty`},
		{"filenames:\n  normal:\n    - A.md\n    - docs/A.md\n", 4, `filenames.normal: file name "docs/A.md" contains a path separator`},
		{"filenames:\n  normal: ['a\\b']\n", 2, `contains a path separator`},
		{"filenames:\n  normal: [..]\n", 2, `filenames.normal: ".." is not a file name`},
		{"filenames:\n  normal: [\"A\\0.md\"]\n", 2, `filenames.normal: file name "A\x00.md" contains a NUL byte`},
		{"filenames:\n  normal:\n    - A.md\n    - B.md\n    - A.md\n", 5, `filenames.normal: duplicate name "A.md" (first at line 3)`},
		{"filenames:\n  override: [AGENTS.md]\n", 2, `filenames.override: "AGENTS.md" is also in filenames.normal (the default; set filenames.normal too); a name may appear in one list only`},
		{"filenames:\n  override: [X.md]\n  normal:\n    - Y.md\n    - X.md\n", 2, `filenames.override: "X.md" is also in filenames.normal; a name`},
		{"filenames:\n  normal: [RIVUMI.override.md]\n", 2, `filenames.normal: "RIVUMI.override.md" is also in filenames.override (the default`},
		{"# c\nfilenames:\n  override: []\n  normal: []\n", 2, `filenames: override and normal are both empty; at least one candidate name is needed`},
		// ignore
		{"ignore: testdata/**\n", 1, `ignore: expected a list of glob patterns, got the string "testdata/**"`},
		{"ignore: {a: b}\n", 1, `ignore: expected a list of glob patterns, got a mapping`},
		{"ignore:\n  - ok/**\n  - 7\n", 3, `ignore: expected a string, got the integer "7"`},
		{"ignore:\n  - a/[b\n", 2, `ignore: invalid glob "a/[b" (doublestar syntax`},
		{"ignore:\n  - \"{a,b\"\n", 2, `ignore: invalid glob "{a,b"`},
		{"ignore:\n  - 'a\\'\n", 2, `ignore: invalid glob "a\\"`},
		{"ignore: ['']\n", 1, `ignore: empty pattern`},
		{"ignore: [/abs/**]\n", 1, `ignore: pattern "/abs/**" must be relative to the root, without a leading "/" or "./"`},
		{"ignore: [./x]\n", 1, `must be relative to the root`},
		// rules
		{"rules: [RL001]\n", 1, `rules: expected a mapping of keys to values, got a list`},
		{"rules:\n  RL999: off\n", 2, `unknown rule "RL999" in rules (a rule id such as RL004 or a name such as invalid-utf8; ` + "`rivumi-lint rules`" + ` lists them)`},
		{"rules:\n  rl001: off\n", 2, `unknown rule "rl001"`},
		{"rules:\n  Symlink: off\n", 2, `unknown rule "Symlink"`},
		{"rules:\n  RL001: off\n  symlink: error\n", 3, `rules: "symlink" sets RL001 again (first as "RL001" at line 2)`},
		{"rules:\n  RL001: err\n", 2, `rules.RL001: unknown severity "err" (accepted: off, notice, warning, error)`},
		{"rules:\n  RL001: Error\n", 2, `rules.RL001: unknown severity "Error"`},
		{"rules:\n  RL001: false\n", 2, `rules.RL001: expected a severity (off, notice, warning, error), got the boolean "false"`},
		{"rules:\n  RL001:\n", 2, `got nothing (null)`},
		// overrides (O1): every problem at its line
		{"overrides: {paths: [a]}\n", 1, `overrides: expected a list of entries {paths: [globs], rules: {RULE: severity}}, got a mapping`},
		{"overrides:\n  - docs\n", 2, `overrides[0]: expected a mapping with paths and rules, got the string "docs"`},
		{"overrides:\n  - paths: [docs]\n    rules: {RL003: off}\n  - paths: [a]\n    rules:\n      RL999: off\n", 6, `unknown rule "RL999" in overrides[1].rules (a rule id such as RL004 or a name such as invalid-utf8`},
		{"overrides:\n  - paths: [docs]\n    rules:\n      near-mis: warning\n", 4, `unknown rule "near-mis" in overrides[0].rules`},
		{"overrides:\n  - paths: [docs]\n    rules:\n      RL003: loud\n", 4, `overrides[0].rules.RL003: unknown severity "loud" (accepted: off, notice, warning, error)`},
		{"overrides:\n  - paths: [docs]\n    rules:\n      RL011: off\n      near-miss-name: error\n", 5, `overrides[0].rules: "near-miss-name" sets RL011 again (first as "RL011" at line 4)`},
		{"overrides:\n  - paths:\n      - \"docs/[\"\n    rules: {RL003: off}\n", 3, `overrides[0].paths: invalid glob "docs/["`},
		{"overrides:\n  - paths: [/docs]\n    rules: {RL003: off}\n", 2, `overrides[0].paths: pattern "/docs" must be relative to the root`},
		{"overrides:\n  - paths: []\n    rules: {RL003: off}\n", 2, `overrides[0].paths: expected a list of at least one glob pattern, got a list`},
		{"overrides:\n  - paths: docs\n    rules: {RL003: off}\n", 2, `overrides[0].paths: expected a list of at least one glob pattern, got the string "docs"`},
		{"overrides:\n  - rules: {RL003: off}\n", 2, `overrides[0]: no paths`},
		{"overrides:\n  - paths: [docs]\n", 2, `overrides[0]: no rules`},
		{"overrides:\n  - paths: [docs]\n    rules: {}\n", 3, `overrides[0]: no rules`},
		{"overrides:\n  - paths: [docs]\n    rule: {RL003: off}\n", 3, `unknown key "rule" in overrides[0] (known: paths, rules)`},
		// project
		{"project: 123\n", 1, `project: expected a string, got the integer "123"`},
		{"project: [a]\n", 1, `project: expected a string, got a list`},
		{"project:\n", 1, `project: expected a string, got nothing (null)`},
		// long hostile values are cut short in messages
		{"project: x\n" + strings.Repeat("k", 500) + ": 1\n", 2, `unknown key "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"... (known`},
	}
	for _, tc := range cases {
		_, err := Parse(name, []byte(tc.in), testProfiles...)
		if err == nil {
			t.Errorf("Parse(%q): no error, want line %d: %s", tc.in, tc.line, tc.msg)
			continue
		}
		prefix := fmt.Sprintf("%s:%d: ", name, tc.line)
		if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Parse(%q):\n got  %s\n want %s…%s", tc.in, err, prefix, tc.msg)
		}
		var ce *Error
		if !errors.As(err, &ce) || ce.Name != name || ce.Line != tc.line {
			t.Errorf("Parse(%q): error %#v is not an *Error with line %d", tc.in, err, tc.line)
		}
	}
}

// §8: the example message of the brief, whole.
func TestParseUnknownKeyMessage(t *testing.T) {
	_, err := Parse(name, []byte("version: 1\n# limits\n\nlimts:\n  max_file_bytes: 1\n"), testProfiles...)
	want := `.rivumi-lint.yaml:4: unknown key "limts" (known: version, limits, filenames, ignore, rules, overrides, project, agents, alpha, beta, references)`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// §10: a YAML alias bomb (billion laughs) is refused cheaply: yaml.v3 does
// not expand aliases into a yaml.Node, and Parse rejects the first alias.
func TestParseAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	in := []byte(b.String())
	// Also the same bomb under a known key, so the alias check (not the
	// unknown-key check) is what stops it.
	known := []byte(strings.ReplaceAll(b.String(), "a9: &a9", "ignore:"))
	for _, data := range [][]byte{in, known} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Parse(name, data, testProfiles...)
		runtime.ReadMemStats(&after)
		if err == nil || !regexp.MustCompile(`^\.rivumi-lint\.yaml:\d+: `).MatchString(err.Error()) {
			t.Fatalf("alias bomb: err = %v", err)
		}
		// 10^9 expanded nodes would be tens of GiB; the tree as written
		// is a few hundred nodes.
		if n := after.TotalAlloc - before.TotalAlloc; n > 4<<20 {
			t.Errorf("alias bomb allocated %d bytes", n)
		}
	}
	_, err := Parse(name, known, testProfiles...)
	if err == nil || !strings.HasPrefix(err.Error(), name+":2: alias *a0 is not allowed") {
		t.Errorf("alias bomb under ignore: %v", err)
	}
}

// §10: deeply nested input is an error, never a stack overflow (which would
// crash the process, not panic).
func TestParseDeepNesting(t *testing.T) {
	var indented strings.Builder
	for i := 0; indented.Len() < MaxConfigBytes-4096; i++ {
		fmt.Fprintf(&indented, "%sa:\n", strings.Repeat(" ", i))
	}
	cases := map[string]string{
		"flow lists":    strings.Repeat("[", 100000),
		"flow maps":     strings.Repeat("{", 100000),
		"flow mixed":    strings.Repeat("[{a: ", 50000),
		"block lists":   strings.Repeat("- ", 100000),
		"explicit keys": strings.Repeat("? ", 100000),
		"under a key":   "version: 1\nignore: " + strings.Repeat("[", 100000),
		"closed lists":  "ignore: " + strings.Repeat("[", 9000) + strings.Repeat("]", 9000),
		"indented maps": indented.String(),
	}
	for label, in := range cases {
		_, err := Parse(name, []byte(in), testProfiles...)
		if err == nil || !regexp.MustCompile(`^\.rivumi-lint\.yaml:[1-9]\d*: `).MatchString(err.Error()) {
			t.Errorf("%s: err = %.200v", label, err)
		}
	}
}

// §10: files over 1 MiB are rejected by Load before parsing, naming the
// size; a sparse 2 GiB file costs nothing to reject.
func TestLoadHuge(t *testing.T) {
	dir := t.TempDir()
	over := filepath.Join(dir, "over.yaml")
	if err := os.WriteFile(over, []byte(strings.Repeat("#", MaxConfigBytes+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(over)
	if want := over + ": config file is 1048577 bytes; the limit is 1048576 bytes (1 MiB)"; err == nil || err.Error() != want {
		t.Errorf("Load(1 MiB + 1): %v\nwant %s", err, want)
	}

	sparse := filepath.Join(dir, "sparse.yaml")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		f.Close()
		t.Fatalf("cannot make a sparse file here (the test needs a file system with sparse files, such as ext4 or tmpfs): %v", err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Load(sparse)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "config file is 2147483648 bytes; the limit is 1048576 bytes") {
		t.Errorf("Load(2 GiB): %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("Load(2 GiB) allocated %d bytes", n)
	}

	// Exactly at the limit is accepted (comments only: the defaults).
	at := filepath.Join(dir, "at.yaml")
	if err := os.WriteFile(at, []byte("#"+strings.Repeat("x", MaxConfigBytes-2)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := Load(at); err != nil || c.Path != at {
		t.Errorf("Load(1 MiB): %v, %+v", err, c)
	}

	// Parse keeps the same bound for data that did not come through Load.
	if _, err := Parse(name, make([]byte, MaxConfigBytes+1), testProfiles...); err == nil || !strings.HasPrefix(err.Error(), name+": config is 1048577 bytes") {
		t.Errorf("Parse(1 MiB + 1): %v", err)
	}
}

// §8: Load reads a file and reports problems with its path and line;
// §10: a missing file, a directory or another non-file is a clear error.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".rivumi-lint.yaml")
	if err := os.WriteFile(p, []byte("rules:\n  RL005: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(p)
	if err != nil || c.Path != p || c.Rules["RL005"] != severity.Off {
		t.Fatalf("Load: %+v, %v", c, err)
	}

	if err := os.WriteFile(p, []byte("rules:\n  RL005: of\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil || !strings.HasPrefix(err.Error(), p+":2: rules.RL005: unknown severity") {
		t.Errorf("Load(bad): %v", err)
	}

	_, err = Load(filepath.Join(dir, "missing.yaml"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "load config: ") {
		t.Errorf("Load(missing): %v", err)
	}

	if _, err := Load(dir); err == nil || err.Error() != dir+": not a regular file (a directory); the config must be a plain file" {
		t.Errorf("Load(dir): %v", err)
	}
}

// §8: ignore globs match a path or any of its parent directories.
func TestIgnored(t *testing.T) {
	c := Default(testProfiles...)
	c.Ignore = []string{"testdata/**", "vendor", "**/gen", "docs/*.md", "x/{a,b}/c"}
	cases := map[string]bool{
		"":                        false,
		".":                       false,
		"testdata":                true,
		"testdata/a/b":            true,
		"testdata/a/b/AGENTS.md":  true,
		"./testdata/a":            true,
		"testdata/":               true,
		"testdatax":               false,
		"src/testdata":            false,
		"vendor":                  true,
		"vendor/x/AGENTS.md":      true,
		"a/vendor":                false,
		"gen":                     true,
		"a/b/gen/AGENTS.md":       true,
		"a/b/genx":                false,
		"docs/AGENTS.md":          true,
		"docs/sub/AGENTS.md":      false,
		"docs":                    false,
		"x/a/c/d":                 true,
		"x/b/c":                   true,
		"x/d/c":                   false,
		"a//b/../testdata/AGENTS": false, // cleaned to a/testdata/AGENTS
		"/testdata/a":             true,
	}
	for p, want := range cases {
		if got := c.Ignored(p); got != want {
			t.Errorf("Ignored(%q) = %v, want %v", p, got, want)
		}
	}

	// The same globs through Parse.
	pc, err := Parse(name, []byte("ignore:\n  - testdata\n"), testProfiles...)
	if err != nil {
		t.Fatal(err)
	}
	if !pc.Ignored("testdata/a/b") || !pc.Ignored("testdata") || pc.Ignored("src") {
		t.Errorf("Ignored with glob %q: wrong", pc.Ignore)
	}

	// "**" excludes everything, the root included; no globs exclude nothing.
	all := Default(testProfiles...)
	all.Ignore = []string{"**"}
	if !all.Ignored(".") || !all.Ignored("") || !all.Ignored("a/b") {
		t.Errorf(`Ignored with "**": wrong`)
	}
	if Default(testProfiles...).Ignored("testdata") {
		t.Errorf("Default ignores testdata")
	}

	// A glob that Parse would reject matches nothing instead of failing.
	bad := Default(testProfiles...)
	bad.Ignore = []string{"[", "a"}
	if bad.Ignored("b") || !bad.Ignored("a/b") {
		t.Errorf("Ignored with an invalid glob: wrong")
	}
}

// §10: the config loader never panics on any input; whatever it accepts is
// a usable configuration, and whatever it rejects says NAME:LINE:.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"",
		"# c\n",
		"version: 1\nlimits:\n  max_file_bytes: 16384\n  max_dynamic_bytes: 65536\n  reserved_bytes: 0\n  warn_ratio: 1\n",
		"filenames:\n  override: [A.override.md]\n  normal: [A.md]\n",
		"filenames:\n  override: []\n",
		"ignore: ['testdata/**', '{a,b}/c']\n",
		"rules:\n  RL001: off\n  RL014: error\n",
		"project: p\n",
		"a: &a [x]\nb: *a\n",
		"ignore: *x\n",
		"[[[[[[[[[[",
		"- - - - - -",
		"version: 1\n---\n",
		"limits:\n  warn_ratio: .nan\n",
		"limits:\n  max_file_bytes: 99999999999999999999\n",
		"\xff\xfe",
		"project: \"\\0\"\n",
		"limits: {<<: {}}\n",
		"? [a]\n: b\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	prefix := regexp.MustCompile(`^f\.yaml:([1-9][0-9]*): `)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("f.yaml", data)
		if err != nil {
			m := prefix.FindStringSubmatch(err.Error())
			if m == nil {
				t.Fatalf("error without f.yaml:LINE: prefix: %q", err)
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Line < 1 {
				t.Fatalf("error is not an *Error with a line: %#v", err)
			}
			// The line is in the file (or just past its end, for "unexpected
			// end of stream"), counting line breaks as YAML does.
			breaks := strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n", "\u2028", "\n", "\u2029", "\n").Replace(string(data))
			if last := 2 + strings.Count(breaks, "\n"); ce.Line > last {
				t.Fatalf("error line %d is past the end (%d lines): %v", ce.Line, last-1, err)
			}
			return
		}
		if c.Version != 1 || c.Path != "f.yaml" || c.Rules == nil {
			t.Fatalf("bad config: %+v", c)
		}
		l := c.Limits
		if l.MaxFileBytes < 1 || l.MaxFileBytes > MaxLimitBytes || l.MaxDynamicBytes < 1 || l.MaxDynamicBytes > MaxLimitBytes ||
			l.ReservedBytes < 0 || l.ReservedBytes >= l.MaxDynamicBytes || !(l.WarnRatio > 0 && l.WarnRatio <= 1) {
			t.Fatalf("limits out of range: %+v", l)
		}
		names := c.Candidates()
		if len(names) == 0 {
			t.Fatalf("no candidates: %+v", c.Filenames)
		}
		seen := map[string]bool{}
		for _, n := range names {
			if n == "" || n == "." || n == ".." || strings.ContainsAny(n, "/\\\x00") || seen[n] {
				t.Fatalf("bad candidate %q in %q", n, names)
			}
			seen[n] = true
		}
		for _, g := range c.Ignore {
			if !doublestar.ValidatePattern(g) || g == "" {
				t.Fatalf("bad glob %q", g)
			}
		}
		for id, sev := range c.Rules {
			if !strings.HasPrefix(id, "RL0") || sev < severity.Off || sev > severity.Error {
				t.Fatalf("bad rule %q: %q", id, sev)
			}
		}
		c.Ignored("a/b/c")
	})
}

// O3: overrides apply in order, the later winning, over rules:; a glob
// matches a path or a parent directory of it, as ignore: does; a rule
// set off by rules: still runs when an override turns it on somewhere.
func TestOverridesO3(t *testing.T) {
	c, err := Parse(name, []byte(`rules:
  RL003: "off"
overrides:
  - paths: ["docs/**"]
    rules:
      near-miss-name: "off"
      RL004: warning
  - paths: [docs/keep, "**/*.md"]
    rules:
      RL011: error
  - paths: [vendor]
    rules:
      RL003: error
`), testProfiles...)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id, path string
		sev      severity.Severity
		set      bool
	}{
		{"RL011", "docs/a/agents.md", severity.Error, true}, // both match: the later wins
		{"RL011", "docs/a/AGENTS.txt", severity.Off, true},  // only the first
		{"RL011", "docs/keep/x/AGENTS.txt", severity.Error, true},
		{"RL011", "src/AGENTS.txt", 0, false},
		{"RL004", "docs/AGENTS.md", severity.Warning, true},
		{"RL004", "AGENTS.md", 0, false},
		{"RL003", "AGENTS.md", severity.Off, true},
		{"RL003", "vendor/x/AGENTS.md", severity.Error, true}, // a parent directory matches
		{"RL003", "vendorx/AGENTS.md", severity.Off, true},
	} {
		sev, set := c.SeverityAt(tc.id, tc.path)
		if sev != tc.sev || set != tc.set {
			t.Errorf("SeverityAt(%s, %s) = %v, %v; want %v, %v", tc.id, tc.path, sev, set, tc.sev, tc.set)
		}
	}
	if !c.RuleRuns("RL003") || !c.RuleRuns("RL011") || !c.RuleRuns("RL001") {
		t.Errorf("RuleRuns: RL003 %v, RL011 %v, RL001 %v; want all true", c.RuleRuns("RL003"), c.RuleRuns("RL011"), c.RuleRuns("RL001"))
	}
	off, err := Parse(name, []byte("rules:\n  RL003: \"off\"\noverrides:\n  - paths: [a]\n    rules: {RL003: \"off\"}\n"), testProfiles...)
	if err != nil {
		t.Fatal(err)
	}
	if off.RuleRuns("RL003") {
		t.Error("RuleRuns(RL003) = true with RL003 off everywhere")
	}
}

// §10, O1: at most maxOverrides entries, refused at the first one over.
func TestOverridesCapped(t *testing.T) {
	entry := "  - {paths: [a], rules: {RL003: \"off\"}}\n"
	if _, err := Parse(name, []byte("overrides:\n"+strings.Repeat(entry, maxOverrides))); err != nil {
		t.Fatalf("%d entries: %v", maxOverrides, err)
	}
	_, err := Parse(name, []byte("overrides:\n"+strings.Repeat(entry, maxOverrides+1)))
	want := fmt.Sprintf("%s:%d: overrides: more than 256 entries; merge entries with the same rules", name, maxOverrides+2)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("%d entries: %v, want %s", maxOverrides+1, err, want)
	}
}
