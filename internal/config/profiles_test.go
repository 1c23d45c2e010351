package config

import (
	"reflect"
	"testing"
)

// testProfiles stand for the registry (internal/profiles, whose own tests
// parse the real sections): one profile of each shape a row can have.
var testProfiles = []Profile{
	{Name: "rivumi"},
	{Name: "alpha", Doc: "The alpha profile's settings.", Keys: []Key{
		{Path: "max_bytes", Kind: KindInt, Min: 0, Max: MaxLimitBytes, Def: int64(32768), Doc: "Alpha's budget."},
		{Path: "fallbacks", Kind: KindNames, Def: []string{}, Doc: "Names alpha tries after AGENTS.md."},
		{Path: "markers", Kind: KindNames, Def: []string{".git"}, Doc: "Alpha's root markers."},
	}},
	{Name: "beta", Doc: "The beta profile's settings.", Keys: []Key{
		{Path: "mode", Kind: KindEnum, Def: "one", Enum: []string{"one", "two"}, Doc: "Beta's mode."},
		{Path: "excludes", Kind: KindPatterns, Def: []string{}, Doc: "Beta's excludes."},
		{Path: "approved", Kind: KindBool, Def: false, Doc: "Whether beta approved."},
	}},
	{Name: "gamma"}, // a profile without settings: no section
}

// equal compares two configs by what they hold (Same).
// A want written out (no profile values) is compared without them;
// TestProfileSections checks those.
func equal(a, b *Config) bool {
	if len(b.vals) == 0 {
		x := *a
		x.vals = map[string]any{}
		a = &x
		if b.vals == nil {
			y := *b
			y.vals = map[string]any{}
			b = &y
		}
	}
	return a.Same(b)
}

// §8, A2: a profile's section holds its keys at their defaults; the file
// sets them by name; a profile without keys has no section, and the agents
// key takes every profile's name in the registry's order.
func TestProfileSections(t *testing.T) {
	c := Default(testProfiles...)
	a, b := c.Section("alpha"), c.Section("beta")
	if a.Int("max_bytes") != 32768 || len(a.Strings("fallbacks")) != 0 || !reflect.DeepEqual(a.Strings("markers"), []string{".git"}) {
		t.Errorf("alpha's defaults: %d %q %q", a.Int("max_bytes"), a.Strings("fallbacks"), a.Strings("markers"))
	}
	if b.String("mode") != "one" || b.Bool("approved") || len(b.Strings("excludes")) != 0 {
		t.Errorf("beta's defaults: %q %v %q", b.String("mode"), b.Bool("approved"), b.Strings("excludes"))
	}
	c, err := Parse(name, []byte("agents: [beta, rivumi, gamma]\nalpha:\n  max_bytes: 0\n  markers: []\nbeta:\n  mode: two\n  excludes: [\"**/x\"]\n  approved: true\n"), testProfiles...)
	if err != nil {
		t.Fatal(err)
	}
	a, b = c.Section("alpha"), c.Section("beta")
	if a.Int("max_bytes") != 0 || len(a.Strings("markers")) != 0 || b.String("mode") != "two" || !b.Bool("approved") || !reflect.DeepEqual(b.Strings("excludes"), []string{"**/x"}) {
		t.Errorf("alpha %d %q, beta %q %v %q", a.Int("max_bytes"), a.Strings("markers"), b.String("mode"), b.Bool("approved"), b.Strings("excludes"))
	}
	if !reflect.DeepEqual(c.Agents, []string{"rivumi", "beta", "gamma"}) {
		t.Errorf("agents = %q, want the registry's order", c.Agents)
	}
	// A list a caller gets is its own.
	a.Strings("fallbacks")
	m := c.Section("alpha").Strings("markers")
	m = append(m, "x")
	if len(c.Section("alpha").Strings("markers")) != 0 {
		t.Errorf("Strings shares its slice: %q", m)
	}
	if _, err := Parse(name, []byte("gamma:\n  x: 1\n"), testProfiles...); err == nil {
		t.Errorf("a profile without keys has a section")
	}
	// Without the registry Rivumi is the only profile.
	if _, err := Parse(name, []byte("agents: [alpha]\n")); err == nil {
		t.Errorf("agents: [alpha] parsed without profiles")
	}
	if got := Options([]string{"alpha.markers", "limits.max_file_bytes"}, testProfiles...); !reflect.DeepEqual(got, []Option{
		{"alpha.markers", "[.git]", "Alpha's root markers."}, {"limits.max_file_bytes", "32768", "Largest instruction file in bytes; a larger one is rejected whole (C3, RL003)."}}) {
		t.Errorf("Options = %q", got)
	}
}
