package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// This file drives the server as a hostile or buggy client would (X4):
// framing it must survive, framing it must stop at, and URIs that name
// no local file.

// raw writes one framed message with body as it is.
func (c *client) raw(body string) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatal(err)
	}
}

// X4: a body that is not JSON, a batch, a request whose id is null or an
// object are each answered with an error and an id of null, and the
// stream stays usable; a client's own error response is never answered
// (two peers would echo errors forever); a second initialize is refused.
func TestBadMessagesAnsweredX4(t *testing.T) {
	c := newClient(t)
	c.initialize("", map[string]any{}, nil)
	for _, tc := range []struct {
		name, body string
		code       int
	}{
		{"not JSON", `{x}`, codeParseError},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]`, codeInvalidRequest},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"textDocument/hover","params":{}}`, codeInvalidRequest},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"textDocument/hover","params":{}}`, codeInvalidRequest},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"shutdown"}`, codeInvalidRequest},
		{"method not a string", `{"jsonrpc":"2.0","id":3,"method":5}`, codeInvalidRequest},
	} {
		c.raw(tc.body)
		m := c.next()
		if m.Method != "" || m.ID == nil || string(*m.ID) != "null" || m.Error == nil || m.Error.Code != tc.code {
			t.Errorf("%s: answered %+v (id %s), want error %d with id null", tc.name, m, idOf(m), tc.code)
		}
	}
	// An error response of the client's, with a null id: not answered,
	// so the next message is the answer to the request after it.
	c.raw(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"yours"}}`)
	resp := c.request("initialize", map[string]any{"capabilities": map[string]any{}})
	if len(c.pending) != 0 {
		t.Errorf("a client's error response was answered: %+v", c.pending[0])
	}
	if resp.Error == nil || resp.Error.Code != codeInvalidRequest {
		t.Errorf("second initialize: %+v, want InvalidRequest", resp.Error)
	}
	// A string id is a request id as good as a number.
	c.raw(`{"jsonrpc":"2.0","id":"s-1","method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nowhere/AGENTS.md"},"position":{"line":0,"character":0}}}`)
	if m := c.next(); idOf(m) != `"s-1"` || m.Error != nil {
		t.Errorf("string id: %+v (id %s)", m, idOf(m))
	}
	if code := c.stop(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}

func idOf(m *message) string {
	if m == nil || m.ID == nil {
		return "<none>"
	}
	return string(*m.ID)
}

// X4: framing the server cannot resynchronise after ends the session
// with exit code 1 and a log line saying why; a header that never ends
// is not buffered past a bound.
func TestBrokenFramingStopsX4(t *testing.T) {
	for _, tc := range []struct {
		name, input, log string
	}{
		{"no Content-Length", "Content-Type: application/vscode-jsonrpc\r\n\r\n{}", `bad Content-Length ""`},
		{"negative Content-Length", "Content-Length: -5\r\n\r\n{}", `bad Content-Length "-5"`},
		{"not a number", "Content-Length: 1e3\r\n\r\n{}", `bad Content-Length "1e3"`},
		{"Content-Length past the input", "Content-Length: 999999999999\r\n\r\n{}", "read body"},
		{"not a header line", "hello\r\n\r\n", "not a \"Name: value\" field"},
		{"long header line", "X-Junk: " + strings.Repeat("a", 16<<10) + "\r\nContent-Length: 2\r\n\r\n{}", "over 8192 bytes"},
		{"header without an end", strings.Repeat("X-Junk: a\r\n", 2000), "over 8192 bytes"},
		{"endless header line", strings.Repeat("a", 200<<10), "over 8192 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t)
			go func() {
				c.in.Write([]byte(tc.input))
				c.in.Close()
			}()
			if code := c.exitCode(); code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if log := c.log.String(); !strings.Contains(log, tc.log) {
				t.Errorf("log %.300q does not say %q", log, tc.log)
			}
		})
	}
}

// X4: nothing after exit is served.
func TestNothingAfterExitX4(t *testing.T) {
	c := newClient(t)
	c.initialize("", map[string]any{}, nil)
	if resp := c.request("shutdown", nil); resp.Error != nil {
		t.Fatal(resp.Error)
	}
	go func() {
		// The server may stop reading at exit: errors are expected.
		for _, b := range []string{`{"jsonrpc":"2.0","method":"exit"}`, `{"jsonrpc":"2.0","id":9,"method":"shutdown"}`} {
			fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
		}
	}()
	if code := c.exitCode(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	for m := range c.msgs {
		t.Errorf("message after exit: %+v", m)
	}
}

// X4, C2: a message over the size limit (a document of more than 64
// MiB) is read past, the user is told the diagnostics may be stale, and
// the server goes on.
func TestTooLargeMessageWarnsX4(t *testing.T) {
	c := newClient(t)
	c.initialize("", map[string]any{}, nil)
	body := `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"text":"` + strings.Repeat("x", maxMessageBytes) + `"}}`
	c.raw(body)
	body = ""
	resp := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere/AGENTS.md"}, "position": Position{}})
	if resp.Error != nil {
		t.Errorf("after the large message: %v", resp.Error)
	}
	var said []string
	for _, m := range c.pending {
		if m.Method == "window/showMessage" {
			said = append(said, string(m.Params))
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], "stale") {
		t.Errorf("the user was told %q, want one warning that diagnostics may be stale", said)
	}
	c.stop()
}

// X4: only an absolute path on this machine is a document the server
// checks.
func TestPathOfX4(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the cases are POSIX paths")
	}
	for _, tc := range []struct{ uri, want string }{
		{"file:///r/AGENTS.md", "/r/AGENTS.md"},
		{"file://localhost/r/AGENTS.md", "/r/AGENTS.md"},
		{"file:///r/a%20b/%41GENTS.md", "/r/a b/AGENTS.md"},
		{"file:///r/a/../AGENTS.md", "/r/AGENTS.md"},
		{"file:///C:/r/AGENTS.md", "/C:/r/AGENTS.md"}, // a Windows URI names no file here
		{"file:AGENTS.md", ""},
		{"file:", ""},
		{"file://", ""},
		{"file://server/share/AGENTS.md", ""},
		{"untitled:Untitled-1", ""},
		{"AGENTS.md", ""},
		{"file:///r/%zz", ""},
	} {
		got, err := pathOf(tc.uri)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s: path %q, want an error", tc.uri, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.uri, got, err, tc.want)
		}
	}
}

// X4: hover and code actions on a document that is no file (untitled:)
// or was never opened answer with nothing, not an error.
func TestRequestsOnUnknownDocumentsX4(t *testing.T) {
	c := newClient(t)
	c.initialize("", map[string]any{}, nil)
	for _, uri := range []string{"untitled:Untitled-1", "file:///nowhere/AGENTS.md"} {
		td := map[string]any{"uri": uri}
		resp := c.request("textDocument/hover", map[string]any{"textDocument": td, "position": Position{Line: 1 << 30, Character: 1 << 30}})
		if resp.Error != nil || string(resp.Result) != "null" {
			t.Errorf("hover on %s: %s %v, want null", uri, resp.Result, resp.Error)
		}
		resp = c.request("textDocument/codeAction", map[string]any{"textDocument": td,
			"range": Range{End: Position{Line: 1 << 30}}, "context": map[string]any{"diagnostics": []any{}}})
		var actions []json.RawMessage
		if resp.Error != nil || json.Unmarshal(resp.Result, &actions) != nil || len(actions) != 0 {
			t.Errorf("codeAction on %s: %s %v, want []", uri, resp.Result, resp.Error)
		}
	}
	c.stop()
}

// X4, R1: a document outside every workspace folder is checked in the
// worktree around it; a URI with ".." is the file it names, published
// under the URI the client used; a directory opened as a document gets no
// findings and does not stop the server.
func TestDocumentsOutsideFoldersX4(t *testing.T) {
	dir := newRepo(t, "AGENTS.md", "# R\n", "a/AGENTS.md", "x\n")
	other := newRepo(t, "AGENTS.md", "# O\n")
	c := newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	u := c.open(filepath.Join(dir, "a"), "# dir\n"+bidiLine+"\n")
	if p := c.waitPublish(u); len(p.Diagnostics) != 0 {
		t.Errorf("a directory: %+v, want no diagnostics", p.Diagnostics)
	}
	u = c.open(filepath.Join(other, "AGENTS.md"), "# O\n"+bidiLine+"\n")
	if p := c.waitPublish(u); rules(p.Diagnostics) != "RL010" {
		t.Errorf("outside the folder: %q, want RL010", rules(p.Diagnostics))
	}
	u = strings.TrimSuffix(uriOf(dir), "/") + "/a/../AGENTS.md"
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": u, "languageId": "markdown", "version": 1, "text": bidiLine + "\n"}})
	if p := c.waitPublish(u); rules(p.Diagnostics) != "RL010" || p.Diagnostics[0].Range.Start != (Position{0, 3}) {
		t.Errorf("a/../AGENTS.md: %+v, want RL010 at 0:3", p.Diagnostics)
	}
	if code := c.stop(); code != 0 {
		t.Errorf("exit code %d; log:\n%s", code, c.log.String())
	}
}
