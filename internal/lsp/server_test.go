package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/project"
	"github.com/rivumi/rivumi-lint/internal/report"
)

// bidiLine holds U+202E (RIGHT-TO-LEFT OVERRIDE) after an astral emoji:
// the byte column (6), the UTF-8 character (5) and the UTF-16 character
// (3) of the hidden character all differ.
const bidiLine = "a\U0001F600\u202eb"

// X4: initialize picks UTF-8 when the client offers it, else UTF-16.
func TestInitializeNegotiatesEncodingX4(t *testing.T) {
	for _, tc := range []struct {
		offered []string
		want    string
	}{
		{nil, "utf-16"},
		{[]string{"utf-16"}, "utf-16"},
		{[]string{"utf-32", "utf-8", "utf-16"}, "utf-8"},
	} {
		c := newClient(t)
		caps := map[string]any{}
		if tc.offered != nil {
			caps["general"] = map[string]any{"positionEncodings": tc.offered}
		}
		res := c.initialize("", caps, nil)
		got := res["capabilities"].(map[string]any)["positionEncoding"]
		if got != tc.want {
			t.Errorf("offered %v: positionEncoding %v, want %s", tc.offered, got, tc.want)
		}
		sync := res["capabilities"].(map[string]any)["textDocumentSync"].(map[string]any)
		if sync["change"] != float64(1) {
			t.Errorf("textDocumentSync.change = %v, want 1 (full)", sync["change"])
		}
		if code := c.stop(); code != 0 {
			t.Errorf("exit after shutdown: code %d, want 0", code)
		}
	}
}

