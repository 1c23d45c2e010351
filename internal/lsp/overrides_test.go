package lsp

import (
	"path/filepath"
	"testing"
)

// X4, O3: the server gets the config's per-path overrides from the
// pipeline: RL010 off under docs/ publishes nothing for docs/AGENTS.md,
// while src/AGENTS.md, with the same text, still has its diagnostic.
func TestOverrideTurnsDiagnosticOffO3(t *testing.T) {
	text := "# Rules\n" + bidiLine + "\n"
	cfg := "version: 1\noverrides:\n  - paths: [\"docs/**\"]\n    rules:\n      hidden-unicode: \"off\"\n"
	dir := newRepo(t, ".rivumi-lint.yaml", cfg, "docs/AGENTS.md", text, "src/AGENTS.md", text)
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	src := c.open(filepath.Join(dir, "src/AGENTS.md"), text)
	if p := c.waitPublish(src); rules(p.Diagnostics) != "RL010" {
		t.Fatalf("src/AGENTS.md: %q, want RL010", rules(p.Diagnostics))
	}
	docs := c.open(filepath.Join(dir, "docs/AGENTS.md"), text)
	if p := c.waitPublish(docs); len(p.Diagnostics) != 0 {
		t.Errorf("docs/AGENTS.md: %+v, want none (RL010 off there)", p.Diagnostics)
	}
	if code := c.stop(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}
