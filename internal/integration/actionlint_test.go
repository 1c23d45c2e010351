package integration

// actionlint (the pinned `go tool -modfile=tools/go.mod actionlint`, v1.7.12) over the project's
// own workflow and a workflow that uses the Action with every input and
// output (SPEC §7 `action.yml`: "the action file and the project's own
// workflow are actionlint-clean"), plus the rule actionlint cannot see
// inside a composite action: inputs reach shell steps only through env:.

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// runActionlint lints files in the Git repository dir. shellcheck and
// pyflakes are off so the result does not depend on what else the machine
// has installed.
func runActionlint(t *testing.T, dir string, files ...string) result {
	t.Helper()
	args := append([]string{"-no-color", "-shellcheck=", "-pyflakes="}, files...)
	return run(t, dir, env(t), nil, actionlint(t), args...)
}

// actionRepo is a Git repository holding this module's action.yml at its
// root and the given workflows, so `uses: ./` resolves to the Action and
// actionlint checks inputs and outputs against its metadata.
func actionRepo(t *testing.T, workflows map[string]string) string {
	t.Helper()
	action, err := os.ReadFile(filepath.Join(moduleRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"action.yml": string(action)}
	for name, body := range workflows {
		files[".github/workflows/"+name] = body
	}
	return newRepo(t, files)
}

func TestActionlintProjectWorkflow(t *testing.T) {
	root := moduleRoot(t)
	wf := filepath.Join(".github", "workflows", "ci.yml")
	b, err := os.ReadFile(filepath.Join(root, wf))
	if err != nil {
		t.Fatal(err)
	}
	// The workflow runs the Action on this repository (issue: "uses ./ on
	// itself") and the tests.
	if !strings.Contains(string(b), "uses: ./\n") || !strings.Contains(string(b), "go test ./...") {
		t.Fatalf("%s does not use ./ and run go test ./...", wf)
	}
	// Linted in a repository holding it beside action.yml, as in this one
	// (actionlint reads ./action.yml for `uses: ./`); the copy makes the
	// test independent of how this checkout was made.
	dir := actionRepo(t, map[string]string{"ci.yml": string(b)})
	if r := runActionlint(t, dir, wf); r.code != 0 {
		t.Fatalf("actionlint %s: %s", wf, r)
	}
}

// usingWorkflow uses the Action with every input and reads every output.
const usingWorkflow = `name: uses rivumi-lint
on:
  pull_request:
  push:
    branches: [main]
permissions:
  contents: read
  security-events: write
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v5
      - id: rl
        uses: ./
        with:
          config: .rivumi-lint.yaml
          fail-on: warning
          sarif-file: rivumi-lint.sarif
          args: --user-instructions ci/RIVUMI.md
      - if: ${{ !cancelled() }}
        env:
          ERRORS: ${{ steps.rl.outputs.errors }}
          WARNINGS: ${{ steps.rl.outputs.warnings }}
          DIRECTORIES: ${{ steps.rl.outputs.directories }}
        run: echo "$ERRORS errors, $WARNINGS warnings, $DIRECTORIES directories"
`

func TestActionlintWorkflowUsingTheAction(t *testing.T) {
	dir := actionRepo(t, map[string]string{"use.yml": usingWorkflow})
	if r := runActionlint(t, dir, ".github/workflows/use.yml"); r.code != 0 {
		t.Fatalf("actionlint on a workflow using every input and output: %s", r)
	}
	// Controls: actionlint really reads action.yml, so an input or output
	// the Action lacks is an error.
	for name, bad := range map[string]string{
		"input":  strings.Replace(usingWorkflow, "fail-on: warning", "fail-level: warning", 1),
		"output": strings.Replace(usingWorkflow, "steps.rl.outputs.warnings", "steps.rl.outputs.warning_count", 1),
	} {
		dir := actionRepo(t, map[string]string{"use.yml": bad})
		r := runActionlint(t, dir, ".github/workflows/use.yml")
		if r.code != 1 {
			t.Errorf("actionlint accepted an unknown %s: %s", name, r)
		}
	}
}

// action is the part of action.yml the checks below read.
type action struct {
	Name    string
	Inputs  map[string]struct{ Description, Default string }
	Outputs map[string]struct{ Description, Value string }
	Runs    struct {
		Using string
		Steps []actionStep
	}
}

type actionStep struct {
	ID, Name, Uses, Run, Shell, If string
	WorkingDirectory               string `yaml:"working-directory"`
	With                           map[string]string
	Env                            map[string]string
}

func loadAction(t *testing.T) action {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(false)
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

func TestActionMetadata(t *testing.T) {
	a := loadAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q, want composite", a.Runs.Using)
	}
	for _, in := range []string{"config", "fail-on", "sarif-file", "args"} {
		if _, ok := a.Inputs[in]; !ok || a.Inputs[in].Description == "" {
			t.Errorf("input %s missing or undocumented", in)
		}
	}
	if a.Inputs["fail-on"].Default != "error" {
		t.Errorf("fail-on default %q, want error (§6)", a.Inputs["fail-on"].Default)
	}
	for _, out := range []string{"errors", "warnings", "directories"} {
		if got, want := a.Outputs[out].Value, "${{ steps.check.outputs."+out+" }}"; got != want {
			t.Errorf("output %s = %q, want %q", out, got, want)
		}
	}
	expr := regexp.MustCompile(`\$\{\{`)
	inputRef := regexp.MustCompile(`inputs\.`)
	var setupGo, check bool
	for i, s := range a.Runs.Steps {
		// §7: inputs reach shell steps through env:, never ${{ }} in run:.
		if expr.MatchString(s.Run) {
			t.Errorf("step %d (%s): run: contains ${{ }}", i, s.Name)
		}
		if s.Run != "" && s.Shell != "bash" {
			t.Errorf("step %d (%s): shell %q, want bash (composite steps must name one)", i, s.Name, s.Shell)
		}
		if inputRef.MatchString(s.WorkingDirectory) {
			t.Errorf("step %d (%s): working-directory uses an input", i, s.Name)
		}
		if strings.HasPrefix(s.Uses, "actions/setup-go@") {
			setupGo = s.With["go-version-file"] == "${{ github.action_path }}/go.mod"
		}
		if s.ID == "check" {
			// One check writes both (issue #26: its notes printed once).
			check = strings.Contains(s.Run, "--format github") && strings.Contains(s.Run, `--format "sarif=`) &&
				strings.Count(s.Run, `"$RUNNER_TEMP/rivumi-lint" check`) == 1
			for _, in := range []string{"config", "fail-on", "sarif-file", "args"} {
				found := false
				for _, v := range s.Env {
					found = found || v == "${{ inputs."+in+" }}"
				}
				if !found {
					t.Errorf("check step: input %s is not passed through env:", in)
				}
			}
		}
	}
	if !setupGo {
		t.Error("no actions/setup-go step with go-version-file: ${{ github.action_path }}/go.mod")
	}
	if !check {
		t.Error("no step with id check running one check with --format github and --format sarif=FILE")
	}
}
