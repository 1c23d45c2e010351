package config

import (
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

// Key is one key of .rivumi-lint.yaml (§8). Keys is the one table of them:
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
	// def is the default: bool, int, int64, float64, string or []string; nil
	// when the default is "nothing set" (a section, ignore, rules).
	def any
	// ref points at the key's field in a Config (nil for a section).
	ref func(c *Config) any
	// check runs after a section's keys are read: the checks between two
	// keys. given holds the value node of each key the file sets.
	check func(d *decoder, c *Config, section pair, given map[string]*yaml.Node) error
}

// Keys is the table, in the order the file and the messages list them.
var Keys = []Key{
	{Path: "version", Kind: KindVersion, def: 1,
		Doc: "Config format version; only 1 exists, and a later one is refused rather than misread.",
		ref: func(c *Config) any { return &c.Version }},
	{Path: "limits", Kind: KindSection,
		Doc: "Size limits of the runtime (C3, P3); set them as the runtime is configured."},
	{Path: "limits.max_file_bytes", Kind: KindInt, Min: 1, Max: MaxLimitBytes, def: int64(32768),
		Doc: "Largest instruction file in bytes; a larger one is rejected whole (C3, RL003).",
		ref: func(c *Config) any { return &c.Limits.MaxFileBytes }},
	{Path: "limits.max_dynamic_bytes", Kind: KindInt, Min: 1, Max: MaxLimitBytes, def: int64(65536),
		Doc: "Budget in bytes of the dynamic part of the prompt (P3, RL006).",
		ref: func(c *Config) any { return &c.Limits.MaxDynamicBytes }},
	{Path: "limits.reserved_bytes", Kind: KindInt, Min: 0, Max: MaxLimitBytes - 1, def: int64(8192),
		Doc: "Bytes of the dynamic budget kept for other sections; less than max_dynamic_bytes (P3).",
		ref: func(c *Config) any { return &c.Limits.ReservedBytes }},
	{Path: "limits.warn_ratio", Kind: KindRatio, def: 0.8,
		Doc: "Share of the budget above which RL006 warns: greater than 0, at most 1 (P3).",
		ref: func(c *Config) any { return &c.Limits.WarnRatio }},
	{Path: "filenames", Kind: KindSection,
		Doc: "Instruction file names, highest priority first (R2); a name may be in one list only."},
	{Path: "filenames.override", Kind: KindNames, def: []string{"RIVUMI.override.md", "AGENTS.override.md"},
		Doc: "Override names: such a layer suppresses the layers above it (R4); [] for none.",
		ref: func(c *Config) any { return &c.Filenames.Override }},
	{Path: "filenames.normal", Kind: KindNames, def: []string{"RIVUMI.md", "AGENTS.md"},
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
	{Path: "project", Kind: KindString, def: "",
		Doc: "The memory project key (P4); empty: unset.",
		ref: func(c *Config) any { return &c.Project }},
	{Path: "agents", Kind: KindAgents, def: []string{"rivumi"},
		Doc: "Agent profiles to resolve and check (A1), by name; `rivumi-lint agents` lists them.",
		ref: func(c *Config) any { return &c.Agents }},
	{Path: "codex", Kind: KindSection,
		Doc: "The codex profile's settings (A2): set them as Codex's config.toml sets them."},
	{Path: "codex.project_doc_max_bytes", Kind: KindInt, Min: 0, Max: MaxLimitBytes, def: int64(32768),
		Doc: "Codex's budget in bytes for the whole chain of project files; 0 turns them off.",
		ref: func(c *Config) any { return &c.Codex.MaxBytes }},
	{Path: "codex.project_doc_fallback_filenames", Kind: KindNames, def: []string{},
		Doc: "Names Codex tries after AGENTS.md in each directory; [] for none.",
		ref: func(c *Config) any { return &c.Codex.Fallbacks }},
	{Path: "codex.project_root_markers", Kind: KindNames, def: []string{".git"},
		Doc: "Entries whose directory starts Codex's chain; [] for the working directory alone.",
		ref: func(c *Config) any { return &c.Codex.RootMarkers }},
	{Path: "claude", Kind: KindSection,
		Doc: "The claude profile's settings (A2 for Claude Code): set them as the users' Claude Code settings set them."},
	{Path: "claude.instruction_files", Kind: KindEnum, def: "claude-md-or-agents-md",
		Enum: []string{"claude-md-or-agents-md", "claude-md", "claude-md-and-agents-md", "managed-only"},
		Doc:  "Which files Claude Code loads (its agents-md plugin's instructionFiles): AGENTS.md only where no CLAUDE.md exists on the path (the default), CLAUDE.md only, both, or managed files only.",
		ref:  func(c *Config) any { return &c.Claude.InstructionFiles }},
	{Path: "claude.md_excludes", Kind: KindPatterns, def: []string{},
		Doc: "More of Claude Code's claudeMdExcludes, besides those of the settings files the profile reads: globs matched against each file's absolute path.",
		ref: func(c *Config) any { return &c.Claude.Excludes }},
	{Path: "claude.external_imports", Kind: KindBool, def: false,
		Doc: "Whether the users approved this project's imports from outside the working directory (~/.claude.json's hasClaudeMdExternalIncludesApproved): Claude Code then loads them; unapproved, it skips them.",
		ref: func(c *Config) any { return &c.Claude.ExternalImports }},
	{Path: "copilot", Kind: KindSection,
		Doc: "The copilot profile's settings (#35): what the users' GitHub Copilot CLI environment changes."},
	{Path: "copilot.custom_instructions_dirs", Kind: KindPatterns, def: []string{},
		Doc: "The users' COPILOT_CUSTOM_INSTRUCTIONS_DIRS (absolute directories), not modelled yet: when any is set here or in the environment, every copilot view is not exact.",
		ref: func(c *Config) any { return &c.Copilot.CustomDirs }},
	{Path: "references", Kind: KindSection,
		Doc: "RL021: the paths and commands instruction files name (docs/references.md)."},
	{Path: "references.enabled", Kind: KindBool, def: true,
		Doc: "Whether references are extracted and checked at all; false turns RL021 off.",
		ref: func(c *Config) any { return &c.References.Enabled }},
	{Path: "references.ignore", Kind: KindGlobs,
		Doc: "Doublestar globs of reference targets never reported: a path relative to the root, or a make target's, script's or recipe's name.",
		ref: func(c *Config) any { return &c.References.Ignore }},
	{Path: "references.commands", Kind: KindChoices, def: []string{"make", "npm", "pnpm", "yarn", "bun", "just"},
		Enum: []string{"make", "npm", "pnpm", "yarn", "bun", "just"},
		Doc:  "The commands whose targets, scripts and recipes are checked; [] for none.",
		ref:  func(c *Config) any { return &c.References.Commands }},
}

// The checks between two keys read the table through the parser, so they
// are attached here rather than in Keys' literal (an initialisation cycle).
func init() {
	lookupKey("", "limits").check = checkLimits
	lookupKey("", "filenames").check = checkFilenames
}

// Default is the key's default value (a fresh copy of a list), nil when
// the default is that nothing is set.
func (k *Key) Default() any {
	if l, ok := k.def.([]string); ok {
		return slices.Clone(l)
	}
	return k.def
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

// keysIn returns the keys directly in section ("" for the top level).
func keysIn(section string) []*Key {
	var out []*Key
	for i := range Keys {
		if Keys[i].Section() == section {
			out = append(out, &Keys[i])
		}
	}
	return out
}

// namesIn returns the names of the keys in section, for messages.
func namesIn(section string) []string {
	var out []string
	for _, k := range keysIn(section) {
		out = append(out, k.Name())
	}
	return out
}

// lookupKey returns the key name in section.
func lookupKey(section, name string) *Key {
	for _, k := range keysIn(section) {
		if k.Name() == name {
			return k
		}
	}
	return nil
}

// setDefaults fills c with every key's default.
func setDefaults(c *Config) {
	for i := range Keys {
		k := &Keys[i]
		if k.ref == nil || k.def == nil {
			continue
		}
		switch p := k.ref(c).(type) {
		case *bool:
			*p = k.def.(bool)
		case *int:
			*p = k.def.(int)
		case *int64:
			*p = k.def.(int64)
		case *float64:
			*p = k.def.(float64)
		case *string:
			*p = k.def.(string)
		case *[]string:
			*p = k.Default().([]string)
		default:
			panic("config: key " + k.Path + " has a field of an unknown type")
		}
	}
}
