package codex

import "github.com/rivumi/rivumi-lint/internal/agent"

// Name is the profile's name, as --agent and the config's agents: say it.
const Name = "codex"

// Version is the Codex CLI release the profile follows, proven byte for
// byte against that release's binary (A5).
const Version = "0.171.0"

// Profile is the codex profile.
var Profile = &agent.Profile{Name: Name, Product: "Codex CLI", Version: Version,
	Summary:      "from the nearest directory holding a root marker down: per directory the first of AGENTS.override.md, AGENTS.md and the fallback names that is a file after following links; whitespace-only text adds nothing; one shared byte budget, the file crossing it cut and the rest dropped; invalid UTF-8 replaced",
	OneSlot:      true,
	SizeNote:     "it has no size limit of its own, only the chain's shared budget",
	OverrideNote: "its overrides take only their own directory's slot"}
