package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// client drives a Server over in-memory pipes as an editor would.
type client struct {
	t      testing.TB
	in     *io.PipeWriter
	out    *writer
	msgs   chan *message
	code   chan int
	nextID int
	// pending are notifications read while waiting for something else.
	pending []*message
	log     *syncBuffer
}

// hangGuard bounds every wait: a server that never answers fails the
// test instead of hanging it (a bound, not a timing assertion).
const hangGuard = 60 * time.Second

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newClient(t testing.TB) *client { return newClientWith(t, nil) }

// newClientWith lets setup change the server before it serves.
func newClientWith(t testing.TB, setup func(*Server)) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, in: inW, out: &writer{w: inW}, msgs: make(chan *message, 1024), code: make(chan int, 1), log: &syncBuffer{}}
	srv := New(inR, outW, c.log)
	if setup != nil {
		setup(srv)
	}
	go func() {
		code := srv.Serve()
		outW.Close()
		inR.Close()
		c.code <- code
	}()
	go func() {
		r := bufio.NewReader(outR)
		for {
			m, err := readMessage(r)
			if err != nil {
				close(c.msgs)
				return
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

func (c *client) next() *message {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatalf("the server closed its output; its log:\n%s", c.log.String())
		}
		return m
	case <-time.After(hangGuard):
		c.t.Fatalf("no message from the server within %v; its log:\n%s", hangGuard, c.log.String())
	}
	return nil
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.out.notify(method, params); err != nil {
		c.t.Fatal(err)
	}
}

// request sends a request and returns its response; notifications that
// arrive meanwhile are kept for waitPublish.
func (c *client) request(method string, params any) *message {
	c.t.Helper()
	c.nextID++
	id := json.RawMessage(fmt.Sprint(c.nextID))
	raw, err := json.Marshal(params)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.out.write(&message{ID: &id, Method: method, Params: raw}); err != nil {
		c.t.Fatal(err)
	}
	for {
		m := c.next()
		if m.Method == "" && m.ID != nil && string(*m.ID) == string(id) {
			return m
		}
		c.pending = append(c.pending, m)
	}
}

// waitNotification returns the next notification of method that pred
// accepts, skipping others.
func (c *client) waitNotification(method string, pred func(json.RawMessage) bool) json.RawMessage {
	c.t.Helper()
	for {
		var m *message
		if len(c.pending) > 0 {
			m, c.pending = c.pending[0], c.pending[1:]
		} else {
			m = c.next()
		}
		if m.Method == method && (pred == nil || pred(m.Params)) {
			return m.Params
		}
	}
}

// waitPublish returns the next diagnostics published for uri.
func (c *client) waitPublish(uri string) publishDiagnosticsParams {
	c.t.Helper()
	var p publishDiagnosticsParams
	raw := c.waitNotification("textDocument/publishDiagnostics", func(raw json.RawMessage) bool {
		var q publishDiagnosticsParams
		return json.Unmarshal(raw, &q) == nil && q.URI == uri
	})
	if err := json.Unmarshal(raw, &p); err != nil {
		c.t.Fatal(err)
	}
	return p
}

// initialize runs the handshake; caps are the client capabilities.
func (c *client) initialize(rootDir string, caps map[string]any, initOpts any) map[string]any {
	c.t.Helper()
	params := map[string]any{"processId": nil, "capabilities": caps, "initializationOptions": initOpts}
	if rootDir != "" {
		params["workspaceFolders"] = []any{map[string]any{"uri": uriOf(rootDir), "name": "w"}}
		params["rootUri"] = uriOf(rootDir)
	}
	resp := c.request("initialize", params)
	if resp.Error != nil {
		c.t.Fatalf("initialize: %v", resp.Error)
	}
	var res map[string]any
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		c.t.Fatal(err)
	}
	c.notify("initialized", map[string]any{})
	return res
}

func (c *client) open(path, text string) string {
	c.t.Helper()
	uri := uriOf(path)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
	return uri
}

func (c *client) change(uri string, version int, text string) {
	c.t.Helper()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"text": text}}})
}

// stop runs shutdown and exit and returns the exit code.
func (c *client) stop() int {
	c.t.Helper()
	if resp := c.request("shutdown", nil); resp.Error != nil {
		c.t.Fatalf("shutdown: %v", resp.Error)
	}
	c.notify("exit", nil)
	return c.exitCode()
}

func (c *client) exitCode() int {
	c.t.Helper()
	select {
	case code := <-c.code:
		return code
	case <-time.After(hangGuard):
		c.t.Fatalf("the server did not exit within %v", hangGuard)
	}
	return -1
}

// newRepo is a Git worktree with the files of pathContent (pairs).
func newRepo(t testing.TB, pathContent ...string) string {
	t.Helper()
	r := gittest.New(t)
	r.Write(pathContent...)
	dir, err := filepath.EvalSymlinks(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func rules(ds []Diagnostic) string {
	var ids []string
	for _, d := range ds {
		ids = append(ids, d.Code)
	}
	return strings.Join(ids, ",")
}
