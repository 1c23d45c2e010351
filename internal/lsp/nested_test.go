package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// hoverText is the hover's Markdown for uri, or the error's message.
func hoverText(t *testing.T, c *client, uri string) (text, errMsg string) {
	t.Helper()
	resp := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{}})
	if resp.Error != nil {
		return "", resp.Error.Message
	}
	var h hover
	if err := json.Unmarshal(resp.Result, &h); err != nil {
		t.Fatal(err)
	}
	return h.Contents.Value, ""
}

// X4, R1: a document inside a submodule or a nested repository of the
// workspace folder belongs to that repository: its diagnostics and hover
// come from that repository's chain and config, as check run there gives
// them, not from the outer root's. A deinitialised submodule's (empty)
// directory is the outer repository's, and the hover's error names the
// directory once.
func TestSubmoduleAndNestedRepositoryR1(t *testing.T) {
	base := t.TempDir()
	src := gittest.At(t, filepath.Join(base, "src"))
	if err := os.MkdirAll(src.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src.Git("init", "-q")
	src.Write("AGENTS.md", "sub rules\n", "notes.md", "notes\n")
	src.Symlink("../notes.md", "d/AGENTS.md")
	src.Git("add", "-A")
	src.Commit("src")
	outer := gittest.At(t, filepath.Join(base, "outer"))
	if err := os.MkdirAll(outer.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	outer.Git("init", "-q")
	outer.Write("AGENTS.md", "outer rules\n")
	outer.Git("add", "-A")
	outer.Commit("outer")
	outer.Git("-c", "protocol.file.allow=always", "submodule", "add", "-q", "../src", "sub")
	outer.Git("-c", "protocol.file.allow=always", "submodule", "add", "-q", "../src", "gone")
	outer.Commit("submodules")
	outer.Git("submodule", "deinit", "-q", "-f", "gone")
	// The nested repository's own config makes RL010 a warning.
	nested := gittest.At(t, filepath.Join(outer.Dir, "nested"))
	writeFile(t, filepath.Join(nested.Dir, ".rivumi-lint.yaml"), "version: 1\nrules:\n  RL010: warning\n")
	nested.Git("init", "-q")
	hidden := "nested " + bidiLine + "\n"
	writeFile(t, filepath.Join(nested.Dir, "AGENTS.md"), hidden)
	dir, err := filepath.EvalSymlinks(outer.Dir)
	if err != nil {
		t.Fatal(err)
	}

	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	subDoc := filepath.Join(dir, "sub/d/AGENTS.md")
	subURI := c.open(subDoc, "notes\n")
	if p := c.waitPublish(subURI); rules(p.Diagnostics) != "RL001" {
		t.Errorf("sub/d/AGENTS.md (a link in the submodule): %+v, want RL001", p.Diagnostics)
	}
	text, errMsg := hoverText(t, c, subURI)
	if errMsg != "" {
		t.Fatalf("hover in the submodule: %s", errMsg)
	}
	for _, want := range []string{"`AGENTS.md` (project): active", "`d/AGENTS.md` (project): rejected: RL001"} {
		if !strings.Contains(text, want) {
			t.Errorf("hover in the submodule lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "sub/") {
		t.Errorf("hover in the submodule shows the outer repository's paths:\n%s", text)
	}

	nestedURI := c.open(filepath.Join(dir, "nested/AGENTS.md"), hidden)
	p := c.waitPublish(nestedURI)
	if rules(p.Diagnostics) != "RL010" || p.Diagnostics[0].Severity != severityWarning {
		t.Errorf("nested/AGENTS.md: %+v, want RL010 as the nested config's warning", p.Diagnostics)
	}
	text, errMsg = hoverText(t, c, nestedURI)
	if errMsg != "" {
		t.Fatalf("hover in the nested repository: %s", errMsg)
	}
	if !strings.Contains(text, "1. `AGENTS.md` (project): active") || strings.Contains(text, "2. ") {
		t.Errorf("hover in the nested repository: want its AGENTS.md alone, got:\n%s", text)
	}

	// The outer root's own document is still the outer project's.
	rootURI := c.open(filepath.Join(dir, "AGENTS.md"), "outer rules\n")
	if p := c.waitPublish(rootURI); len(p.Diagnostics) != 0 {
		t.Errorf("AGENTS.md: %+v, want none", p.Diagnostics)
	}

	// A deinitialised submodule's directory is an ordinary one of the
	// outer repository (R1, #38.8): its chain is the outer one, and a
	// directory missing below it is missing, named once.
	writeFile(t, filepath.Join(dir, "gone/AGENTS.md"), "stray\n")
	text, errMsg = hoverText(t, c, c.open(filepath.Join(dir, "gone/AGENTS.md"), "stray\n"))
	if errMsg != "" {
		t.Fatalf("hover in a deinitialised submodule: %s", errMsg)
	}
	if !strings.Contains(text, "1. `AGENTS.md` (project): active") || !strings.Contains(text, "2. `gone/AGENTS.md` (project): active") {
		t.Errorf("hover in a deinitialised submodule: want the outer chain down to gone, got:\n%s", text)
	}
	goneURI := c.open(filepath.Join(dir, "gone/d/AGENTS.md"), "new\n")
	_, errMsg = hoverText(t, c, goneURI)
	if !strings.Contains(errMsg, "does not exist") || strings.Count(errMsg, "resolve gone/d") != 1 {
		t.Errorf("hover in a missing directory of a deinitialised submodule: error %q, want \"resolve gone/d\" once and the reason", errMsg)
	}
	c.stop()
}
