package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/preview"
	"github.com/rivumi/rivumi-lint/internal/preview/view"
	"github.com/rivumi/rivumi-lint/internal/project"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/report"
)

// fixture is a repository with a chain of two layers, a rejected file
// (RL004, invalid UTF-8) and a Claude file, committed.
func fixture(t *testing.T) *gittest.Repo {
	t.Helper()
	gittest.SetEnv(t)
	r := gittest.New(t)
	r.Write("AGENTS.md", "# Root\nUse tabs.\n",
		"services/api/AGENTS.md", "API rules.\n",
		"services/api/handler.go", "package api\n",
		"services/api/CLAUDE.md", "Claude API rules.\n",
		"bad/AGENTS.md", "caf\xe9\n")
	r.Commit("fixture")
	return r
}

// session starts a server over root and connects the SDK's own client
// to it over in-memory transports.
func session(t *testing.T, root string) (*sdk.ClientSession, Options) {
	t.Helper()
	home := t.TempDir() // no user layer, no memory: the machine's home stays out
	o := Options{Root: root, Home: home, Env: agent.Env{Home: home}, Machine: preview.Machine{OS: "linux", Shell: "/bin/sh", WorkDir: "/w"}, Version: "test"}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := sdk.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, st) }()
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs, o
}

func call(t *testing.T, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return res
}

// structured decodes a result's structuredContent into v; an error result
// fails the test.
func structured(t *testing.T, res *sdk.CallToolResult, v any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("error result: %s", text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
}

func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// M1: the four tools, each with an object input schema; instructions
// names the profiles as agent's choices; all are marked read-only.
func TestToolsListedM1(t *testing.T) {
	cs, _ := session(t, fixture(t).Dir)
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
		sc, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(sc), `"type":"object"`) {
			t.Errorf("%s: input schema %s is no object schema", tool.Name, sc)
		}
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s is not annotated read-only (M6)", tool.Name)
		}
		if tool.Name == "instructions" && !strings.Contains(string(sc), `"enum":["rivumi","codex","claude","copilot"]`) {
			t.Errorf("instructions' schema %s does not list the profiles as agent's enum", sc)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s has no output schema", tool.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"agents", "check", "explain_rule", "instructions"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
}

// M2: instructions gives the chain, the text and the fingerprint of the
// path's directory, the same as the preview of that directory (one
// engine), for each profile.
func TestInstructionsM2(t *testing.T) {
	r := fixture(t)
	cs, o := session(t, r.Dir)
	var got Instructions
	structured(t, call(t, cs, "instructions", map[string]any{"path": "services/api/handler.go"}), &got)
	if got.Directory != "services/api" || got.Agent != "rivumi" || got.Root != r.Dir {
		t.Errorf("directory %q agent %q root %q, want services/api rivumi %s", got.Directory, got.Agent, got.Root, r.Dir)
	}
	var paths []string
	for _, l := range got.Layers {
		paths = append(paths, l.Path+" "+l.State)
	}
	if want := []string{"AGENTS.md active", "services/api/AGENTS.md active"}; !slices.Equal(paths, want) {
		t.Errorf("layers %v, want %v", paths, want)
	}
	if !strings.Contains(got.Text, "Use tabs.\n") || !strings.Contains(got.Text, "API rules.\n") || got.Bytes != len(got.Text) {
		t.Errorf("text %q (%d bytes) lacks a layer", got.Text, got.Bytes)
	}
	if got.Budget == nil || got.Budget.Total == 0 || !strings.HasPrefix(got.Fingerprint, "rivumi-fp-v1:") {
		t.Errorf("budget %+v fingerprint %q", got.Budget, got.Fingerprint)
	}

	for _, name := range []string{"rivumi", "codex", "claude"} {
		var res Instructions
		structured(t, call(t, cs, "instructions", map[string]any{"path": "services/api", "agent": name}), &res)
		pv, err := preview.Build(preview.Options{Root: r.Dir, Dir: filepath.Join(r.Dir, "services", "api"), Home: o.Home,
			Machine: o.Machine, Agents: []string{name}, Env: o.Env})
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if name == "rivumi" {
			s, _ := pv.Section(preview.Instructions)
			want = s.Text
		} else {
			a, _ := pv.Agent(name)
			want = a.Text
		}
		if res.Text != want || res.Fingerprint != pv.Fingerprint {
			t.Errorf("%s: text %q fingerprint %s, the preview's %q %s", name, res.Text, res.Fingerprint, want, pv.Fingerprint)
		}
		if want == "" {
			t.Errorf("%s: the preview has no text: the fixture proves nothing", name)
		}
	}
	var claude Instructions
	structured(t, call(t, cs, "instructions", map[string]any{"path": "services/api", "agent": "claude"}), &claude)
	if !strings.Contains(claude.Text, "Claude API rules.") || len(claude.Files) == 0 || claude.Layers != nil {
		t.Errorf("claude's view %+v lacks CLAUDE.md or its files", claude)
	}
}

