package copilot

import "github.com/rivumi/rivumi-lint/internal/agent"

// Name is the profile's name, as --agent and the config's agents: say it.
const Name = "copilot"

// Version is the GitHub Copilot CLI release the profile follows, taken
// from runs of that release's binary (#35).
const Version = "1.0.102"

// Profile is the copilot profile.
var Profile = &agent.Profile{Name: Name, Product: "GitHub Copilot CLI", Version: Version,
	Summary: "the Git root, the working directory and the directories between (no Git: the working directory): every one of .github/copilot-instructions.md, AGENTS.md, CLAUDE.md, GEMINI.md, raw, in <custom_instruction> blocks, a text loaded twice dropped; @imports expanded (not a GEMINI.md's); .github/instructions and .claude/rules of the root and the working directory inlined, or listed in a table when conditional"}
