package config

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/lint/severity"
)

// Effect says which way a changed key moves the checks (F7).
type Effect string

const (
	// Loosened: the head's value lets more through (a rule off or at a
	// lower severity, a larger limit, a smaller reserve, a higher
	// warn_ratio, more ignore globs).
	Loosened Effect = "loosened"
	// Tightened: the head's value lets less through.
	Tightened Effect = "tightened"
	// Changed: neither looser nor tighter can be said (file names, the
	// memory project key): the reviewer has to judge.
	Changed Effect = "changed"
)

// KeyChange is one setting that differs between two configs, named by its
// dotted key path as written in the file: rules.RL008,
// limits.max_file_bytes, filenames.normal, ignore, project.
type KeyChange struct {
	Key      string
	Old, New string // the values, as the file would spell them
	Effect   Effect
}

func (k KeyChange) String() string {
	return fmt.Sprintf("%s %s (%s → %s)", k.Key, k.Effect, k.Old, k.New)
}

// Diff lists every setting whose effective value differs from base to
// head, in key order, each marked loosened, tightened or changed (F7).
// A rule a file does not set has its default severity (lint's table), so
// `rules.RL008: error` where the default is error changes nothing.
func Diff(base, head *Config) []KeyChange {
	var out []KeyChange
	for _, r := range lint.Rules() {
		sev := func(c *Config) severity.Severity {
			if s, ok := c.Rules[r.ID]; ok {
				return s
			}
			return r.Default
		}
		o, n := sev(base), sev(head)
		if o == n {
			continue
		}
		e := Tightened
		if n < o {
			e = Loosened
		}
		out = append(out, KeyChange{Key: "rules." + r.ID, Old: o.String(), New: n.String(), Effect: e})
	}
	// Larger limits let more through; a larger reserve leaves less of the
	// budget to the instructions, so it tightens.
	for _, l := range []struct {
		key    string
		o, n   float64
		looser bool // whether a larger value loosens
	}{
		{"limits.max_file_bytes", float64(base.Limits.MaxFileBytes), float64(head.Limits.MaxFileBytes), true},
		{"limits.max_dynamic_bytes", float64(base.Limits.MaxDynamicBytes), float64(head.Limits.MaxDynamicBytes), true},
		{"limits.reserved_bytes", float64(base.Limits.ReservedBytes), float64(head.Limits.ReservedBytes), false},
		{"limits.warn_ratio", base.Limits.WarnRatio, head.Limits.WarnRatio, true},
	} {
		if l.o == l.n {
			continue
		}
		e := Tightened
		if (l.n > l.o) == l.looser {
			e = Loosened
		}
		out = append(out, KeyChange{Key: l.key, Old: number(l.o), New: number(l.n), Effect: e})
	}
	for _, f := range []struct {
		key  string
		o, n []string
	}{
		{"filenames.override", base.Filenames.Override, head.Filenames.Override},
		{"filenames.normal", base.Filenames.Normal, head.Filenames.Normal},
	} {
		if !slices.Equal(f.o, f.n) {
			out = append(out, KeyChange{Key: f.key, Old: list(f.o), New: list(f.n), Effect: Changed})
		}
	}
	// A glob added can only exclude more; one removed only less. Both at
	// once may go either way: counted as loosened, since something new is
	// no longer checked.
	added, removed := setDiff(head.Ignore, base.Ignore), setDiff(base.Ignore, head.Ignore)
	if len(added)+len(removed) > 0 {
		e := Loosened
		if len(added) == 0 {
			e = Tightened
		}
		out = append(out, KeyChange{Key: "ignore", Old: list(base.Ignore), New: list(head.Ignore), Effect: e})
	}
	// RL021's section: switching it off, ignoring more targets or
	// checking fewer commands lets more through.
	if o, n := base.References.Enabled, head.References.Enabled; o != n {
		e := Tightened
		if !n {
			e = Loosened
		}
		out = append(out, KeyChange{Key: "references.enabled", Old: strconv.FormatBool(o), New: strconv.FormatBool(n), Effect: e})
	}
	for _, f := range []struct {
		key    string
		o, n   []string
		looser bool // whether an added item loosens
	}{
		{"references.ignore", base.References.Ignore, head.References.Ignore, true},
		{"references.commands", base.References.Commands, head.References.Commands, false},
	} {
		added, removed := setDiff(f.n, f.o), setDiff(f.o, f.n)
		if len(added)+len(removed) == 0 {
			continue
		}
		e := Changed
		switch {
		case len(removed) == 0:
			e = map[bool]Effect{true: Loosened, false: Tightened}[f.looser]
		case len(added) == 0:
			e = map[bool]Effect{true: Tightened, false: Loosened}[f.looser]
		}
		out = append(out, KeyChange{Key: f.key, Old: list(f.o), New: list(f.n), Effect: e})
	}
	// An override can turn rules on or off anywhere: which way a change
	// goes is for the reviewer to judge.
	if o, n := overridesText(base.Overrides), overridesText(head.Overrides); o != n {
		out = append(out, KeyChange{Key: "overrides", Old: o, New: n, Effect: Changed})
	}
	if base.Project != head.Project {
		out = append(out, KeyChange{Key: "project", Old: fmt.Sprintf("%q", base.Project), New: fmt.Sprintf("%q", head.Project), Effect: Changed})
	}
	return out
}

// overridesText spells overrides for a KeyChange: each entry's globs and
// its rules by id, sorted.
func overridesText(os []Override) string {
	parts := make([]string, len(os))
	for i, o := range os {
		ids := make([]string, 0, len(o.Rules))
		for id := range o.Rules {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		rules := make([]string, len(ids))
		for j, id := range ids {
			rules[j] = id + ": " + o.Rules[id].String()
		}
		parts[i] = "{paths: " + list(o.Paths) + ", rules: {" + strings.Join(rules, ", ") + "}}"
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func number(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func list(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// setDiff returns the elements of a not in b, sorted.
func setDiff(a, b []string) []string {
	var out []string
	for _, v := range a {
		if !slices.Contains(b, v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}
