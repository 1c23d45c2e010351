package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// codexConfig turns the codex profile on with a 10-byte budget and one
// fallback name, so that a few short files show every state.
const codexConfig = "version: 1\nagents: [rivumi, codex]\ncodex:\n  project_doc_max_bytes: 10\n  project_doc_fallback_filenames: [CLAUDE.md]\n"

// agentsRepo is a repository whose files Codex and Rivumi load
// differently. The root AGENTS.md is a link to docs/x.md (2 bytes), which
// leaves 8 bytes of Codex's budget to each chain below the root.
func agentsRepo(t *testing.T, cfg string) string {
	t.Helper()
	dir := newRepo(t,
		".rivumi-lint.yaml", cfg,
		"docs/x.md", "x\n",
		"t/AGENTS.md", "twenty-six bytes of rules\n",
		"t/u/AGENTS.md", "deeper\n",
		"e/AGENTS.override.md", "  \n",
		"e/AGENTS.md", "hidden\n",
		"r/RIVUMI.md", "rivumi\n",
		"f/CLAUDE.md", "claude\n",
		"n/AGENTS.md", "beside\n",
		"o/AGENTS.md", "loop\n")
	for link, target := range map[string]string{
		"AGENTS.md":            "docs/x.md",
		"n/AGENTS.override.md": "missing.md",
		"o/AGENTS.override.md": "AGENTS.override.md",
	} {
		p := filepath.Join(dir, link)
		os.Remove(p)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// openHover opens rel in dir and returns its hover's text ("" for none).
func openHover(t *testing.T, c *client, dir, rel string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	text, _ := os.ReadFile(p) // a dangling link is opened empty
	uri := c.open(p, string(text))
	c.waitPublish(uri)
	got, errMsg := hoverText(t, c, uri)
	if errMsg != "" {
		t.Fatalf("hover on %s: %s", rel, errMsg)
	}
	return got
}

// X4, A3: with the codex profile on (the config's agents:), the hover on
// an instruction file shows beside Rivumi's chain what Rivumi and Codex
// each do with the file: Codex's state from the chain of the file's
// directory, for Rivumi's names and for the names Codex alone reads.
func TestHoverShowsCodexStateA3(t *testing.T) {
	dir := agentsRepo(t, codexConfig)
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	codex := "- Codex CLI 0.171.0: "
	for _, tc := range []struct {
		rel, rivumi, codex string
	}{
		{"AGENTS.md", "rejected: RL001, it is a symbolic link to docs/x.md", "follows the link to `docs/x.md`: loaded"},
		{"t/AGENTS.md", "active", "cut at byte 8 of 26 (line 1)"},
		{"t/u/AGENTS.md", "active", "dropped (the budget is used up)"},
		{"e/AGENTS.override.md", "active", "empty: adds nothing"},
		{"e/AGENTS.md", "shadowed by `e/AGENTS.override.md`", "shadowed by `e/AGENTS.override.md`"},
		{"r/RIVUMI.md", "active", "ignored: not one of Codex CLI's names"},
		{"f/CLAUDE.md", "ignored: not one of Rivumi's names (filenames.override, filenames.normal)", "loaded"},
		{"n/AGENTS.override.md", "rejected: RL001, it is a symbolic link to missing.md", "not a file"},
		{"n/AGENTS.md", "shadowed by `n/AGENTS.override.md`", "loaded"},
		{"o/AGENTS.md", "shadowed by `o/AGENTS.override.md`",
			"error: Codex CLI loads no project file (following o/AGENTS.override.md loops through links (too many levels of symbolic links))"},
	} {
		t.Run(tc.rel, func(t *testing.T) {
			got := openHover(t, c, dir, tc.rel)
			for _, want := range []string{
				"**rivumi-lint: the chain of ", // Rivumi's chain, as before
				"**The enabled agents on `" + tc.rel + "`**",
				"\n- Rivumi: " + tc.rivumi + "\n",
				"\n" + codex + tc.codex + "\n",
			} {
				if !strings.Contains(got, want) {
					t.Errorf("hover lacks %q:\n%s", want, got)
				}
			}
		})
	}
	c.stop()
}

// X4, A3: with project_doc_max_bytes 0 Codex reads no project file; a
// name that is not a file is still said to be one (Codex tries the next).
func TestHoverCodexOffA3(t *testing.T) {
	dir := agentsRepo(t, "version: 1\nagents: [rivumi, codex]\ncodex:\n  project_doc_max_bytes: 0\n")
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	for rel, want := range map[string]string{
		"t/AGENTS.md":          `off: project\_doc\_max\_bytes is 0: Codex reads no project file`,
		"n/AGENTS.override.md": "not a file",
	} {
		if got := openHover(t, c, dir, rel); !strings.Contains(got, "\n- Codex CLI 0.171.0: "+want+"\n") {
			t.Errorf("hover on %s lacks %q:\n%s", rel, want, got)
		}
	}
	c.stop()
}

// X4: with Rivumi alone on, the hover has no agents part, and a name only
// Codex would read is no instruction file (no hover).
func TestHoverRivumiAloneA3(t *testing.T) {
	dir := agentsRepo(t, "version: 1\nagents: [rivumi]\ncodex:\n  project_doc_fallback_filenames: [CLAUDE.md]\n")
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	got := openHover(t, c, dir, "t/AGENTS.md")
	if !strings.Contains(got, "**rivumi-lint: the chain of `t`**") || strings.Contains(got, "agents") || strings.Contains(got, "Codex") {
		t.Errorf("Rivumi-only hover:\n%s", got)
	}
	if got := openHover(t, c, dir, "f/CLAUDE.md"); got != "" {
		t.Errorf("hover on CLAUDE.md with Rivumi alone:\n%s", got)
	}
	c.stop()
}

// X4, A4: the diagnostics of an open file carry the codex profile's rules
// (RL015 codex-cut, RL016 codex-empty-override, RL017 agents-differ) as
// check reports them: same rules, same messages, at the cut.
func TestDiagnosticsCarryCodexRulesA4(t *testing.T) {
	dir := agentsRepo(t, codexConfig)
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	for _, tc := range []struct {
		rel, want string
		at        Position
	}{
		{"t/AGENTS.md", "RL015", Position{Line: 0, Character: 8}},
		{"t/u/AGENTS.md", "RL015", Position{}},
		{"e/AGENTS.override.md", "RL016", Position{}},
		{"r/RIVUMI.md", "RL017", Position{}},
		{"f/CLAUDE.md", "RL017", Position{}},
	} {
		t.Run(tc.rel, func(t *testing.T) {
			p := filepath.Join(dir, tc.rel)
			var want []map[string]any
			for _, f := range checkJSON(t, dir, p) {
				if f["path"] == tc.rel && f["rule"] == tc.want {
					want = append(want, f)
				}
			}
			if len(want) != 1 {
				t.Fatalf("check finds %v on %s, want one %s", want, tc.rel, tc.want)
			}
			text, _ := os.ReadFile(p)
			uri := c.open(p, string(text))
			var got []Diagnostic
			for _, d := range c.waitPublish(uri).Diagnostics {
				if d.Code == tc.want {
					got = append(got, d)
				}
			}
			if len(got) != 1 || got[0].Message != want[0]["message"] || got[0].Range.Start != tc.at {
				t.Errorf("%s diagnostics %+v; check says %q at %v", tc.want, got, want[0]["message"], tc.at)
			}
		})
	}
	// Codex reads the editor's unsaved texts too: t/AGENTS.md made short
	// fits the budget, and f/CLAUDE.md, a name only Codex reads, made
	// long is cut.
	for _, tc := range []struct{ rel, text, want string }{
		{"t/AGENTS.md", "short\n", ""},
		{"f/CLAUDE.md", "claude and much more\n", "RL015"},
	} {
		uri := uriOf(filepath.Join(dir, tc.rel))
		c.change(uri, 2, tc.text)
		var got []string
		for {
			p := c.waitPublish(uri)
			if p.Version != nil && *p.Version == 2 {
				for _, d := range p.Diagnostics {
					if d.Code == "RL015" {
						got = append(got, d.Code)
					}
				}
				break
			}
		}
		if strings.Join(got, ",") != tc.want {
			t.Errorf("%s changed to %q: RL015 diagnostics %v, want %q", tc.rel, tc.text, got, tc.want)
		}
	}
	c.stop()
}

// A7 for the claude profile: the hover on an AGENTS.md a CLAUDE.md turns
// off says so, and a CLAUDE.md (no name of Rivumi's) gets a hover too.
func TestHoverShowsClaudeStateA7(t *testing.T) {
	dir := newRepo(t,
		".rivumi-lint.yaml", "version: 1\nagents: [rivumi, claude]\n",
		"CLAUDE.md", "root claude\n",
		"a/AGENTS.md", "a agents\n")
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	if got := openHover(t, c, dir, "a/AGENTS.md"); !strings.Contains(got, "- Claude Code 2.1.328: ignored: turned off by CLAUDE.md") {
		t.Errorf("a/AGENTS.md: the hover does not say Claude Code turns it off:\n%s", got)
	}
	if got := openHover(t, c, dir, "CLAUDE.md"); !strings.Contains(got, "- Claude Code 2.1.328: loaded") {
		t.Errorf("CLAUDE.md: no hover with Claude Code's state:\n%s", got)
	}
}
