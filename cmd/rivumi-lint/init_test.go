package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"encoding/json"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/profiles"
)

// X2: the file init writes loads (config.Load) as exactly the defaults and
// validates against the committed schema (X3).
func TestInitFileX2(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", "--root", dir}, env{Stdout: &stdout, Stderr: &stderr}); code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	path := filepath.Join(dir, configName)
	c, err := config.Load(path, profiles.Config()...)
	if err != nil {
		t.Fatal(err)
	}
	want := config.Default(profiles.Config()...)
	want.Path = path
	if !c.Same(want) {
		t.Fatalf("init's file loads as\n %+v, want the defaults\n %+v", c, want)
	}
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode().Perm() != 0o644 || !fi.Mode().IsRegular() {
		t.Errorf("init's file: %v, %v; want a regular file, mode 0644", fi.Mode(), err)
	}
	// No temporary file is left beside it.
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("root holds %d entries, want .git and %s", len(ents), configName)
	}

	comp := jsonschema.NewCompiler()
	sch, err := comp.Compile(filepath.Join("..", "..", "docs", "rivumi-lint.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("init's file does not validate against docs/rivumi-lint.schema.json: %v", err)
	}
}

// X2, D2: release tags pin; devel builds, Go pseudo-versions and snapshots do not.
func TestReleaseTag(t *testing.T) {
	for v, want := range map[string]string{
		"v0.3.0": "v0.3.0", "v1.2.0-rc.1": "v1.2.0-rc.1", "devel": "", "devel-0123456789ab-dirty": "",
		"v0.0.0-20261130080000-0123456789ab": "", "v1.4.3-0.20261130080000-0123456789ab": "",
		"v1.2.3+dirty": "", "1.2.3": "", "v01.2.3": "",
		// A goreleaser snapshot (.goreleaser.yaml's version_template) is a
		// commit, not a tag (issue #26).
		"v0.3.1-snapshot-abc1234": "", "v1.2.0-snapshot-0123456789abcdef0123456789abcdef01234567": "",
	} {
		if got := releaseTag(v); got != want {
			t.Errorf("releaseTag(%q) = %q, want %q", v, got, want)
		}
	}
}