// Issue #33.14: the text of Claude Code's view gives a size only where
// the view has one: an AGENTS.md Claude ignores is not "-1 bytes".
func TestInstructionsTextSizesKnownOnly(t *testing.T) {
	cs, _ := session(t, fixture(t).Dir)
	res := call(t, cs, "instructions", map[string]any{"path": "services/api", "agent": "claude"})
	var got Instructions
	structured(t, res, &got)
	tx := text(res)
	if strings.Contains(tx, "-1 bytes") {
		t.Errorf("the text prints an unknown size:\n%s", tx)
	}
	for _, f := range got.Files {
		if f.Bytes < 0 && !strings.Contains(tx, f.State+" "+f.Path+"\n") && !strings.Contains(tx, f.Path+": ") {
			t.Errorf("%s (%s, size unknown) is not listed without a size:\n%s", f.Path, f.State, tx)
		}
	}
	if !strings.Contains(tx, "services/api/CLAUDE.md (18 bytes)") {
		t.Errorf("the loaded CLAUDE.md lacks its size:\n%s", tx)
	}
	if !slices.ContainsFunc(got.Files, func(f view.AgentFile) bool { return f.Bytes < 0 }) {
		t.Errorf("no file of unknown size in %+v: the fixture proves nothing", got.Files)
	}
}

// Issue #33.14: the instructions the host shows the model name only files
// some profile loads by default (Rivumi's candidates, Claude Code's own),
// not a .rivumi/instructions.md nothing reads.
func TestServerInstructionsNameLoadedFiles(t *testing.T) {
	cs, _ := session(t, fixture(t).Dir)
	got := cs.InitializeResult().Instructions
	known := append(config.Default().Candidates(), "CLAUDE.md", "CLAUDE.local.md")
	names := regexp.MustCompile(`[\w./-]+\.md\b`).FindAllString(got, -1)
	for _, n := range names {
		if !slices.Contains(known, n) && !strings.HasPrefix(n, ".override") {
			t.Errorf("the instructions name %s, which no profile loads: %s", n, got)
		}
	}
	if len(names) == 0 {
		t.Errorf("the instructions name no file: %s", got)
	}
}

// M2: a path that does not exist yet gets its nearest existing
// directory's chain, and says so; the text content names the layers.
func TestInstructionsNewFileM2(t *testing.T) {
	cs, _ := session(t, fixture(t).Dir)
	res := call(t, cs, "instructions", map[string]any{"path": "services/api/new/deep/file.go"})
	var got Instructions
	structured(t, res, &got)
	if got.Directory != "services/api" || len(got.Notes) == 0 || !strings.HasPrefix(got.Notes[0], "services/api/new/deep/file.go does not exist") {
		t.Errorf("directory %q notes %q", got.Directory, got.Notes)
	}
	if tx := text(res); !strings.Contains(tx, "services/api/AGENTS.md") || !strings.Contains(tx, "API rules.") {
		t.Errorf("text content %q", tx)
	}
}

// M3: check's structured result is check --format json's document, byte
// for byte, and its text check's text report.
func TestCheckM3(t *testing.T) {
	r := fixture(t)
	cs, _ := session(t, r.Dir)
	for _, args := range []map[string]any{{}, {"paths": []string{"bad", "services/api/AGENTS.md"}}} {
		res := call(t, cs, "check", args)
		if res.IsError {
			t.Fatalf("check %v: %s", args, text(res))
		}
		got, _ := json.Marshal(res.StructuredContent)
		var paths []string
		for _, p := range argPaths(args) {
			paths = append(paths, filepath.Join(r.Dir, p))
		}
		lr, _, err := project.Check(project.Options{Root: r.Dir, Targets: paths, Command: "check"}, project.Scope{Paths: paths, Typed: true})
		if err != nil {
			t.Fatal(err)
		}
		var want, wantText bytes.Buffer
		if err := report.JSON(&want, lr, report.Options{ToolVersion: "test"}); err != nil {
			t.Fatal(err)
		}
		tw, _ := report.Lookup("text")
		tw(&wantText, lr, report.Options{ToolVersion: "test"})
		if !jsonEqual(t, got, want.Bytes()) {
			t.Errorf("check %v: structured %s\nwant check --format json's %s", args, got, want.Bytes())
		}
		if text(res) != wantText.String() {
			t.Errorf("check %v: text %q, want %q", args, text(res), wantText.String())
		}
		if !strings.Contains(string(got), `"rule":"RL004"`) {
			t.Errorf("check %v found no RL004 in bad/AGENTS.md: %s", args, got)
		}
	}
}

