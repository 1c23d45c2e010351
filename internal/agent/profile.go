// Package agent holds what every agent profile shares (A1): the loading
// policy of each coding agent that reads a repository's instruction files
// is a package of its own below this one, behind one registry
// (internal/profiles). The engine (resolve) lists and reads a snapshot
// once; each profile decides over those same listings and reads what its
// agent would load. Rivumi's policy is the engine's own (R2–R8, C1–C5).
package agent

// Profile is one agent's loading policy as the tool shows it: what it is
// and the version its rules were taken from and proven against.
type Profile struct {
	Name    string // as --agent and the config's agents: name it
	Product string // the agent, as its makers name it
	Version string // the pinned version, "" for Rivumi (the spec is the version)
	// Summary says in one line how the agent loads instruction files.
	Summary string
	// OneSlot says the agent takes one file per directory (Codex): the
	// file compared with Rivumi's layer is the directory's last candidate
	// that is not shadowed; else its first.
	OneSlot bool
	// SizeNote says why the agent loads a file Rivumi finds too large,
	// when it has a reason worth saying ("" for none).
	SizeNote string
	// OverrideNote says why the agent still loads the layers a Rivumi
	// override suppresses ("" for none).
	OverrideNote string
}

// Label names the agent and its version for people: "Codex CLI 0.171.0".
func (p *Profile) Label() string {
	if p.Version == "" {
		return p.Product
	}
	return p.Product + " " + p.Version
}

// Rivumi is the name of Rivumi's own profile, the engine's policy: the
// one every run has unless the agents are chosen.
const Rivumi = "rivumi"

// RivumiProfile is Rivumi's profile.
var RivumiProfile = &Profile{Name: Rivumi, Product: "Rivumi",
	Summary: "one layer per directory from the root down (overrides first), a user layer; links, non-regular, oversized and non-UTF-8 files rejected whole; the deepest override suppresses the layers above (docs/spec.md R1–R10, C1–C5)"}

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
