package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/rivumi/rivumi-lint/internal/rootpath"
)

// FuzzFilterLines: the stdio filter (M4) passes only lines the SDK decodes
// as one message, answers every other line it answers with one JSON-RPC
// error object, and loses no line: each passed or answered or dropped as a
// stray response.
func FuzzFilterLines(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		"not json\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n",
		`[{"jsonrpc":"2.0","id":9,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":5,"result":{}}`,
		`{"id":{"a":1},"method":"x"}`,
		"\r\n\n  \n" + strings.Repeat("x", 100),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var pass, out bytes.Buffer
		if err := filterLines(strings.NewReader(in), &pass, &lockedWriter{w: &out}, 64); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(&pass)
		for sc.Scan() {
			if _, err := jsonrpc.DecodeMessage(sc.Bytes()); err != nil {
				t.Fatalf("passed %q, which the SDK refuses: %v", sc.Text(), err)
			}
			if len(sc.Bytes()) > 64+1 {
				t.Fatalf("passed a line of %d bytes, over the limit", len(sc.Bytes()))
			}
		}
		sc = bufio.NewScanner(&out)
		for sc.Scan() {
			var e struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct{ Code int }
			}
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.JSONRPC != "2.0" || (e.Error.Code != -32700 && e.Error.Code != -32600) {
				t.Fatalf("answered %q", sc.Text())
			}
			if !bytes.Equal(e.ID, []byte("null")) {
				if _, err := jsonrpc.DecodeMessage(sc.Bytes()); err != nil {
					t.Fatalf("answered %q, which is no JSON-RPC message: %v", sc.Text(), err)
				}
			}
		}
	})
}

// FuzzTarget: a path argument (M4) is refused, or it is an absolute path
// inside the root with no ".." element that leads nowhere outside it.
func FuzzTarget(f *testing.F) {
	root := f.TempDir()
	outside := f.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		f.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "a", "b"), 0o755); err != nil {
		f.Fatal(err)
	}
	realRoot, err := filepath.EvalSymlinks(root) // macOS: /var is /private/var
	if err != nil {
		f.Fatal(err)
	}
	s := &Server{root: root, realRoot: realRoot}
	for _, a := range []string{".", "a/b", "../x", "out", "out/x", "/", root, root + "/a", "a/../..", "a\\..\\..", "a//b/./", ""} {
		f.Add(a)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		abs, err := s.target(arg)
		if err != nil {
			return
		}
		if !filepath.IsAbs(abs) {
			t.Fatalf("target(%q) = %q, not absolute", arg, abs)
		}
		if _, ok := rootpath.Within(root, abs); !ok {
			t.Fatalf("target(%q) = %q, outside the root", arg, abs)
		}
		for _, el := range strings.Split(filepath.ToSlash(arg), "/") {
			if el == ".." {
				t.Fatalf("target(%q) took a \"..\" element", arg)
			}
		}
		real, err := nearestReal(abs)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := rootpath.Within(realRoot, real); !ok {
			t.Fatalf("target(%q) = %q leads to %s, outside the root", arg, abs, real)
		}
	})
}
