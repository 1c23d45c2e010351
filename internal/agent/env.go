package agent

import "path/filepath"

// Env is where the agents find their user-level files, read from the
// process's environment once per run and handed to every front end, so
// check, preview, fix, the hooks, the language server and the MCP server
// resolve the same views.
type Env struct {
	// CodexHome is where Codex reads its user file ($CODEX_HOME, else
	// ~/.codex); "" for none.
	CodexHome string
	// ClaudeHome is the home directory whose .claude/CLAUDE.md Claude
	// Code reads; "" for none.
	ClaudeHome string
	// CopilotHome is where GitHub Copilot CLI reads the user's files
	// ($HOME/.copilot); "" for none.
	CopilotHome string
	// CopilotCustomDirs is COPILOT_CUSTOM_INSTRUCTIONS_DIRS, which the
	// copilot profile does not model (its views are then not exact).
	CopilotCustomDirs string
}

// EnvFrom finds the agents' homes as the agents do: getenv reads the
// environment, home is the user's home directory (os.UserHomeDir).
func EnvFrom(getenv func(string) string, home func() (string, error)) Env {
	var e Env
	h, err := home()
	if err != nil {
		h = ""
	}
	e.ClaudeHome = h
	if h != "" {
		e.CopilotHome = filepath.Join(h, ".copilot")
	}
	e.CopilotCustomDirs = getenv("COPILOT_CUSTOM_INSTRUCTIONS_DIRS")
	switch c := getenv("CODEX_HOME"); {
	case c != "":
		e.CodexHome = c
	case h != "":
		e.CodexHome = filepath.Join(h, ".codex")
	}
	return e
}