func argPaths(args map[string]any) []string {
	p, _ := args["paths"].([]string)
	return p
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	ca, _ := json.Marshal(x)
	cb, _ := json.Marshal(y)
	return bytes.Equal(ca, cb)
}

// M3: staged checks the index, not the worktree: a bad file staged and
// then repaired on disk is found by staged alone.
func TestCheckStagedM3(t *testing.T) {
	r := fixture(t)
	r.Write("new/AGENTS.md", "x\xff\n")
	r.Git("add", "new/AGENTS.md")
	r.Write("new/AGENTS.md", "fine\n")
	cs, _ := session(t, r.Dir)
	findings := func(args map[string]any) string {
		res := call(t, cs, "check", args)
		var doc struct{ Findings []any }
		structured(t, res, &doc)
		b, _ := json.Marshal(doc.Findings)
		return string(b)
	}
	if got := findings(map[string]any{"staged": true}); !strings.Contains(got, `"path":"new/AGENTS.md"`) {
		t.Errorf("staged check missed the staged invalid file: %s", got)
	}
	if got := findings(map[string]any{"paths": []string{"new"}}); strings.Contains(got, `"path":"new/AGENTS.md"`) {
		t.Errorf("worktree check found the staged bytes: %s", got)
	}
}

// M5: the config is the one check reads, read again on every call.
func TestConfigReloadM5(t *testing.T) {
	r := fixture(t)
	cs, _ := session(t, r.Dir)
	rl004 := func() bool {
		res := call(t, cs, "check", map[string]any{"paths": []string{"bad"}})
		if res.IsError {
			t.Fatalf("check: %s", text(res))
		}
		b, _ := json.Marshal(res.StructuredContent)
		return strings.Contains(string(b), `"rule":"RL004"`)
	}
	if !rl004() {
		t.Fatal("no RL004 before the config")
	}
	r.Write(".rivumi-lint.yaml", "rules:\n  RL004: \"off\"\n")
	if rl004() {
		t.Error("RL004 still reported after the config turned it off")
	}
	r.Write(".rivumi-lint.yaml", "rules:\n  RL004: error\n")
	if !rl004() {
		t.Error("RL004 not reported after the config turned it on again")
	}
	r.Write(".rivumi-lint.yaml", "rules: [\n")
	if res := call(t, cs, "check", map[string]any{}); !res.IsError || !strings.Contains(text(res), ".rivumi-lint.yaml") {
		t.Errorf("a broken config: isError %v, %q", res.IsError, text(res))
	}
}

func TestExplainRuleM7(t *testing.T) {
	cs, _ := session(t, fixture(t).Dir)
	for _, arg := range []string{"RL004", "rl004", "invalid-utf8", "Invalid-UTF8"} {
		res := call(t, cs, "explain_rule", map[string]any{"rule": arg})
		var doc RuleDoc
		structured(t, res, &doc)
		if doc.ID != "RL004" || doc.Name != "invalid-utf8" || doc.DefaultSeverity != "error" || doc.Doc == "" {
			t.Errorf("%s: %+v", arg, doc)
		}
		if !strings.HasPrefix(text(res), "RL004 invalid-utf8 (default severity: error)\n\n") {
			t.Errorf("%s: text %q is not rules RL004's", arg, text(res))
		}
	}
	if res := call(t, cs, "explain_rule", map[string]any{"rule": "RL999"}); !res.IsError || !strings.Contains(text(res), "RL004") {
		t.Errorf("unknown rule: isError %v, %q", res.IsError, text(res))
	}
}

func TestAgentsTool(t *testing.T) {
	cs, _ := session(t, fixture(t).Dir)
	var got Profiles
	structured(t, call(t, cs, "agents", map[string]any{}), &got)
	var names []string
	for _, p := range got.Profiles {
		names = append(names, p.Name)
	}
	if !slices.Equal(names, []string{"rivumi", "codex", "claude", "copilot"}) {
		t.Errorf("profiles %v", names)
	}
}

