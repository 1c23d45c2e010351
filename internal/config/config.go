// Package config loads .rivumi-lint.yaml (SPEC §8).
//
// The file is read strictly: a typo in a key or a value of the wrong type is
// an error that names the file and line, because a silently ignored setting
// would make the linter check something other than what the user asked for.
// It is also read defensively (SPEC §10): the file may come from an untrusted
// pull request, so its size is capped before parsing, YAML aliases are
// refused, and nesting depth is bounded by the YAML scanner.
package config

import (
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"reflect"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/lint/severity"
)

// MaxConfigBytes is the largest config file accepted. A real config is a few
// hundred bytes; the cap keeps a hostile file from costing more than a few
// tens of MiB of parse tree.
const MaxConfigBytes = 1 << 20

// MaxLimitBytes caps max_file_bytes and max_dynamic_bytes. Larger values
// would let one instruction file be read whole into memory at any size and
// bring `max_file_bytes + 1` (C3) near overflow.
const MaxLimitBytes = 1 << 30

// maxOverrides caps the entries of overrides: every finding is matched
// against them, and a real config has a handful.
const maxOverrides = 256

// Config is the parsed configuration with defaults applied.
type Config struct {
	Path      string // file it was loaded from; "" for defaults
	Version   int    // 1
	Limits    Limits
	Filenames Filenames
	// Ignore holds doublestar globs over slash-separated paths relative to
	// the root, validated with doublestar.ValidatePattern.
	Ignore []string
	// Rules maps a rule id to its severity (Off switches it off). It holds
	// only the rules the file sets: a rule not in the map keeps its own
	// default severity, which the rule table (not the config) knows.
	Rules map[string]severity.Severity
	// Overrides set rule severities for findings on some paths (O1-O4),
	// in the file's order: a later entry wins over an earlier one and
	// over Rules.
	Overrides []Override
	Project   string // memory project key; "" = unset
	// Agents are the agent profiles to resolve (A1), in the profile
	// table's order; rivumi alone by default.
	Agents     []string
	References References

	t *table
	// vals hold the profiles' keys' values, a pointer each by path
	// (Values reads them).
	vals map[string]any
}

// References is the references section (RL021).
type References struct {
	Enabled bool
	// Ignore holds doublestar globs of targets, as Config.Ignore.
	Ignore []string
	// Commands are the tools whose references are checked, in the
	// key's Enum order.
	Commands []string
}

// Override is one entry of overrides: the severities Rules maps (rule
// ids) for findings whose path one of Paths matches (O2).
type Override struct {
	// Paths are doublestar globs as Config.Ignore's, matched as Ignored
	// matches them: a glob matching a parent directory matches too.
	Paths []string
	Rules map[string]severity.Severity
}

// Enabled reports whether the agent profile called name is on.
func (c *Config) Enabled(name string) bool { return slices.Contains(c.Agents, name) }

// Limits are the size limits of C3 and P3: the rules' own type, not a copy.
type Limits = lint.Limits

// Filenames are the instruction file candidates of R2, in priority order.
type Filenames struct {
	Override []string
	Normal   []string
}

// ruleIDs are the known rule ids, lint's table (SPEC §5). A rules key
// outside this set is a config error rather than a no-op, so that a typo
// cannot silence nothing.
func ruleIDs() []string {
	var ids []string
	for _, r := range lint.Rules() {
		ids = append(ids, r.ID)
	}
	return ids
}

// RuleSeverity is the severity the file sets for rule id (lint.Config).
func (c *Config) RuleSeverity(id string) (severity.Severity, bool) {
	s, ok := c.Rules[id]
	return s, ok
}

// SeverityAt is the severity the file sets for rule id's findings on p,
// a path relative to the root (lint.Config, O3): the last override whose
// paths match p and which sets the rule, else rules:.
func (c *Config) SeverityAt(id, p string) (severity.Severity, bool) {
	s, ok := c.Rules[id]
	for _, o := range c.Overrides {
		if v, set := o.Rules[id]; set && matchAny(o.Paths, p) {
			s, ok = v, true
		}
	}
	return s, ok
}

// RuleRuns reports whether rule id can report anything (lint.Config):
// rules: leaves it on, or an override turns it on for some paths.
func (c *Config) RuleRuns(id string) bool {
	if s, ok := c.Rules[id]; !ok || s != severity.Off {
		return true
	}
	for _, o := range c.Overrides {
		if v, set := o.Rules[id]; set && v != severity.Off {
			return true
		}
	}
	return false
}

// RuleLimits are the limits the rules use (lint.Config).
func (c *Config) RuleLimits() lint.Limits { return c.Limits }

// Default returns the configuration used when there is no config file,
// with the sections of profiles (the agent profiles' registry, in its
// order). Each call returns fresh slices and map, so callers may modify
// the result.
func Default(profiles ...Profile) *Config { return defaultOf(newTable(profiles)) }

func defaultOf(t *table) *Config {
	c := &Config{Rules: map[string]severity.Severity{}, t: t, vals: map[string]any{}}
	setDefaults(c) // the table holds every default
	return c
}

// at points at k's value in c: its field, or a profile key's slot.
func (c *Config) at(k *Key) any {
	if k.ref != nil {
		return k.ref(c)
	}
	if v, ok := c.vals[k.Path]; ok {
		return v
	}
	var v any
	switch k.Kind {
	case KindInt:
		v = new(int64)
	case KindRatio:
		v = new(float64)
	case KindString, KindEnum:
		v = new(string)
	case KindBool:
		v = new(bool)
	case KindNames, KindGlobs, KindPatterns, KindChoices:
		v = new([]string)
	default:
		panic("config: profile key " + k.Path + " has a kind a profile cannot use")
	}
	c.vals[k.Path] = v
	return v
}

