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

// JSON-RPC 2.0: an answer carries the request's id. The SDK decodes a
// numeric id into a float64 and answered 7.5 with 7, 2^53+1 with 2^53,
// 2^63 and 1e30 with -2^63; every id comes back as sent, byte for byte
// (M4), the answers to tools/call and an unknown method too.
func TestStdioEchoesIDsM4(t *testing.T) {
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
		err := s.Run(ctx, Stdio(inR, outW))
		outW.Close()
		done <- err
	}()
	ids := []string{`7.5`, `9007199254740993`, `9223372036854775808`, `1e30`, `-0`, `1.0`, `7`,
		`-9223372036854775809`, `"s\u0041"`, `"a<b>&"`, `0.1e-400`, `1e400`}
	lines := []string{
		`{"jsonrpc":"2.0","id":1E0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	want := []string{`1E0`}
	for _, id := range ids {
		lines = append(lines, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		want = append(want, id)
	}
	lines = append(lines,
		`{"jsonrpc":"2.0","id":2.25,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0", "id" : 3.5 ,"method":"tools/call","params":{"name":"agents","arguments":{}}}`)
	want = append(want, `2.25`, `3.5`)
	go func() {
		for _, l := range lines {
			io.WriteString(inW, l+"\n")
		}
	}()
	var got []string
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	for len(got) < len(want) && sc.Scan() {
		var r struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("the server wrote %q: %v", sc.Text(), err)
		}
		got = append(got, string(r.ID))
	}
	inW.Close()
	<-done
	outR.Close()
	seen := map[string]bool{}
	for _, g := range got {
		seen[g] = true
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no answer with id %s (answers: %v)", w, got)
		}
	}
}

// A cancellation names the serial id the SDK gave the call it cancels; one
// that names no call in flight is not passed (it could name another call's
// serial id).
func TestCancelledMapsIDM4(t *testing.T) {
	var m ids
	line, _ := m.inbound([]byte(`{"jsonrpc":"2.0","id":7.5,"method":"tools/call"}`), true, "tools/call")
	if string(line) != `{"jsonrpc":"2.0","id":1,"method":"tools/call"}` {
		t.Errorf("call rewritten to %s", line)
	}
	line, drop := m.inbound([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7.5,"reason":"x"}}`), false, "notifications/cancelled")
	if drop || string(line) != `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"x"}}` {
		t.Errorf("cancellation rewritten to %s (drop %v)", line, drop)
	}
	if _, drop := m.inbound([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`), false, "notifications/cancelled"); !drop {
		t.Error("a cancellation of no call in flight was passed")
	}
	if out := m.outbound([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n")); string(out) != `{"jsonrpc":"2.0","id":7.5,"result":{}}`+"\n" {
		t.Errorf("answer rewritten to %s", out)
	}
}