// checkJSON is `check --format json PATH` on dir, through the same writer.
func checkJSON(t *testing.T, dir string, paths ...string) []map[string]any {
	t.Helper()
	res, _, err := project.Check(project.Options{Root: dir}, project.Scope{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	write, _ := report.Lookup("json")
	var buf bytes.Buffer
	if err := write(&buf, res, report.Options{}); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out.Findings
}

// X4, RL010: didOpen of an AGENTS.md with a bidi character publishes the
// finding check reports (same rule, same message) at the character, in
// either encoding; a didChange removing it (unsaved) publishes none;
// didClose clears.
func TestDiagnosticsFollowTheTextX4(t *testing.T) {
	for _, enc := range []string{"utf-16", "utf-8"} {
		t.Run(enc, func(t *testing.T) {
			text := "# Rules\n" + bidiLine + "\n"
			dir := newRepo(t, "AGENTS.md", text)
			want := checkJSON(t, dir, filepath.Join(dir, "AGENTS.md"))
			if len(want) != 1 || want[0]["rule"] != "RL010" {
				t.Fatalf("check finds %v, want one RL010", want)
			}
			c := newClient(t)
			c.initialize(dir, map[string]any{"general": map[string]any{"positionEncodings": []string{enc}}}, nil)
			uri := c.open(filepath.Join(dir, "AGENTS.md"), text)
			p := c.waitPublish(uri)
			if len(p.Diagnostics) != 1 {
				t.Fatalf("diagnostics %+v, want one", p.Diagnostics)
			}
			d := p.Diagnostics[0]
			if d.Code != want[0]["rule"] || d.Message != want[0]["message"] {
				t.Errorf("diagnostic %s %q; check says %v %q", d.Code, d.Message, want[0]["rule"], want[0]["message"])
			}
			char := 3 // UTF-16: "a" and the emoji's surrogate pair
			if enc == "utf-8" {
				char = 5
			}
			wantRange := Range{Start: Position{Line: 1, Character: char}, End: Position{Line: 1, Character: char + 1}}
			if enc == "utf-8" {
				wantRange.End.Character = char + 3 // U+202E is three bytes
			}
			if d.Range != wantRange || d.Severity != severityError {
				t.Errorf("range %+v severity %d, want %+v and error", d.Range, d.Severity, wantRange)
			}
			// The fix is unsaved: the disk still holds the character.
			c.change(uri, 2, "# Rules\nab\n")
			if p := c.waitPublish(uri); len(p.Diagnostics) != 0 {
				t.Errorf("after the change: %+v, want none", p.Diagnostics)
			}
			c.change(uri, 3, text)
			if p := c.waitPublish(uri); rules(p.Diagnostics) != "RL010" {
				t.Errorf("after the character came back: %q, want RL010", rules(p.Diagnostics))
			}
			c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
			if p := c.waitPublish(uri); len(p.Diagnostics) != 0 {
				t.Errorf("after didClose: %+v, want an empty publish", p.Diagnostics)
			}
			if code := c.stop(); code != 0 {
				t.Errorf("exit code %d", code)
			}
		})
	}
}

// X4, R5: the hover on an instruction file shows each layer of its
// directory's chain with its state and the budget.
func TestHoverShowsTheChainX4(t *testing.T) {
	dir := newRepo(t,
		"AGENTS.md", "root rules\n",
		"a/b/AGENTS.override.md", "override\n",
		"a/b/AGENTS.md", "shadowed\n",
		"a/c/AGENTS.md", "elsewhere\n")
	if err := os.Symlink("c/AGENTS.md", filepath.Join(dir, "a/AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	path := filepath.Join(dir, "a/b/AGENTS.override.md")
	uri := c.open(path, "override\n")
	c.waitPublish(uri)
	resp := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{}})
	if resp.Error != nil {
		t.Fatal(resp.Error)
	}
	var h hover
	if err := json.Unmarshal(resp.Result, &h); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"`AGENTS.md` (project): suppressed by `a/b/AGENTS.override.md`",
		"`a/AGENTS.md` (project): rejected: RL001, it is a symbolic link to c/AGENTS.md",
		"`a/b/AGENTS.override.md` (project): active",
		"`a/b/AGENTS.md` (project): shadowed by `a/b/AGENTS.override.md`",
	} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
		}
	}
	if h.Contents.Kind != "markdown" {
		t.Errorf("hover kind %q", h.Contents.Kind)
	}
	// P3, #33.14: the budget is check's line, and its numbers add up:
	// rendered + reserved = total, and the share is total's of the limit.
	m := regexp.MustCompile(`Budget \(limits\.max_dynamic_bytes\): (\d+) \+ 8192 reserved = (\d+) of 65536 bytes \((\d+\.\d)%\)\.`).FindStringSubmatch(h.Contents.Value)
	if m == nil {
		t.Fatalf("hover lacks check's budget line:\n%s", h.Contents.Value)
	}
	rendered, _ := strconv.Atoi(m[1])
	total, _ := strconv.Atoi(m[2])
	if rendered == 0 || rendered+8192 != total || m[3] != fmt.Sprintf("%.1f", float64(total)*100/65536) {
		t.Errorf("budget %q does not add up", m[0])
	}
	c.stop()
}

// X4, X1: a quick fix for the hidden character removes it.
func TestCodeActionRemovesHiddenCharacter(t *testing.T) {
	text := "# Rules\n" + bidiLine + "\n"
	dir := newRepo(t, "AGENTS.md", text)
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	uri := c.open(filepath.Join(dir, "AGENTS.md"), text)
	p := c.waitPublish(uri)
	if len(p.Diagnostics) != 1 {
		t.Fatalf("diagnostics %+v", p.Diagnostics)
	}
	resp := c.request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": p.Diagnostics[0].Range, "context": map[string]any{"diagnostics": p.Diagnostics}})
	if resp.Error != nil {
		t.Fatal(resp.Error)
	}
	var actions []CodeAction
	if err := json.Unmarshal(resp.Result, &actions); err != nil {
		t.Fatal(err)
	}
	if len(actions) != 1 || actions[0].Kind != "quickfix" {
		t.Fatalf("code actions %+v, want one quickfix", actions)
	}
	got := applyEdits(t, text, actions[0].Edit.Changes[uri], utf16)
	if want := "# Rules\na\U0001F600b\n"; got != want {
		t.Errorf("the fix gives %q, want %q", got, want)
	}
	c.stop()
}