// Same reports whether c and o hold the same settings, the file's path
// included (the keys they were read with are no setting).
func (c *Config) Same(o *Config) bool {
	x, y := *c, *o
	x.t, y.t = nil, nil
	return reflect.DeepEqual(x, y)
}

// Settings spells every setting of c, the profiles' by path: two configs
// with the same settings give the same text (the preview's watch compares
// it).
func (c *Config) Settings() string {
	x := *c
	x.t, x.vals = nil, nil
	var b strings.Builder
	fmt.Fprintf(&b, "%+v", x)
	for _, k := range slices.Sorted(maps.Keys(c.vals)) {
		fmt.Fprintf(&b, " %s=%v", k, reflect.ValueOf(c.vals[k]).Elem())
	}
	return b.String()
}

// Values are one profile's settings: its section's keys, by name.
type Values struct {
	c    *Config
	name string
}

// Section returns the settings of the profile called name.
func (c *Config) Section(name string) Values { return Values{c, name} }

// get is the value of key; a key the profile did not declare is a
// programming error.
func (v Values) get(key string) any {
	k := v.c.t.lookup(v.name + "." + key)
	if k == nil {
		panic("config: profile " + v.name + " has no key " + key)
	}
	return v.c.at(k)
}

// Int is an integer key's value.
func (v Values) Int(key string) int64 { return *v.get(key).(*int64) }

// String is a string or enum key's value.
func (v Values) String(key string) string { return *v.get(key).(*string) }

// Bool is a boolean key's value.
func (v Values) Bool(key string) bool { return *v.get(key).(*bool) }

// Strings is a list key's value (a fresh copy).
func (v Values) Strings(key string) []string { return slices.Clone(*v.get(key).(*[]string)) }

// Error is a problem in a config file. Line is 1-based, or 0 when the
// problem concerns the whole file (its size or type); reporters can use it
// to annotate the offending line.
type Error struct {
	Name string
	Line int
	Msg  string
	Err  error // underlying cause, if any
}

func (e *Error) Error() string {
	if e.Line <= 0 {
		return e.Name + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Load reads the config file at path and parses it. The file must be a
// regular file of at most MaxConfigBytes; the size is checked before the
// content is parsed, and never more than MaxConfigBytes+1 bytes are read.
// A missing file is an error that satisfies errors.Is(err, fs.ErrNotExist):
// whether that means "use the defaults" is the caller's decision.
func Load(path string, profiles ...Profile) (*Config, error) {
	// Non-blocking open, then a check of the opened descriptor: a FIFO
	// named .rivumi-lint.yaml must not hang the linter (§10), and checking
	// the descriptor rather than the path leaves no stat-then-open race.
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, fmt.Errorf("load config: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("load config: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{Name: path, Msg: fmt.Sprintf("not a regular file (%s); the config must be a plain file", kindOf(st.Mode()))}
	}
	if st.Size() > MaxConfigBytes {
		return nil, &Error{Name: path, Msg: fmt.Sprintf("config file is %d bytes; the limit is %d bytes (1 MiB)", st.Size(), MaxConfigBytes)}
	}
	// The file may grow between Stat and Read: read one byte past the
	// limit so that growth is caught without reading the rest.
	data, err := io.ReadAll(io.LimitReader(f, MaxConfigBytes+1))
	if err != nil {
		return nil, fmt.Errorf("load config %s: %w", path, err)
	}
	if len(data) > MaxConfigBytes {
		return nil, &Error{Name: path, Msg: fmt.Sprintf("config file is more than %d bytes (it grew while being read); the limit is %d bytes (1 MiB)", MaxConfigBytes, MaxConfigBytes)}
	}
	return Parse(path, data, profiles...)
}

func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// Candidates returns the candidate file names in priority order: the
// override names, then the normal ones (R2).
func (c *Config) Candidates() []string {
	out := make([]string, 0, len(c.Filenames.Override)+len(c.Filenames.Normal))
	out = append(out, c.Filenames.Override...)
	return append(out, c.Filenames.Normal...)
}

// Ignored reports whether p, a slash-separated path relative to the root
// ("." or "" for the root itself), is excluded by an ignore glob. A glob
// that matches a parent directory of p excludes p too, so "testdata" and
// "testdata/**" both exclude testdata/a/b. The root is matched as ".", so
// only globs such as "**" or "*" exclude it.
func (c *Config) Ignored(p string) bool { return matchAny(c.Ignore, p) }

// matchAny reports whether a glob of globs matches p or a parent of it:
// the one matcher of ignore: and overrides: (O2).
func matchAny(globs []string, p string) bool {
	if len(globs) == 0 {
		return false
	}
	// Callers pass relative paths; tolerate "./a", "a//b", "a/" and a
	// leading "/" so that they all name the same directory.
	p = strings.TrimLeft(path.Clean(p), "/")
	if p == "" {
		p = "."
	}
	for _, g := range globs {
		if match(g, p) {
			return true
		}
		// Parents, shallow first; the root itself is not a parent here,
		// since a glob matching "." would have matched above only for p=".".
		for i := 0; i < len(p); i++ {
			if p[i] == '/' && match(g, p[:i]) {
				return true
			}
		}
	}
	return false
}

func match(glob, p string) bool {
	// Parse validated the globs; a Config built by hand with a bad glob
	// matches nothing rather than failing every lookup.
	ok, err := doublestar.Match(glob, p)
	return err == nil && ok
}
