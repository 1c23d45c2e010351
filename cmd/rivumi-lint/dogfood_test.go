package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestDogfood lints this repository with its own .rivumi-lint.yaml
// (testdata/** ignored: the fixtures are broken on purpose): its AGENTS.md
// chain must be clean (R1-R5, P3), and the root must be resolved.
func TestDogfood(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "--root", "../..", "--format", "json", "--fail-on", "notice"}, env{Stdout: &stdout, Stderr: &stderr})
	if code != exitOK {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	var doc struct {
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
	for _, d := range doc.Directories {
		if d.Path == "testdata" || len(d.Path) > 9 && d.Path[:9] == "testdata/" {
			t.Errorf("ignored directory %s was resolved (§8 ignore)", d.Path)
		}
		if d.Path == "." {
			if len(d.Layers) != 1 || d.Layers[0].Path != "AGENTS.md" || d.Layers[0].State != "active" {
				t.Errorf("root chain %+v, want the active AGENTS.md", d.Layers)
			}
			return
		}
	}
	t.Errorf("the root directory was not resolved: %s", stdout.String())
}