// applyEdits applies LSP edits (non-overlapping) to text in enc.
func applyEdits(t *testing.T, text string, edits []TextEdit, enc encoding) string {
	t.Helper()
	b := []byte(text)
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		s, e2 := byteOffset(t, b, e.Range.Start, enc), byteOffset(t, b, e.Range.End, enc)
		b = append(b[:s:s], append([]byte(e.NewText), b[e2:]...)...)
	}
	return string(b)
}

// byteOffset inverts encoding.position by search (test only).
func byteOffset(t *testing.T, text []byte, p Position, enc encoding) int {
	t.Helper()
	for off := 0; off <= len(text); off++ {
		if off < len(text) && !utf8.RuneStart(text[off]) {
			continue // inside a character: no position of the editor's
		}
		if enc.position(text, off) == p {
			return off
		}
	}
	t.Fatalf("position %+v not in the text", p)
	return 0
}

// X4, R7, P3: a change made outside the editor to the root's AGENTS.md
// (didChangeWatchedFiles) republishes the diagnostics of a deeper open
// file whose chain it reaches: the budget finding sits on the deepest
// active layer.
func TestWatchedChangeRepublishesDeeperFileR7(t *testing.T) {
	cfg := "version: 1\nlimits:\n  max_dynamic_bytes: 4000\n  reserved_bytes: 0\n"
	dir := newRepo(t, ".rivumi-lint.yaml", cfg, "AGENTS.md", "short\n", "x/y/AGENTS.md", "deep\n")
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	deep := filepath.Join(dir, "x/y/AGENTS.md")
	uri := c.open(deep, "deep\n")
	if p := c.waitPublish(uri); len(p.Diagnostics) != 0 {
		t.Fatalf("before: %+v", p.Diagnostics)
	}
	writeFile(t, filepath.Join(dir, "AGENTS.md"), strings.Repeat("long line of rules\n", 300))
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": uriOf(filepath.Join(dir, "AGENTS.md")), "type": 2}}})
	if p := c.waitPublish(uri); rules(p.Diagnostics) != "RL006" {
		t.Errorf("after the root grew: %q, want RL006 on the deepest layer", rules(p.Diagnostics))
	}
	c.stop()
}

