package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
)

// TestServerReadsTheAgentsUserFiles: the server's Env reaches every run,
// so the codex profile reads $CODEX_HOME's user file as check does (#34):
// one over the 16 MiB this tool reads of a user file is the same error,
// shown once.
func TestServerReadsTheAgentsUserFiles(t *testing.T) {
	home := t.TempDir()
	big, err := os.Create(filepath.Join(home, "AGENTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(17 << 20); err != nil { // sparse: no 17 MiB written
		t.Fatal(err)
	}
	big.Close()
	dir := newRepo(t, "AGENTS.md", "# Rules\n\nRun the tests.\n", ".rivumi-lint.yaml", "agents: [rivumi, codex]\n")
	c := newClientWith(t, func(s *Server) { s.Env = agent.Env{Vars: map[string]string{"CODEX_HOME": home}} })
	c.initialize(dir, map[string]any{}, nil)
	c.open(filepath.Join(dir, "AGENTS.md"), "# Rules\n\nRun the tests.\n")
	raw := c.waitNotification("window/showMessage", nil)
	var m struct{ Message string }
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("window/showMessage %s: %v", raw, err)
	}
	if want := "codex profile: read " + filepath.Join(home, "AGENTS.md"); !strings.Contains(m.Message, want) {
		t.Errorf("message %q\nwant it to name the user file: %s", m.Message, want)
	}
}
