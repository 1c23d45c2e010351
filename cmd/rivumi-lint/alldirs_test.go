package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDirectoriesCap (§7, docs/json.md): findings[].directories and
// drift[].directories keep at most 100 entries in the JSON output,
// directories_total gives the full count, and --all-directories restores
// the whole list. SARIF's properties.directories are capped the same way.
func TestDirectoriesCap(t *testing.T) {
	dir := hookRepo(t) // a repository with one empty commit
	files := map[string]string{"AGENTS.md": "# root\n"}
	for i := range 150 {
		files[fmt.Sprintf("d%03d/AGENTS.md", i)] = "# deeper\n" // R7: in every changed chain
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "-m", "base"}} {
		if out, err := hookGit(t, dir, args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	// The head: an empty root layer (RL009 in all 151 chains) and a drift
	// group of 151 directories.
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"commit", "-q", "-am", "head"}} {
		if out, err := hookGit(t, dir, args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	type doc struct {
		Findings []struct {
			Rule        string
			Directories []string
			Total       *int `json:"directories_total"`
		}
		Drift []struct {
			Directories []string
			Total       *int `json:"directories_total"`
		}
	}
	check := func(extra ...string) doc {
		t.Helper()
		args := append([]string{"check", "--root", dir, "--base", "HEAD~1", "--format", "json", "--fail-on", "never"}, extra...)
		code, stdout, stderr := runCLI(args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		var d doc
		if err := json.Unmarshal([]byte(stdout), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Findings) == 0 || len(d.Drift) == 0 {
			t.Fatalf("want a finding and a drift group:\n%s", stdout)
		}
		return d
	}
	capped := check()
	for _, f := range capped.Findings {
		if f.Total == nil || *f.Total != 151 || len(f.Directories) != 100 {
			t.Errorf("%s: %d directories listed, total %v; want 100 and 151", f.Rule, len(f.Directories), f.Total)
		}
	}
	if d := capped.Drift[0]; d.Total == nil || *d.Total != 151 || len(d.Directories) != 100 {
		t.Errorf("drift: %d directories listed, total %v; want 100 and 151", len(d.Directories), d.Total)
	}
	all := check("--all-directories")
	if f := all.Findings[0]; len(f.Directories) != 151 || *f.Total != 151 {
		t.Errorf("--all-directories: finding lists %d, total %d; want 151", len(f.Directories), *f.Total)
	}
	if d := all.Drift[0]; len(d.Directories) != 151 || *d.Total != 151 {
		t.Errorf("--all-directories: drift lists %d, total %d; want 151", len(d.Directories), *d.Total)
	}

	code, stdout, stderr := runCLI("check", "--root", dir, "--base", "HEAD~1", "--format", "sarif", "--fail-on", "never")
	if code != exitOK {
		t.Fatalf("sarif: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, `"directories_total": 151`) || strings.Contains(stdout, `"d120"`) {
		t.Errorf("sarif: want properties.directories capped at 100 with directories_total 151")
	}
}