// M4: hostile arguments are error results naming the problem, and the
// session goes on; an unknown tool is a JSON-RPC error.
func TestHostileInputM4(t *testing.T) {
	r := fixture(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "AGENTS.md"), []byte("secret\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(r.Dir, "out")); err != nil {
		t.Fatal(err)
	}
	cs, _ := session(t, r.Dir)
	fsRoot := filepath.VolumeName(r.Dir) + string(filepath.Separator) // / or C:\
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"instructions", map[string]any{"path": "../x"}, `".." is not allowed`},
		{"instructions", map[string]any{"path": "services/../../x"}, `".." is not allowed`},
		{"instructions", map[string]any{"path": outside}, "outside the project root"},
		{"instructions", map[string]any{"path": fsRoot}, "outside the project root"},
		{"instructions", map[string]any{"path": "out"}, "through a link"},
		{"instructions", map[string]any{"path": "out/sub/new.go"}, "through a link"},
		{"instructions", map[string]any{"path": strings.Repeat("a/", 2100)}, "over 4096"},
		{"instructions", map[string]any{"path": "a\x00b"}, "NUL"},
		{"instructions", map[string]any{"path": ""}, "empty"},
		{"instructions", map[string]any{}, "path"},
		{"instructions", map[string]any{"path": 5}, "string"},
		{"instructions", map[string]any{"path": ".", "agent": "cursor"}, "cursor"},
		{"instructions", map[string]any{"path": ".", "extra": 1}, "extra"},
		{"check", map[string]any{"paths": "bad"}, "array"},
		{"check", map[string]any{"paths": []any{1}}, "string"},
		{"check", map[string]any{"staged": "yes"}, "boolean"},
		{"check", map[string]any{"paths": []string{"bad"}, "staged": true}, "cannot be combined"},
		{"check", map[string]any{"paths": []string{"out"}}, "through a link"},
		{"check", map[string]any{"paths": []string{"../.."}}, `".." is not allowed`},
		{"check", map[string]any{"paths": make([]string, maxPaths+1)}, "over 10000"},
		{"explain_rule", map[string]any{"rule": 4}, "string"},
		{"explain_rule", map[string]any{}, "rule"},
	}
	for _, c := range cases {
		res := call(t, cs, c.tool, c.args)
		if !res.IsError || !strings.Contains(text(res), c.want) {
			t.Errorf("%s %.80v: isError %v, %.200q; want an error saying %q", c.tool, c.args, res.IsError, text(res), c.want)
		}
		if strings.Contains(text(res), "secret") {
			t.Errorf("%s %.80v read the file outside the root: %q", c.tool, c.args, text(res))
		}
	}
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "write_file", Arguments: map[string]any{}}); err == nil ||
		!strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("unknown tool: %v, want a JSON-RPC error", err)
	}
	var ok Instructions
	structured(t, call(t, cs, "instructions", map[string]any{"path": "."}), &ok)
	if ok.Directory != "." {
		t.Errorf("after hostile calls: directory %q", ok.Directory)
	}
}

// M6: no tool writes: the tree, the Git directory included, is byte for
// byte the same after every tool ran.
func TestReadOnlyM6(t *testing.T) {
	r := fixture(t)
	r.Write("staged/AGENTS.md", "staged\n")
	r.Git("add", "staged")
	r.Write("dirty.md", "untracked\n")
	before := snapshot(t, r.Dir)
	cs, _ := session(t, r.Dir)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"instructions", map[string]any{"path": "services/api/handler.go"}},
		{"instructions", map[string]any{"path": "services", "agent": "codex"}},
		{"instructions", map[string]any{"path": "services/api", "agent": "claude"}},
		{"check", map[string]any{}},
		{"check", map[string]any{"staged": true}},
		{"check", map[string]any{"paths": []string{"bad/AGENTS.md"}}},
		{"explain_rule", map[string]any{"rule": "RL001"}},
		{"agents", map[string]any{}},
	} {
		if res := call(t, cs, c.tool, c.args); res.IsError {
			t.Errorf("%s %v: %s", c.tool, c.args, text(res))
		}
	}
	after := snapshot(t, r.Dir)
	for p, b := range before {
		if a, ok := after[p]; !ok || a != b {
			t.Errorf("%s changed or went (R10)", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s was created (R10)", p)
		}
	}
}

