package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// M4 on the wire: lines that are no message (not JSON, no JSON-RPC, a
// batch, over the limit) are answered with an error and the session goes
// on; a stray response is dropped; a server/discover without the new
// protocol's metadata is refused as method not found, and the session is
// then initialized and served. Messages as Claude Code and Codex send them
// are in internal/integration/mcp_test.go.
func TestStdioSkipsBadLinesM4(t *testing.T) {
	root := fixture(t).Dir
	s, err := New(Options{Root: root, Home: t.TempDir(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		err := s.Run(ctx, stdio{in: inR, out: outW, max: 1024})
		outW.Close() // a session that ended early ends the reading below
		done <- err
	}()
	lines := []string{
		`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{}}`,
		`not json`,
		`{"foo":1}`,
		`{"id":7,"method":5}`,
		`[{"jsonrpc":"2.0","id":9,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":5,"result":{}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/list","params":` + strings.Repeat(" ", 2000) + `{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		``,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"instructions","arguments":{"path":"services/api"}}}`,
	}
	go func() {
		for _, l := range lines {
			io.WriteString(inW, l+"\n")
		}
	}()
	type reply struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	var got []string
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r reply
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("the server wrote %q: %v", sc.Text(), err)
		}
		code := 0
		if r.Error != nil {
			code = r.Error.Code
		}
		got = append(got, string(r.ID)+" "+itoa(code))
		if string(r.ID) == "2" {
			if r.Result.IsError {
				t.Errorf("the tool call after the bad lines failed: %s", sc.Text())
			}
			break
		}
	}
	inW.Close()
	if err := <-done; err != nil && ctx.Err() == nil {
		t.Logf("Run: %v", err)
	}
	outR.Close()
	want := map[string]bool{`"d" -32601`: true, "null -32700": true, "null -32600": true, "7 -32600": true, "1 0": true, "2 0": true}
	seen := map[string]int{}
	for _, g := range got {
		seen[g]++
		if !want[g] {
			t.Errorf("unexpected answer %s (all: %v)", g, got)
		}
	}
	// not json and the long line (-32700), {"foo":1} and the batch (-32600).
	if seen["null -32700"] != 2 || seen["null -32600"] != 2 || seen[`"d" -32601`] != 1 || seen["7 -32600"] != 1 || seen["1 0"] != 1 {
		t.Errorf("answers %v", got)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
