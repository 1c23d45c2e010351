// Package view is the preview as plain data (P5, P6): the value
// preview.Build makes and report's preview writers write, and the watch
// loop's reload event. It holds no pipeline: report imports it, and none of
// the Git readers, through it. Field names and JSON tags are the preview's
// JSON document (docs/preview.md): added, never renamed.
package view

import (
	"time"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/skills"
)

// Version is the version of the preview's JSON document.
const Version = 1

// Section kinds.
const (
	KindStable  = "stable"  // text belongs to the runtime: named, not shown
	KindDynamic = "dynamic" // rendered here (P2)
	KindTask    = "task"    // the user's task: named, not shown
)

// Section is one section of the prompt.
type Section struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	// Included is whether the prompt holds the section. A dynamic section
	// with nothing to say (no active layer, no skills, no memory entry) is
	// left out; stable sections and the task are always included.
	Included bool `json:"included"`
	// Bytes is the rendered size of a dynamic section; 0 otherwise.
	Bytes int `json:"bytes"`
	// Text is the rendered section, byte for byte (format v1); "" for a
	// stable section, the task, or a section left out.
	Text string `json:"text"`
	// Note says why a section is not shown or left out.
	Note string `json:"note"`
}

// Budget is what the dynamic sections take of limits.max_dynamic_bytes (P3).
// In the preview every dynamic section is known, so reserved_bytes (which
// stands in for the sections check cannot know) is not used.
type Budget struct {
	Sections  []BudgetItem `json:"sections"` // every dynamic section, in order, 0 when left out
	Total     int          `json:"total"`
	Limit     int64        `json:"limit"`     // limits.max_dynamic_bytes
	Remaining int64        `json:"remaining"` // limit - total; negative when over
	Warn      int64        `json:"warn"`      // warn_ratio × limit, rounded down
	Status    string       `json:"status"`    // ok, warning (above warn) or over (above limit)
}

// BudgetItem is one section's share.
type BudgetItem struct {
	Name  string `json:"name"`
	Bytes int    `json:"bytes"`
}

// Summary counts the findings of a preview.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Notices  int `json:"notices"`
}

// Preview is what the model would see from one directory, and why: the
// plain value preview.Build makes and report's preview writers write.
type Preview struct {
	Version     int       `json:"version"`
	Directory   string    `json:"directory"`   // relative to the root, "." for the root
	Fingerprint string    `json:"fingerprint"` // R8
	Sections    []Section `json:"sections"`
	// Layers are every considered layer of the chain in order, with state,
	// reason and bytes, exactly as check's JSON reports them (R5).
	Layers    []lint.Layer   `json:"layers"`
	Skills    []Skill        `json:"skills"`
	Workspace Workspace      `json:"workspace"`
	Memory    Memory         `json:"memory"`
	Budget    Budget         `json:"budget"`
	Findings  []lint.Finding `json:"findings"` // check's rules over this chain, plus RL013
	Summary   Summary        `json:"summary"`
	Notes     []string       `json:"notes"`
	// Agents are the other enabled agent profiles' views of the
	// directory (A3); absent while Rivumi alone is on.
	Agents []Agent `json:"agents,omitempty"`
}

// Agent is what one agent profile loads from the directory (A3).
type Agent struct {
	Agent   string `json:"agent"`   // the profile: codex
	Product string `json:"product"` // Codex CLI
	Version string `json:"version"` // the pinned version
	// Start is the chain's first directory (its root marker's), relative
	// to the root, "." for the root.
	Start string `json:"start"`
	// Exact is whether Text is byte for byte what the agent gets;
	// Inexact says why not (a link out of the repository).
	Exact   bool   `json:"exact"`
	Inexact string `json:"inexact,omitempty"`
	// Lost is why the agent loads no project file at all, "" when it does.
	Lost string `json:"lost,omitempty"`
	// User is the user-level file the agent reads, "" for none.
	User  string      `json:"user,omitempty"`
	Files []AgentFile `json:"files"`
	// Bytes and Text are the instruction message, byte for byte; "" when
	// the agent sends none.
	Bytes int    `json:"bytes"`
	Text  string `json:"text"`
}

// AgentFile is one candidate an agent considers, in chain order.
type AgentFile struct {
	Path  string `json:"path"`
	State string `json:"state"` // loaded, truncated, dropped, empty, shadowed, not a file, outside, error, disabled
	Bytes int64  `json:"bytes"` // the file's size; -1 when not known
	Kept  int64  `json:"kept"`  // bytes that enter the text
	Link  string `json:"link,omitempty"`
	// Line and Column are where a truncation cuts.
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Reason string `json:"reason"`
	// Label is how the agent labels the file in its message, and Shown
	// the path it shows, when they apply (Claude Code's "Contents of").
	Label string `json:"label,omitempty"`
	Shown string `json:"shown,omitempty"`
}

// Agent returns the view of the named profile, or false.
func (p *Preview) Agent(name string) (Agent, bool) {
	for _, a := range p.Agents {
		if a.Agent == name {
			return a, true
		}
	}
	return Agent{}, false
}

// Section returns the named section, or false when the preview has none
// of that name (preview.SectionNames are the names).
func (p *Preview) Section(name string) (Section, bool) {
	for _, s := range p.Sections {
		if s.Name == name {
			return s, true
		}
	}
	return Section{}, false
}

// Skill is one entry of .rivumi/skills as the preview decided it (P4b).
type Skill = skills.Skill

// Memory is what the preview knows about the explicit memory file (P4).
type Memory struct {
	// Path is the file as shown: ~/… under the home directory, relative to
	// the root inside it, else absolute; "" when there is no memory file.
	Path     string `json:"path"`
	Project  string `json:"project"`  // the project key entries are matched against
	Lines    int    `json:"lines"`    // lines read
	Selected int    `json:"selected"` // entries selected (user preferences + this project's)
	Rendered int    `json:"rendered"` // entries rendered: the last 20 selected
	Corrupt  int    `json:"corrupt"`  // corrupt lines (each an RL013 finding)
	// Note says why there is no memory, when there is none.
	Note string `json:"note,omitempty"`
}

// Workspace is what the workspace section shows (P5).
type Workspace struct {
	Branch string `json:"branch"` // a branch name, "(detached at 0123456789ab)" or "unknown"
	State  string `json:"state"`  // clean, dirty or unknown
}

// Event is one reload event of the watch loop (P6).
type Event struct {
	Event string    `json:"event"` // always "reload"
	Time  time.Time `json:"time"`
	// Valid is true when the new state was rendered, false when it is
	// invalid and the last valid render stays.
	Valid bool `json:"valid"`
	// Reason says what changed (valid) or why the new state is invalid.
	Reason string `json:"reason"`
	// Fingerprint is the new state's R8 fingerprint; "" when the directory
	// could not be resolved at all.
	Fingerprint string `json:"fingerprint"`
	// Shown is the fingerprint of the render on screen after the event.
	Shown string `json:"shown"`
}
