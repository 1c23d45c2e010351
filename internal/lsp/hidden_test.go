package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func codeActions(t *testing.T, c *client, uri string, r Range) []CodeAction {
	t.Helper()
	resp := c.request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": r, "context": map[string]any{"diagnostics": []any{}}})
	if resp.Error != nil {
		t.Fatal(resp.Error)
	}
	var actions []CodeAction
	if err := json.Unmarshal(resp.Result, &actions); err != nil {
		t.Fatal(err)
	}
	return actions
}

// X4, RL010: every hidden character gets a diagnostic, adjacent ones
// too, not only the first the finding names; the first carries check's
// message, and the quick fix at any of them removes all.
func TestEveryHiddenCharacterMarkedRL010(t *testing.T) {
	text := "# Rules\na\u200bb\n\u202e\u2066x\n"
	dir := newRepo(t, "AGENTS.md", text)
	want := checkJSON(t, dir, filepath.Join(dir, "AGENTS.md"))
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	uri := c.open(filepath.Join(dir, "AGENTS.md"), text)
	p := c.waitPublish(uri)
	at := []Range{
		{Start: Position{Line: 1, Character: 1}, End: Position{Line: 1, Character: 2}},
		{Start: Position{Line: 2, Character: 0}, End: Position{Line: 2, Character: 1}},
		{Start: Position{Line: 2, Character: 1}, End: Position{Line: 2, Character: 2}},
	}
	if rules(p.Diagnostics) != "RL010,RL010,RL010" {
		t.Fatalf("diagnostics %+v, want three RL010", p.Diagnostics)
	}
	for i, d := range p.Diagnostics {
		if d.Range != at[i] || d.Severity != severityError {
			t.Errorf("diagnostic %d at %+v severity %d, want %+v, error", i, d.Range, d.Severity, at[i])
		}
	}
	if p.Diagnostics[0].Message != want[0]["message"] {
		t.Errorf("first message %q, check says %q", p.Diagnostics[0].Message, want[0]["message"])
	}
	if m := p.Diagnostics[2].Message; !strings.Contains(m, "U+2066") || !strings.Contains(m, "3 of 3") {
		t.Errorf("third message %q, want the code point and 3 of 3", m)
	}
	actions := codeActions(t, c, uri, at[2])
	if len(actions) != 1 {
		t.Fatalf("code actions at the third: %+v", actions)
	}
	if got := applyEdits(t, text, actions[0].Edit.Changes[uri], utf16); got != "# Rules\nab\nx\n" {
		t.Errorf("the fix gives %q", got)
	}
	c.stop()
}
