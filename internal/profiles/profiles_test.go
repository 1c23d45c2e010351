package profiles

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/config"
)

var update = flag.Bool("update", false, "rewrite docs/rivumi-lint.schema.json")

// schemaFile is the committed schema, from profiles/.
var schemaFile = filepath.Join("..", "..", "docs", "rivumi-lint.schema.json")

// X3: the committed schema is what `rivumi-lint schema` prints: the
// config's keys with every profile's section.
func TestSchemaCommittedX3(t *testing.T) {
	got := config.Schema(Config()...)
	if *update {
		if err := os.WriteFile(schemaFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatalf("%v (regenerate: go test ./internal/profiles -run TestSchemaCommittedX3 -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: regenerate it with go test ./internal/profiles -run TestSchemaCommittedX3 -update", schemaFile)
	}
}

// A1: the registry names each profile once, Rivumi's first; its row's
// profile is the one its name finds; every profile with settings has a
// section of its name in the schema, every key a doc; --agent all is the
// table.
func TestRegistry(t *testing.T) {
	names := Names()
	if len(names) < 2 || names[0] != agent.Rivumi {
		t.Fatalf("Names() = %q: Rivumi's row first", names)
	}
	schema := string(config.Schema(Config()...))
	for i, r := range All() {
		n := r.Profile.Name
		if slices.Index(names, n) != i || r.Config.Name != n {
			t.Errorf("row %d: profile %q, config section %q, listed at %d", i, n, r.Config.Name, slices.Index(names, n))
		}
		if Lookup(n).Profile != r.Profile {
			t.Errorf("Lookup(%q) finds another row", n)
		}
		if n != agent.Rivumi && (r.Profile.Version == "" || r.Profile.Product == "" || r.Profile.Summary == "") {
			t.Errorf("profile %s: no version, product or summary", n)
		}
		if len(r.Config.Keys) > 0 && (r.Config.Doc == "" || !strings.Contains(schema, `"`+n+`":`)) {
			t.Errorf("profile %s: its section has no doc, or is not in the schema", n)
		}
		for _, k := range r.Config.Keys {
			if k.Doc == "" || strings.Contains(k.Path, ".") {
				t.Errorf("profile %s: key %q has no doc or is not a name of its section", n, k.Path)
			}
		}
		if len(r.Options()) == 0 {
			t.Errorf("profile %s: `rivumi-lint agents` lists no option", n)
		}
	}
	all, err := ParseList("all")
	if err != nil || !slices.Equal(all, names) {
		t.Errorf("ParseList(all) = %q, %v", all, err)
	}
	if got, err := ParseList(names[len(names)-1] + "," + agent.Rivumi); err != nil || got[0] != agent.Rivumi {
		t.Errorf("ParseList keeps the registry's order: %q, %v", got, err)
	}
	if _, err := ParseList("nobody"); err == nil || !strings.Contains(err.Error(), strings.Join(names, ", ")) {
		t.Errorf("ParseList(nobody) = %v, want the profiles named", err)
	}
}

// A2: each profile's section parses as the users write it, and a run reads
// the values through the profile's name.
func TestSections(t *testing.T) {
	in := `agents: [codex, rivumi, copilot]
codex:
  project_doc_max_bytes: 0
  project_doc_fallback_filenames: [CLAUDE.md, README.md]
  project_root_markers: []
claude:
  instruction_files: claude-md-and-agents-md
  md_excludes: ["**/vendor/**/CLAUDE.md", /abs/CLAUDE.md]
  external_imports: true
copilot:
  custom_instructions_dirs: [/abs/extra]
`
	c, err := config.Parse(".rivumi-lint.yaml", []byte(in), Config()...)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Agents, []string{"rivumi", "codex", "copilot"}) {
		t.Errorf("agents = %q", c.Agents)
	}
	cx, cl, cp := c.Section("codex"), c.Section("claude"), c.Section("copilot")
	if cx.Int("project_doc_max_bytes") != 0 || !slices.Equal(cx.Strings("project_doc_fallback_filenames"), []string{"CLAUDE.md", "README.md"}) || len(cx.Strings("project_root_markers")) != 0 {
		t.Errorf("codex: %d %q %q", cx.Int("project_doc_max_bytes"), cx.Strings("project_doc_fallback_filenames"), cx.Strings("project_root_markers"))
	}
	if cl.String("instruction_files") != "claude-md-and-agents-md" || len(cl.Strings("md_excludes")) != 2 || !cl.Bool("external_imports") {
		t.Errorf("claude: %q %q %v", cl.String("instruction_files"), cl.Strings("md_excludes"), cl.Bool("external_imports"))
	}
	if !slices.Equal(cp.Strings("custom_instructions_dirs"), []string{"/abs/extra"}) {
		t.Errorf("copilot: %q", cp.Strings("custom_instructions_dirs"))
	}
	for _, bad := range []struct{ in, msg string }{
		{"codex:\n  project_doc_max_bytes: -1\n", "codex.project_doc_max_bytes"},
		{"claude:\n  instruction_files: agents-md\n", `claude.instruction_files: "agents-md" is not one of claude-md-or-agents-md, claude-md, claude-md-and-agents-md, managed-only`},
		{"agents: [rivumi, nobody]\n", "the profiles are " + strings.Join(Names(), ", ")},
	} {
		if _, err := config.Parse(".rivumi-lint.yaml", []byte(bad.in), Config()...); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("Parse(%q) = %v, want %q", bad.in, err, bad.msg)
		}
	}
}

// Env reads the variables every row asks for and nothing else.
func TestEnv(t *testing.T) {
	getenv := func(k string) string { return "v-" + k }
	e := Env(getenv, func() (string, error) { return "/h", nil })
	for _, r := range All() {
		for _, v := range r.Env {
			if e.Get(v) != "v-"+v {
				t.Errorf("profile %s: %s not read", r.Profile.Name, v)
			}
		}
	}
	if e.Get("PATH") != "" || e.Home != "/h" {
		t.Errorf("Env = %+v", e)
	}
}
