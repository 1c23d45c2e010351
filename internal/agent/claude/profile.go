package claude

import "github.com/rivumi/rivumi-lint/internal/agent"

// Name is the profile's name, as --agent and the config's agents: say it.
const Name = "claude"

// Version is the Claude Code release the profile follows.
const Version = "2.1.328"

// Profile is the claude profile.
var Profile = &agent.Profile{Name: Name, Product: "Claude Code", Version: Version,
	Summary: "from the top down per directory CLAUDE.md (with its @imports), .claude/CLAUDE.md, unconditional .claude/rules, CLAUDE.local.md; AGENTS.md only where no CLAUDE.md-family file is on the path; links followed; front matter and block HTML comments removed; files over 4 MiB skipped"}
