package config

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Kind is the type of a key's value: what the parser accepts, what the
// schema says and how `init` writes it.
type Kind int

const (
	// KindSection is a mapping of the keys whose path starts with its own.
	KindSection Kind = iota
	// KindVersion is the format version: the integer 1.
	KindVersion
	// KindInt is an integer from Min to Max.
	KindInt
	// KindRatio is a number greater than 0 and at most 1.
	KindRatio
	// KindString is a string.
	KindString
	// KindNames is a list of candidate file names (R2): single path
	// elements, each once.
	KindNames
	// KindGlobs is a list of doublestar globs relative to the root.
	KindGlobs
	// KindRules maps a rule id of lint's table to a severity.
	KindRules
	// KindAgents is a list of agent profile names (A1), each once.
	KindAgents
	// KindEnum is one of the key's Enum strings.
	KindEnum
	// KindPatterns is a list of glob patterns of another tool, matched
	// against absolute paths (a leading / allowed).
	KindPatterns
	// KindBool is true or false.
	KindBool
	// KindChoices is a list of the key's Enum strings, each once, kept in
	// Enum's order.
	KindChoices
	// KindOverrides is a list of {paths: globs, rules: rules} entries
	// (§8 overrides, O1-O4).
	KindOverrides
)

// Key is one key of .rivumi-lint.yaml (§8). The keys of every config and
// the agent profiles' sections make the one table (table):
// the strict parser accepts exactly these keys and checks their values by
// Kind, Min and Max; the JSON Schema (`rivumi-lint schema`, X3), the file
// `rivumi-lint init` writes (X2) and Default are generated from it.
type Key struct {
	// Path is the dotted path as written in the file: limits.max_file_bytes.
	Path string
	Kind Kind
	// Min and Max bound a KindInt.
	Min, Max int64
	// Doc is one line for the schema's description and init's comment.
	Doc string
	// Enum are a KindEnum's or KindChoices' values.
	Enum []string
	// Def is the default: bool, int, int64, float64, string or []string; nil
	// when the default is "nothing set" (a section, ignore, rules).
	Def any
	// ref points at the key's field in a Config (nil for a section).
	ref func(c *Config) any
	// check runs after a section's keys are read: the checks between two
	// keys. given holds the value node of each key the file sets.
	check func(d *decoder, c *Config, section pair, given map[string]*yaml.Node) error
}

// baseKeys are the keys of every config, in the order the file and the
// messages list them; the agent profiles' sections (Profile) follow the
// agents key.
var baseKeys = []Key{
	{Path: "version", Kind: KindVersion, Def: 1,
		Doc: "Config format version; only 1 exists, and a later one is refused rather than misread.",
		ref: func(c *Config) any { return &c.Version }},
	{Path: "limits", Kind: KindSection,
		Doc: "Size limits of the runtime (C3, P3); set them as the runtime is configured."},
	{Path: "limits.max_file_bytes", Kind: KindInt, Min: 1, Max: MaxLimitBytes, Def: int64(32768),
		Doc: "Largest instruction file in bytes; a larger one is rejected whole (C3, RL003).",
		ref: func(c *Config) any { return &c.Limits.MaxFileBytes }},
	{Path: "limits.max_dynamic_bytes", Kind: KindInt, Min: 1, Max: MaxLimitBytes, Def: int64(65536),
		Doc: "Budget in bytes of the dynamic part of the prompt (P3, RL006).",
		ref: func(c *Config) any { return &c.Limits.MaxDynamicBytes }},
	{Path: "limits.reserved_bytes", Kind: KindInt, Min: 0, Max: MaxLimitBytes - 1, Def: int64(8192),
		Doc: "Bytes of the dynamic budget kept for other sections; less than max_dynamic_bytes (P3).",
		ref: func(c *Config) any { return &c.Limits.ReservedBytes }},
	{Path: "limits.warn_ratio", Kind: KindRatio, Def: 0.8,
		Doc: "Share of the budget above which RL006 warns: greater than 0, at most 1 (P3).",
		ref: func(c *Config) any { return &c.Limits.WarnRatio }},
	{Path: "filenames", Kind: KindSection,
		Doc: "Instruction file names, highest priority first (R2); a name may be in one list only."},
	{Path: "filenames.override", Kind: KindNames, Def: []string{"RIVUMI.override.md", "AGENTS.override.md"},
		Doc: "Override names: such a layer suppresses the layers above it (R4); [] for none.",
		ref: func(c *Config) any { return &c.Filenames.Override }},
	{Path: "filenames.normal", Kind: KindNames, Def: []string{"RIVUMI.md", "AGENTS.md"},
		Doc: "Normal layer names, after the override names (R2); [] for none.",
		ref: func(c *Config) any { return &c.Filenames.Normal }},
	{Path: "ignore", Kind: KindGlobs,
		Doc: "Doublestar globs of paths relative to the root, without a leading / or ./, that are not checked.",
		ref: func(c *Config) any { return &c.Ignore }},
	{Path: "rules", Kind: KindRules,
		Doc: "Severity per rule id (off, notice, warning, error); a rule not set keeps its default."},
	{Path: "overrides", Kind: KindOverrides,
		Doc: "Rule severities for some paths: a list of {paths: [globs], rules: {id or name: severity}}, applied in order, the later winning (O1-O4).",
		ref: func(c *Config) any { return &c.Overrides }},
	{Path: "project", Kind: KindString, Def: "",
		Doc: "The memory project key (P4); empty: unset.",
		ref: func(c *Config) any { return &c.Project }},
	{Path: "agents", Kind: KindAgents, Def: []string{"rivumi"},
		Doc: "Agent profiles to resolve and check (A1), by name; `rivumi-lint agents` lists them.",
		ref: func(c *Config) any { return &c.Agents }},
	{Path: "references", Kind: KindSection,
		Doc: "RL021: the paths and commands instruction files name (docs/references.md)."},
	{Path: "references.enabled", Kind: KindBool, Def: true,
		Doc: "Whether references are extracted and checked at all; false turns RL021 off.",
		ref: func(c *Config) any { return &c.References.Enabled }},
	{Path: "references.ignore", Kind: KindGlobs,
		Doc: "Doublestar globs of reference targets never reported: a path relative to the root, or a make target's, script's or recipe's name.",
		ref: func(c *Config) any { return &c.References.Ignore }},
	{Path: "references.commands", Kind: KindChoices, Def: []string{"make", "npm", "pnpm", "yarn", "bun", "just"},
		Enum: []string{"make", "npm", "pnpm", "yarn", "bun", "just"},
		Doc:  "The commands whose targets, scripts and recipes are checked; [] for none.",
		ref:  func(c *Config) any { return &c.References.Commands }},
}

