// Package agent holds the agent profiles (A1): the loading policy of each
// coding agent that reads a repository's instruction files, as a value.
// The engine (resolve) lists and reads a snapshot once; each profile
// decides over those same listings and reads what its agent would load.
// Rivumi's policy is the engine's own (R2–R8, C1–C5); the other profiles
// are resolved here, over the engine's memo.
package agent

import (
	"fmt"
	"slices"
	"strings"
)

// Profile is one agent's loading policy as the tool shows it: what it is,
// the version its rules were taken from and proven against, and the
// options the config can set for it.
type Profile struct {
	Name    string // as --agent and the config's agents: name it
	Product string // the agent, as its makers name it
	Version string // the pinned version, "" for Rivumi (the spec is the version)
	// Summary says in one line how the agent loads instruction files.
	Summary string
	// Options are the config keys of the profile's own section.
	Options []Option
}

// Option is one setting of a profile: a key of its config section.
type Option struct {
	Key, Default, Doc string
}

// Label names the agent and its version for people: "Codex CLI 0.171.0".
func (p *Profile) Label() string {
	if p.Version == "" {
		return p.Product
	}
	return p.Product + " " + p.Version
}

// The names of the profiles.
const (
	Rivumi  = "rivumi"
	Codex   = "codex"
	Claude  = "claude"
	Copilot = "copilot"
)

// Resolver is one agent profile's resolution over an engine's listings
// and reads (A1): each profile other than Rivumi's (the engine's own) is
// a value of this interface the pipeline runs beside the engine.
type Resolver interface {
	Profile() *Profile
	// View is what the agent loads from directory dir (relative to the
	// root, "" for the root).
	View(dir string) (*View, error)
	// FileState is what the agent does with the file at p whatever the
	// chain; false when p is not one of its files.
	FileState(p string) (Candidate, bool)
	// Names are the names of the files the agent tries in a directory,
	// in its order.
	Names() []string
}

// CodexVersion is the Codex CLI release the codex profile follows, proven
// byte for byte against that release's binary (A5).
const CodexVersion = "0.171.0"

// ClaudeVersion is the Claude Code release the claude profile follows.
const ClaudeVersion = "2.1.328"

// CopilotVersion is the GitHub Copilot CLI release the copilot profile
// follows, taken from runs of that release's binary (#35).
const CopilotVersion = "1.0.102"

var profiles = []*Profile{
	{Name: Rivumi, Product: "Rivumi",
		Summary: "one layer per directory from the root down (overrides first), a user layer; links, non-regular, oversized and non-UTF-8 files rejected whole; the deepest override suppresses the layers above (docs/spec.md R1–R10, C1–C5)",
		Options: []Option{
			{"filenames.override", "[RIVUMI.override.md, AGENTS.override.md]", "override names, highest priority first"},
			{"filenames.normal", "[RIVUMI.md, AGENTS.md]", "normal names"},
			{"limits.max_file_bytes", "32768", "largest file loaded"},
		}},
	{Name: Codex, Product: "Codex CLI", Version: CodexVersion,
		Summary: "from the nearest directory holding a root marker down: per directory the first of AGENTS.override.md, AGENTS.md and the fallback names that is a file after following links; whitespace-only text adds nothing; one shared byte budget, the file crossing it cut and the rest dropped; invalid UTF-8 replaced",
		Options: []Option{
			{"codex.project_doc_max_bytes", "32768", "the chain's shared byte budget; 0 turns project files off"},
			{"codex.project_doc_fallback_filenames", "[]", "names tried after AGENTS.md"},
			{"codex.project_root_markers", "[.git]", "entries that mark where the chain starts; [] for the working directory alone"},
		}},
	{Name: Claude, Product: "Claude Code", Version: ClaudeVersion,
		Summary: "from the top down per directory CLAUDE.md (with its @imports), .claude/CLAUDE.md, unconditional .claude/rules, CLAUDE.local.md; AGENTS.md only where no CLAUDE.md-family file is on the path; links followed; front matter and block HTML comments removed; files over 4 MiB skipped",
		Options: []Option{
			{"claude.instruction_files", "claude-md-or-agents-md", "which files load: the agents-md plugin's instructionFiles"},
			{"claude.md_excludes", "[]", "claudeMdExcludes besides the settings files' (--settings, managed): globs of absolute paths not loaded"},
		}},
	{Name: Copilot, Product: "GitHub Copilot CLI", Version: CopilotVersion,
		Summary: "the Git root, the working directory and the directories between (no Git: the working directory): every one of .github/copilot-instructions.md, AGENTS.md, CLAUDE.md, GEMINI.md, raw, in <custom_instruction> blocks, a text loaded twice dropped; @imports expanded (not through a link); .github/instructions and .claude/rules of the root and the working directory inlined, or listed in a table when conditional",
		Options: []Option{
			{"copilot.custom_instructions_dirs", "[]", "COPILOT_CUSTOM_INSTRUCTIONS_DIRS: not modelled, its views are then not exact"},
		}},
}

// Profiles returns every profile, Rivumi first.
func Profiles() []*Profile { return slices.Clone(profiles) }

// Lookup returns the profile called name, or nil.
func Lookup(name string) *Profile {
	for _, p := range profiles {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Names returns the profiles' names, in the table's order.
func Names() []string {
	var out []string
	for _, p := range profiles {
		out = append(out, p.Name)
	}
	return out
}

// ParseList reads a --agent value: names separated by commas, or all.
// The result is in the table's order, each name once.
func ParseList(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("--agent needs a profile name (%s, or all)", strings.Join(Names(), ", "))
	}
	var given []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "all" {
			return Names(), nil
		}
		if Lookup(f) == nil {
			return nil, fmt.Errorf("unknown agent profile %q: the profiles are %s (or all; `rivumi-lint agents` lists them)", f, strings.Join(Names(), ", "))
		}
		given = append(given, f)
	}
	return Ordered(given), nil
}

// Ordered returns names in the table's order, each once.
func Ordered(names []string) []string {
	var out []string
	for _, p := range profiles {
		if slices.Contains(names, p.Name) {
			out = append(out, p.Name)
		}
	}
	return out
}
