package integration

// `rivumi-lint mcp` driven by real MCP clients (M1–M8): the MCP inspector's
// command line calling every tool, and two agents as hosts, offline: Codex
// CLI (`codex debug prompt-input` starts the servers of its config to name
// their tools in the model input) and Claude Code (its request to the
// loopback recorder lists the servers' tools). Each host starts the server
// through a wrapper that records both directions of the stdio stream, so
// the tests see the messages the host really sent, with no test hook in the
// server.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/profiles"
	"github.com/rivumi/rivumi-lint/internal/shell"
)

const (
	inspectorVersion = "1.0.3"
	inspectorVar     = "RIVUMI_MCP_INSPECTOR"
	inspectorHint    = "install it with `npm install --prefix \"$HOME/.cache/rivumi-lint/mcp-inspector-" + inspectorVersion +
		"\" @modelcontextprotocol/inspector-cli@" + inspectorVersion + "` and `export " + inspectorVar +
		"=\"$HOME/.cache/rivumi-lint/mcp-inspector-" + inspectorVersion + "/node_modules/.bin/mcp-inspector-cli\"` (.ci/run does both)"
)

// mcpTools are the server's tools (M1).
var mcpTools = []string{"agents", "check", "explain_rule", "instructions"}

// mcpInspector is the pinned inspector CLI: a skip without integration, a
// failure with the install hint when it is missing or another version.
func mcpInspector(t *testing.T) string {
	t.Helper()
	needIntegration(t, "the MCP inspector test")
	bin := os.Getenv(inspectorVar)
	if bin == "" {
		t.Fatalf("the MCP inspector CLI is not installed (%s unset): %s", inspectorVar, inspectorHint)
	}
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		t.Fatalf("%s=%s: %v: %s", inspectorVar, bin, err, inspectorHint)
	}
	// The bin is build/cli.js of the package; its package.json says the version.
	b, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(real)), "package.json"))
	var pkg struct{ Name, Version string }
	if err == nil {
		err = json.Unmarshal(b, &pkg)
	}
	if err != nil || pkg.Name != "@modelcontextprotocol/inspector-cli" || pkg.Version != inspectorVersion {
		t.Fatalf("%s=%s is not @modelcontextprotocol/inspector-cli %s (%s %s, %v): %s", inspectorVar, bin, inspectorVersion, pkg.Name, pkg.Version, err, inspectorHint)
	}
	return bin
}

// mcpRepo is a repository with a two-layer chain, a Claude file and a
// file RL004 rejects.
func mcpRepo(t *testing.T) string {
	t.Helper()
	return newRepo(t, map[string]string{
		"AGENTS.md":               "# Root\nUse tabs.\n",
		"services/api/AGENTS.md":  "API rules.\n",
		"services/api/CLAUDE.md":  "Claude API rules.\n",
		"services/api/handler.go": "package api\n",
		"bad/AGENTS.md":           "caf\xe9\n",
	})
}

// mcpWrapper writes a script that starts `rivumi-lint mcp ARGS` with its
// standard input and output copied to in and out (one JSON-RPC message a
// line), and returns the script and the two files.
func mcpWrapper(t *testing.T, bin string, args ...string) (script, in, out string) {
	t.Helper()
	dir := t.TempDir()
	in, out, script = filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "rivumi-mcp")
	words := []string{shell.Quote(bin), "mcp"}
	for _, a := range args {
		words = append(words, shell.Quote(a))
	}
	body := fmt.Sprintf("#!/bin/sh\ntee %s | %s | tee %s\n", shell.Quote(in), strings.Join(words, " "), shell.Quote(out))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, in, out
}