// The checks between two keys read the table through the parser, so they
// are attached here rather than in Keys' literal (an initialisation cycle).
func init() {
	for i := range baseKeys {
		switch baseKeys[i].Path {
		case "limits":
			baseKeys[i].check = checkLimits
		case "filenames":
			baseKeys[i].check = checkFilenames
		}
	}
}

// Default is the key's default value (a fresh copy of a list), nil when
// the default is that nothing is set.
func (k *Key) Default() any {
	if l, ok := k.Def.([]string); ok {
		return slices.Clone(l)
	}
	return k.Def
}

// Name is the last element of Path.
func (k *Key) Name() string { return k.Path[strings.LastIndexByte(k.Path, '.')+1:] }

// Section is the path of the section holding the key, "" at the top.
func (k *Key) Section() string {
	if i := strings.LastIndexByte(k.Path, '.'); i >= 0 {
		return k.Path[:i]
	}
	return ""
}

// Profile is one agent profile's part of the config: its name, which the
// agents key accepts, and its section's keys, whose paths are relative to
// the section (project_doc_max_bytes); a profile with no keys has no
// section.
type Profile struct {
	Name string
	// Doc is the section's line for the schema and init.
	Doc  string
	Keys []Key
}

// table is the keys of one kind of config: baseKeys with the sections of
// the profiles it was made for, in their order.
type table struct {
	keys   []Key
	agents []string // the profiles' names, for the agents key
}

// newTable is the table with the profiles' sections after the agents key;
// with none, Rivumi's is the only profile.
func newTable(profiles []Profile) *table {
	t := &table{}
	for _, p := range profiles {
		t.agents = append(t.agents, p.Name)
	}
	if len(t.agents) == 0 {
		t.agents = []string{"rivumi"}
	}
	for _, k := range baseKeys {
		t.keys = append(t.keys, k)
		if k.Path != "agents" {
			continue
		}
		for _, p := range profiles {
			if len(p.Keys) == 0 {
				continue
			}
			t.keys = append(t.keys, Key{Path: p.Name, Kind: KindSection, Doc: p.Doc})
			for _, pk := range p.Keys {
				pk.Path = p.Name + "." + pk.Path
				t.keys = append(t.keys, pk)
			}
		}
	}
	return t
}

// keysIn returns the keys directly in section ("" for the top level).
func (t *table) keysIn(section string) []*Key {
	var out []*Key
	for i := range t.keys {
		if t.keys[i].Section() == section {
			out = append(out, &t.keys[i])
		}
	}
	return out
}

// namesIn returns the names of the keys in section, for messages.
func (t *table) namesIn(section string) []string {
	var out []string
	for _, k := range t.keysIn(section) {
		out = append(out, k.Name())
	}
	return out
}

// lookupKey returns the key name in section.
func (t *table) lookupKey(section, name string) *Key {
	for _, k := range t.keysIn(section) {
		if k.Name() == name {
			return k
		}
	}
	return nil
}

// lookup returns the key at path, nil when there is none.
func (t *table) lookup(path string) *Key {
	for i := range t.keys {
		if t.keys[i].Path == path {
			return &t.keys[i]
		}
	}
	return nil
}

// setDefaults fills c with every key's default.
func setDefaults(c *Config) {
	for i := range c.t.keys {
		k := &c.t.keys[i]
		if k.Def == nil || k.Kind == KindSection {
			continue
		}
		switch p := c.at(k).(type) {
		case *bool:
			*p = k.Def.(bool)
		case *int:
			*p = k.Def.(int)
		case *int64:
			*p = k.Def.(int64)
		case *float64:
			*p = k.Def.(float64)
		case *string:
			*p = k.Def.(string)
		case *[]string:
			*p = k.Default().([]string)
		default:
			panic("config: key " + k.Path + " has a field of an unknown type")
		}
	}
}

// Option is a key as `rivumi-lint agents` lists it: its path, its default
// as the file would write it, and its doc.
type Option struct {
	Key, Default, Doc string
}

// Options are the keys at paths of the table with profiles' sections, in
// the order given; a path of no key is a programming error.
func Options(paths []string, profiles ...Profile) []Option {
	t := newTable(profiles)
	var out []Option
	for _, p := range paths {
		k := t.lookup(p)
		if k == nil {
			panic("config: no key " + p)
		}
		def := fmt.Sprint(k.Def)
		if l, ok := k.Def.([]string); ok {
			def = "[" + strings.Join(l, ", ") + "]"
		}
		out = append(out, Option{Key: k.Path, Default: def, Doc: k.Doc})
	}
	return out
}

// SectionPaths are the paths of a profile's keys, in its order.
func (p *Profile) SectionPaths() []string {
	var out []string
	for _, k := range p.Keys {
		out = append(out, p.Name+"."+k.Path)
	}
	return out
}
