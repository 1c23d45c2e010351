package agent

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestEnvFrom(t *testing.T) {
	home := func() (string, error) { return "/h", nil }
	noHome := func() (string, error) { return "", errors.New("no $HOME") }
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		name   string
		getenv func(string) string
		home   func() (string, error)
		want   Env
	}{
		{"defaults", env(nil), home, Env{CodexHome: filepath.Join("/h", ".codex"), ClaudeHome: "/h", CopilotHome: filepath.Join("/h", ".copilot")}},
		{"CODEX_HOME", env(map[string]string{"CODEX_HOME": "/c"}), home, Env{CodexHome: "/c", ClaudeHome: "/h", CopilotHome: filepath.Join("/h", ".copilot")}},
		// Copilot reads ~/.copilot; the custom directories are passed on
		// for the profile to say its views are not exact.
		{"COPILOT_CUSTOM_INSTRUCTIONS_DIRS", env(map[string]string{"COPILOT_CUSTOM_INSTRUCTIONS_DIRS": "/x,/y"}), home,
			Env{CodexHome: filepath.Join("/h", ".codex"), ClaudeHome: "/h", CopilotHome: filepath.Join("/h", ".copilot"), CopilotCustomDirs: "/x,/y"}},
		{"CODEX_HOME without a home", env(map[string]string{"CODEX_HOME": "/c"}), noHome, Env{CodexHome: "/c"}},
		{"no home at all", env(nil), noHome, Env{}},
	} {
		if got := EnvFrom(c.getenv, c.home); got != c.want {
			t.Errorf("%s: EnvFrom = %+v, want %+v", c.name, got, c.want)
		}
	}
}