// rpc is one JSON-RPC message of a transcript.
type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func transcript(t *testing.T, path string) []rpc {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("transcript: %v (the host never started the server?)", err)
	}
	var out []rpc
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var m rpc
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("transcript %s: %q: %v", path, sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// methods are the requests' methods in order.
func methods(ms []rpc) []string {
	var out []string
	for _, m := range ms {
		if m.Method != "" {
			out = append(out, m.Method)
		}
	}
	return out
}

// answer is the response to the request with id, or nil.
func answer(ms []rpc, id json.RawMessage) *rpc {
	for i, m := range ms {
		if m.Method == "" && bytes.Equal(m.ID, id) {
			return &ms[i]
		}
	}
	return nil
}

// checkHandshake asserts the server answered every request the host sent
// (a server/discover with a result or a clean error), and that the host
// initialized the session and listed the tools, whose answer names them all.
func checkHandshake(t *testing.T, in, out string) {
	t.Helper()
	reqs, resps := transcript(t, in), transcript(t, out)
	got := methods(reqs)
	// A host of protocol 2026-07-28 (Claude Code) sends server/discover
	// instead of initialize.
	if !slices.Contains(got, "initialize") && !slices.Contains(got, "server/discover") || !slices.Contains(got, "tools/list") {
		t.Fatalf("the host sent %v: no initialize (or server/discover) and tools/list", got)
	}
	for _, r := range reqs {
		if r.Method == "" || r.ID == nil {
			continue // a notification
		}
		a := answer(resps, r.ID)
		if a == nil {
			t.Errorf("%s (id %s) got no answer", r.Method, r.ID)
			continue
		}
		if a.Error != nil && r.Method != "server/discover" {
			t.Errorf("%s: error %d %s", r.Method, a.Error.Code, a.Error.Message)
		}
		if r.Method == "tools/list" {
			var lt struct{ Tools []struct{ Name string } }
			json.Unmarshal(a.Result, &lt)
			var names []string
			for _, tl := range lt.Tools {
				names = append(names, tl.Name)
			}
			slices.Sort(names)
			if !slices.Equal(names, mcpTools) {
				t.Errorf("tools/list answered %v, want %v", names, mcpTools)
			}
		}
	}
	t.Logf("the host sent %v", got)
}

// inspector runs the inspector CLI against the server for one method.
// `mcp-inspector-cli --cli ARGS` (build/cli.js) only starts `node
// build/index.js ARGS`; the test starts that itself, one node process a
// call instead of two. index.js finds its own package.json by a path
// relative to the working directory (../package.json), so it runs in its
// build directory and the server is given --root.
func inspector(t *testing.T, insp, bin, root string, environ []string, args ...string) (result, map[string]any) {
	t.Helper()
	real, _ := filepath.EvalSymlinks(insp)
	build := filepath.Dir(real)
	all := append([]string{filepath.Join(build, "index.js"), bin, "mcp", "--root", root}, args...)
	r := run(t, build, environ, nil, "node", all...)
	var v map[string]any
	if r.code == 0 {
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
			t.Fatalf("inspector %v: stdout is no JSON object: %v\n%s", args, err, r)
		}
	}
	return r, v
}

// M1–M4, M7 with a real client: the inspector lists the tools and calls
// each; the answers are what the command line gives for the same question.
func TestMCPInspector(t *testing.T) {
	insp := mcpInspector(t)
	bin := rivumiLint(t)
	root := mcpRepo(t)
	home := t.TempDir() // the server and the commands share it: no user layer
	environ := withoutVar(env(t, "HOME="+home), "CODEX_HOME", "RIVUMI_HOME")

	r, v := inspector(t, insp, bin, root, environ, "--method", "tools/list")
	if r.code != 0 {
		t.Fatalf("tools/list: %s", r)
	}
	var names []string
	for _, tl := range v["tools"].([]any) {
		names = append(names, tl.(map[string]any)["name"].(string))
	}
	slices.Sort(names)
	if !slices.Equal(names, mcpTools) {
		t.Errorf("tools/list: %v, want %v", names, mcpTools)
	}

	cli := func(args ...string) string {
		t.Helper()
		r := run(t, root, environ, nil, bin, args...)
		if r.code > 1 {
			t.Fatalf("rivumi-lint %v: %s", args, r)
		}
		return r.stdout
	}
	call := func(tool string, args ...string) map[string]any {
		t.Helper()
		a := []string{"--method", "tools/call", "--tool-name", tool}
		for _, kv := range args {
			a = append(a, "--tool-arg", kv)
		}
		r, v := inspector(t, insp, bin, root, environ, a...)
		if r.code != 0 {
			t.Fatalf("%s %v: %s", tool, args, r)
		}
		return v
	}
	structured := func(v map[string]any) map[string]any {
		t.Helper()
		if v["isError"] == true {
			t.Fatalf("error result: %v", v["content"])
		}
		s, ok := v["structuredContent"].(map[string]any)
		if !ok {
			t.Fatalf("no structuredContent: %v", v)
		}
		return s
	}

	// Each run of the inspector takes a few seconds of node: the claude
	// profile and staged are left to the unit tests.
	for _, agent := range []string{"rivumi", "codex"} {
		s := structured(call("instructions", "path=services/api/handler.go", "agent="+agent))
		want := cli("preview", "--agent", agent, "--section", "instructions", "services/api")
		if s["directory"] != "services/api" || s["text"] != want || want == "" {
			t.Errorf("instructions %s: directory %v text %q, want services/api and preview's %q", agent, s["directory"], s["text"], want)
		}
	}

	s := structured(call("check", `paths=["bad","services"]`))
	got, _ := json.Marshal(s)
	want := cli("check", "--format", "json", "bad", "services")
	if !jsonSame(t, got, []byte(want)) || !strings.Contains(want, `"rule": "RL004"`) {
		t.Errorf("check: structured %s\nwant check --format json's %s", got, want)
	}

	rl := call("explain_rule", "rule=invalid-utf8")
	if txt := contentText(rl); txt != cli("rules", "RL004") {
		t.Errorf("explain_rule: %q, want rules RL004's %q", txt, cli("rules", "RL004"))
	}
	if p := structured(call("agents"))["profiles"].([]any); len(p) != len(profiles.Names()) {
		t.Errorf("agents: %v", p)
	}

	// M4: hostile arguments are error results, an unknown tool an error.
	for _, args := range [][]string{{"instructions", "path=../outside"}, {"check", `paths=["/"]`}} {
		v := call(args[0], args[1:]...)
		if v["isError"] != true {
			t.Errorf("%v: not an error result: %v", args, v)
		}
	}
	if r, _ := inspector(t, insp, bin, root, environ, "--method", "tools/call", "--tool-name", "write_file"); r.code == 0 || !strings.Contains(r.stdout+r.stderr, "unknown tool") {
		t.Errorf("an unknown tool: %s", r)
	}
	if st := git(t, root, "status", "--porcelain", "--ignored"); st != "" {
		t.Errorf("the tools changed the worktree (R10):\n%s", st)
	}
}