// snapshot is every entry below dir: its mode, size, time and bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		v := fi.Mode().String() + " " + fi.ModTime().String()
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += " " + string(b)
		}
		out[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// R1: a path inside a repository nested in the project is resolved in
// that repository, as check and preview run there resolve it.
func TestNestedRepositoryR1(t *testing.T) {
	r := fixture(t)
	inner := gittest.At(t, filepath.Join(r.Dir, "vendor", "lib"))
	os.MkdirAll(inner.Dir, 0o755)
	inner.Git("init", "-q")
	inner.Write("AGENTS.md", "Inner rules.\n")
	inner.Commit("inner")
	// Started in the outer repository with no --root, as a host starts
	// it there; --root OUTER refuses the inner one, as check does.
	t.Chdir(r.Dir)
	cs, _ := session(t, "")
	var got Instructions
	structured(t, call(t, cs, "instructions", map[string]any{"path": "vendor/lib/AGENTS.md"}), &got)
	if got.Root != inner.Dir || got.Directory != "." || strings.Contains(got.Text, "Use tabs.") || !strings.Contains(got.Text, "Inner rules.") {
		t.Errorf("root %q directory %q text %q: want the inner repository's own chain", got.Root, got.Directory, got.Text)
	}
	var outer Instructions
	structured(t, call(t, cs, "instructions", map[string]any{"path": "services"}), &outer)
	if outer.Root != r.Dir {
		t.Errorf("services: root %q, want %s", outer.Root, r.Dir)
	}
}

// M5: --config FILE is the config, as for check: a file outside the root
// turning RL004 off, read again after it changes.
func TestConfigFlagM5(t *testing.T) {
	r := fixture(t)
	cfg := filepath.Join(t.TempDir(), "team.yaml")
	if err := os.WriteFile(cfg, []byte("rules:\n  RL004: \"off\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Root: r.Dir, Config: cfg, Home: t.TempDir(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := sdk.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, st) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); cancel(); <-done }()
	rl004 := func() bool {
		var doc struct{ Findings []struct{ Rule string } }
		structured(t, call(t, cs, "check", map[string]any{"paths": []string{"bad"}}), &doc)
		for _, f := range doc.Findings {
			if f.Rule == "RL004" {
				return true
			}
		}
		return false
	}
	if rl004() {
		t.Error("RL004 reported although --config turns it off")
	}
	if err := os.WriteFile(cfg, []byte("rules:\n  RL004: warning\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !rl004() {
		t.Error("RL004 not reported after --config's file turned it on")
	}
}

// R1, M4 (#38.1): a .git file inside the project whose Git directory sets
// core.worktree above the project (the parent, itself a repository) is no
// way out: the instructions tool refuses the path and serves nothing from
// the parent; before, it answered with the parent as its root and the
// parent's AGENTS.md as its text.
func TestInnerWorktreeAboveM4(t *testing.T) {
	gittest.SetEnv(t)
	parent := gittest.New(t)
	parent.Write("AGENTS.md", "Parent secret.\n")
	parent.Commit("parent")
	r := gittest.At(t, filepath.Join(parent.Dir, "proj"))
	os.MkdirAll(r.Dir, 0o755)
	r.Git("init", "-q")
	r.Write("AGENTS.md", "Project rules.\n", "sub/AGENTS.md", "Sub rules.\n")
	r.Commit("proj")
	r.Git("init", "-q", "--separate-git-dir="+filepath.Join(r.Dir, ".gd"), "sub")
	r.Git("--git-dir=.gd", "config", "core.worktree", "../..")
	t.Chdir(r.Dir)
	cs, _ := session(t, "")
	for _, path := range []string{"sub", "sub/AGENTS.md", "sub/new.go"} {
		for _, agent := range []string{"rivumi", "codex", "claude"} {
			res := call(t, cs, "instructions", map[string]any{"path": path, "agent": agent})
			if !res.IsError || !strings.Contains(text(res), "core.worktree") {
				t.Errorf("%s (%s): isError %v, %.300q; want an error naming core.worktree", path, agent, res.IsError, text(res))
			}
			b, _ := json.Marshal(res)
			if strings.Contains(string(b), "Parent secret") || strings.Contains(string(b), `"root":"`+parent.Dir+`"`) {
				t.Errorf("%s (%s) served the parent outside the project: %.300s", path, agent, b)
			}
		}
	}
	var own Instructions
	structured(t, call(t, cs, "instructions", map[string]any{"path": "."}), &own)
	if own.Root != r.Dir || !strings.Contains(own.Text, "Project rules.") {
		t.Errorf("root %q text %q: want the project's own chain", own.Root, own.Text)
	}
}
