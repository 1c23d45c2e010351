//go:build unix

package lsp

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// X4, C3: a FIFO named AGENTS.md, opened in the editor, never blocks the
// server: the entry is judged as the disk holds it (RL002), the overlay
// is not read in its place.
func TestFIFOAgentsNeverBlocksC3(t *testing.T) {
	dir := newRepo(t, "README.md", "x\n")
	fifo := filepath.Join(dir, "AGENTS.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	uri := c.open(fifo, "whatever the editor shows\n")
	if p := c.waitPublish(uri); rules(p.Diagnostics) != "RL002" {
		t.Errorf("FIFO: %q, want RL002", rules(p.Diagnostics))
	}
	resp := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{}})
	if resp.Error != nil || !strings.Contains(string(resp.Result), "rejected: RL002") {
		t.Errorf("hover: %s %v", resp.Result, resp.Error)
	}
	c.stop()
}