// contentText is a result's text content.
func contentText(v map[string]any) string {
	var b strings.Builder
	for _, c := range v["content"].([]any) {
		if m := c.(map[string]any); m["type"] == "text" {
			b.WriteString(m["text"].(string))
		}
	}
	return b.String()
}

func jsonSame(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ca, _ := json.Marshal(x)
	cb, _ := json.Marshal(y)
	return bytes.Equal(ca, cb)
}

// withoutVar drops the named variables from an environment.
func withoutVar(environ []string, names ...string) []string {
	return slices.DeleteFunc(environ, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(names, k)
	})
}

// M8, Codex as host: with the server in $CODEX_HOME/config.toml, `codex
// debug prompt-input` starts it, initializes it, lists its tools and names
// its namespace, with the server's instructions, in the model input.
func TestMCPCodexHost(t *testing.T) {
	codex := codexBinary(t)
	bin := rivumiLint(t)
	root := mcpRepo(t)
	script, in, out := mcpWrapper(t, bin)
	home := t.TempDir()
	cfg := fmt.Sprintf("[mcp_servers.rivumi]\ncommand = %q\nargs = []\ncwd = %q\n", script, root)
	writeFiles(t, home, map[string]string{"config.toml": cfg})
	ctx, cancel := context.WithTimeout(context.Background(), codexTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "debug", "prompt-input", "hi")
	cmd.Dir = root
	cmd.Env = env(t, "CODEX_HOME="+home, "HOME="+t.TempDir(), "PWD="+root)
	codexProcessGroup(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("codex debug prompt-input: %v\n%s", err, stderr.Bytes())
	}
	if !strings.Contains(stdout.String(), `mcp__rivumi: rivumi-lint knows which instruction files`) {
		t.Errorf("the model input names no mcp__rivumi namespace with the server's instructions:\n%.3000s", stdout.String())
	}
	checkHandshake(t, in, out)
}

// M8, Claude Code as host: with --mcp-config and --strict-mcp-config, its
// request lists every tool as mcp__rivumi__TOOL; whatever it sends first
// (server/discover) is answered cleanly.
func TestMCPClaudeHost(t *testing.T) {
	claude := claudeBinary(t)
	bin := rivumiLint(t)
	root := mcpRepo(t)
	needClaudeCleanAbove(t, root)
	script, in, out := mcpWrapper(t, bin) // Claude Code starts it in the project: no --root
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"rivumi": map[string]any{"type": "stdio", "command": script, "args": []string{}}}})
	file := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(file, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	// In -p mode Claude Code connects --mcp-config servers beside the
	// first request unless MCP_CONNECTION_NONBLOCKING=0: the run then
	// waits for the server, as an interactive session does. By default it
	// defers MCP tools behind its ToolSearch tool, naming them in a text;
	// ENABLE_TOOL_SEARCH=false sends each with its schema.
	res := runClaude(t, claude, root, claudeOptions{args: []string{"--mcp-config", file, "--strict-mcp-config"},
		env: []string{"MCP_CONNECTION_NONBLOCKING=0", "ENABLE_TOOL_SEARCH=false"}})
	var req struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(res.bodies[0], &req); err != nil {
		t.Fatalf("request: %v", err)
	}
	// The agent enum is the registry's, in its order.
	enum, _ := json.Marshal(profiles.Names())
	var names []string
	for _, tl := range req.Tools {
		names = append(names, tl.Name)
		if tl.Name == "mcp__rivumi__instructions" && !bytes.Contains(tl.InputSchema, append([]byte(`"enum":`), enum...)) {
			t.Errorf("instructions' schema as sent: %s", tl.InputSchema)
		}
	}
	for _, tool := range mcpTools {
		if !slices.Contains(names, "mcp__rivumi__"+tool) {
			t.Errorf("the request lists no mcp__rivumi__%s: %v\n%s", tool, names, res)
		}
	}
	checkHandshake(t, in, out)
}