// X4, §8: a broken config (unsaved in the editor, then fixed) is one
// diagnostic on the config file at the line of the error, never a crash.
func TestBrokenConfigIsOneDiagnosticX4(t *testing.T) {
	dir := newRepo(t, "AGENTS.md", "rules\n")
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	agents := c.open(filepath.Join(dir, "AGENTS.md"), "rules\n")
	c.waitPublish(agents)
	cfgPath := filepath.Join(dir, ".rivumi-lint.yaml")
	cfgURI := c.open(cfgPath, "version: 1\nlimits:\n  no_such_key: 3\n")
	p := c.waitPublish(cfgURI)
	if len(p.Diagnostics) != 1 || !strings.Contains(p.Diagnostics[0].Message, "no_such_key") || p.Diagnostics[0].Range.Start.Line != 2 {
		t.Fatalf("config diagnostics %+v, want one at line 3 naming the key", p.Diagnostics)
	}
	// The server still serves.
	c.change(cfgURI, 2, "version: 1\n")
	if p := c.waitPublish(cfgURI); len(p.Diagnostics) != 0 {
		t.Errorf("fixed config: %+v", p.Diagnostics)
	}
	if code := c.stop(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// X4, R1: outside a Git repository the server says so once and serves no
// diagnostics, without failing.
func TestOutsideGitSaysSoOnceX4(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "AGENTS.md"), bidiLine+"\n")
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	raw := c.waitNotification("window/showMessage", nil)
	if !strings.Contains(string(raw), "not in a Git worktree") {
		t.Errorf("message %s", raw)
	}
	c.open(filepath.Join(dir, "AGENTS.md"), bidiLine+"\n")
	c.open(filepath.Join(dir, "sub/AGENTS.md"), bidiLine+"\n")
	// The hover answers (nothing) and no further message or diagnostic
	// came before it: messages are served in order.
	resp := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uriOf(filepath.Join(dir, "AGENTS.md"))}, "position": Position{}})
	if resp.Error != nil || string(resp.Result) != "null" {
		t.Errorf("hover outside Git: %s %v", resp.Result, resp.Error)
	}
	for _, m := range c.pending {
		t.Errorf("unexpected %s %s", m.Method, m.Params)
	}
	if code := c.stop(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// X4: a panic in one request answers it with InternalError and the server
// goes on.
func TestPanicAnswersInternalErrorX4(t *testing.T) {
	c := newClientWith(t, func(s *Server) {
		s.handlers["test/panic"] = func(*Server, json.RawMessage) (any, error) { panic("boom") }
	})
	c.initialize("", map[string]any{}, nil)
	resp := c.request("test/panic", nil)
	if resp.Error == nil || resp.Error.Code != codeInternalError || !strings.Contains(resp.Error.Message, "boom") {
		t.Fatalf("panic answered %+v, want InternalError", resp.Error)
	}
	// The server goes on.
	resp = c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere/AGENTS.md"}, "position": Position{}})
	if resp.Error != nil || string(resp.Result) != "null" {
		t.Errorf("after the panic: %s %v", resp.Result, resp.Error)
	}
	if code := c.stop(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// X4: shutdown then exit ends with 0; exit without shutdown, or the
// input ending, with 1 (the protocol's rule).
func TestExitCodesX4(t *testing.T) {
	c := newClient(t)
	c.initialize("", map[string]any{}, nil)
	c.notify("exit", nil)
	if code := c.exitCode(); code != 1 {
		t.Errorf("exit without shutdown: %d, want 1", code)
	}
	c = newClient(t)
	c.initialize("", map[string]any{}, nil)
	c.in.Close()
	if code := c.exitCode(); code != 1 {
		t.Errorf("input ended: %d, want 1", code)
	}
	c = newClient(t)
	resp := c.request("textDocument/hover", map[string]any{})
	if resp.Error == nil || resp.Error.Code != codeNotInitialized {
		t.Errorf("request before initialize: %+v", resp.Error)
	}
	c.initialize("", map[string]any{}, nil)
	if resp := c.request("shutdown", nil); resp.Error != nil {
		t.Fatal(resp.Error)
	}
	if resp := c.request("textDocument/hover", map[string]any{}); resp.Error == nil || resp.Error.Code != codeInvalidRequest {
		t.Errorf("request after shutdown: %+v", resp.Error)
	}
	c.notify("exit", nil)
	if code := c.exitCode(); code != 0 {
		t.Errorf("exit after shutdown: %d, want 0", code)
	}
}

// X4, C2: a 2 GiB sparse AGENTS.md in the chain is read only up to the
// cap (the server answers), and an unsaved text over
// limits.max_file_bytes is rejected as the file would be (RL003).
func TestOversizedNeverBlocksC2(t *testing.T) {
	dir := newRepo(t, "a/AGENTS.md", "small\n")
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "AGENTS.md"), 2<<30); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	uri := c.open(filepath.Join(dir, "a/AGENTS.md"), "small\n")
	if p := c.waitPublish(uri); len(p.Diagnostics) != 0 {
		t.Errorf("a/AGENTS.md: %+v, want none (RL003 is the root's)", p.Diagnostics)
	}
	c.change(uri, 2, strings.Repeat("x", 40000)+"\n") // the default cap is 32768 bytes
	if p := c.waitPublish(uri); rules(p.Diagnostics) != "RL003" {
		t.Errorf("oversized unsaved text: %q, want RL003", rules(p.Diagnostics))
	}
	c.stop()
}
