package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemo runs the CLI over testdata/demo (see its README.md): every rule
// RL001–RL011 of §5 must fire and the run must exit 1 (§6). A script cannot
// see testdata/demo, hence this Go test.
func TestDemo(t *testing.T) {
	requireDemoSymlink(t)
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "--root", "../../testdata/demo", "--format", "json"}, env{Stdout: &stdout, Stderr: &stderr})
	if code != exitFindings {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("unexpected stderr:\n%s", stderr.String())
	}
	var doc struct {
		Version  int `json:"version"`
		Findings []struct {
			Rule     string `json:"rule"`
			Severity string `json:"severity"`
			Path     string `json:"path"`
			Line     int    `json:"line"`
			Column   int    `json:"column"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("§7 json: %v\n%s", err, stdout.String())
	}
	// Where each rule must fire (README.md's table).
	want := map[string]string{
		"RL001": "symlink/AGENTS.md",
		"RL002": "not-regular/AGENTS.md",
		"RL003": "oversized/AGENTS.md",
		"RL004": "latin1/AGENTS.md",
		"RL005": "override/AGENTS.override.md",
		"RL006": "budget/more/most/AGENTS.md",
		"RL007": "shadowed/AGENTS.md",
		"RL008": "marker/AGENTS.md",
		"RL009": "empty-override/AGENTS.override.md",
		"RL010": "hidden/AGENTS.md",
		"RL011": "near-miss/agents.md",
	}
	got := map[string]bool{}
	for _, f := range doc.Findings {
		got[f.Rule+" "+f.Path] = true
		got[f.Rule] = true
	}
	for rule, path := range want {
		if !got[rule+" "+path] {
			t.Errorf("%s does not fire on %s; findings: %+v", rule, path, doc.Findings)
		}
	}
	for _, extra := range []string{"RL004 utf16/AGENTS.md", "RL006 budget/more/AGENTS.md", "RL011 near-miss/AGENT.md"} {
		if !got[extra] {
			t.Errorf("missing %s", extra)
		}
	}
	if got["RL012"] {
		t.Errorf("RL012 cannot be committed and must not appear in the demo")
	}
	for _, r := range []string{"RL015", "RL016", "RL017"} {
		if got[r] {
			t.Errorf("%s fired with Rivumi alone: the other profiles' rules must wait for --agent", r)
		}
	}
}

// TestDemoAgents is the demo with every agent profile (A4): a Codex
// truncation, a hidden override and disagreements, each marked with its
// agent, beside every Rivumi finding of the default run.
func TestDemoAgents(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "--root", "../../testdata/demo", "--format", "json", "--agent", "all"}, env{Stdout: &stdout, Stderr: &stderr})
	if code != exitFindings {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr.String())
	}
	var doc struct {
		Findings []struct {
			Rule, Path, Agent, Message string
			Line                       int
		} `json:"findings"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range doc.Findings {
		if _, twice := got[f.Rule+" "+f.Path]; twice && f.Rule == "RL017" {
			t.Errorf("RL017 on %s twice: one finding per file, every agent's side in it (#34)", f.Path)
		}
		got[f.Rule+" "+f.Path] = f.Agent
		if f.Agent == "" {
			t.Errorf("%s %s carries no agent with --agent all", f.Rule, f.Path)
		}
	}
	for key, agent := range map[string]string{
		"RL015 budget/more/AGENTS.md":             "codex",
		"RL015 budget/more/most/AGENTS.md":        "codex",
		"RL016 codex-override/AGENTS.override.md": "codex",
		"RL017 shadowed/RIVUMI.md":                "rivumi,codex,claude,copilot",
		"RL001 symlink/AGENTS.md":                 "rivumi",
		"RL009 empty-override/AGENTS.override.md": "rivumi",
		// Issue #24: each of Claude Code's findings.
		"RL018 claude/AGENTS.md":           "claude",
		"RL019 claude/CLAUDE.md":           "claude",
		"RL020 claude-oversized/CLAUDE.md": "claude",
	} {
		if a, ok := got[key]; !ok || a != agent {
			t.Errorf("%s: agent %q, present %v; want agent %q", key, a, ok, agent)
		}
	}
	// #34: no RL017 that repeats another finding on its file: the
	// rejections (RL001, RL004) name what every agent does, RL018 says
	// Claude Code does not load claude/AGENTS.md.
	for _, key := range []string{"RL017 symlink/AGENTS.md", "RL017 utf16/AGENTS.md", "RL017 latin1/AGENTS.md", "RL017 claude/AGENTS.md"} {
		if a, ok := got[key]; ok {
			t.Errorf("%s (agent %q) repeats another finding on the file", key, a)
		}
	}
	for _, f := range doc.Findings {
		if f.Rule == "RL001" && f.Path == "symlink/AGENTS.md" && !strings.Contains(f.Message, "Codex CLI 0.171.0 follows the link and loads AGENTS.md") {
			t.Errorf("RL001 does not say what Codex does with the link: %s", f.Message)
		}
	}
}

// TestClean runs the CLI over testdata/clean: nothing wrong, exit 0 even at
// --fail-on notice (§6).
func TestClean(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "--root", "../../testdata/clean", "--format", "json", "--fail-on", "notice"}, env{Stdout: &stdout, Stderr: &stderr})
	if code != exitOK {
		t.Fatalf("exit %d, want 0; stdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	var doc struct {
		Findings    []json.RawMessage `json:"findings"`
		Directories []struct {
			Path   string `json:"path"`
			Layers []struct {
				Path  string `json:"path"`
				State string `json:"state"`
			} `json:"layers"`
		} `json:"directories"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 0 {
		t.Errorf("findings in the clean fixture: %s", stdout.String())
	}
	active := map[string]bool{}
	for _, d := range doc.Directories {
		for _, l := range d.Layers {
			if l.State == "active" {
				active[d.Path+" "+l.Path] = true
			}
		}
	}
	// R3: docs' chain holds the root layer and its own.
	for _, k := range []string{". AGENTS.md", "docs AGENTS.md", "docs docs/RIVUMI.md"} {
		if !active[k] {
			t.Errorf("layer %q not active; got %v", k, active)
		}
	}
}

// requireDemoSymlink fails the test unless the demo's RL001 is the
// committed symbolic link (C1): a checkout without symlinks
// (core.symlinks=false) cannot show it.
func requireDemoSymlink(t *testing.T) {
	t.Helper()
	if fi, err := os.Lstat(filepath.FromSlash("../../testdata/demo/symlink/AGENTS.md")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("testdata/demo/symlink/AGENTS.md must be a symbolic link (check out with core.symlinks=true): %v", err)
	}
}
