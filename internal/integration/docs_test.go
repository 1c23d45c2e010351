package integration

// The copy-paste snippets of docs/github-actions.md and docs/pre-commit.md
// (issue 5, "Docs"; SPEC §7 "the docs show that workflow"): every workflow
// passes actionlint with the Action's inputs and outputs checked against
// action.yml; every pre-commit config is valid to pre-commit, names hooks
// of .pre-commit-hooks.yaml, and runs clean with `pre-commit run --all-files`.

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// snippet is one fenced ```yaml block of a doc.
type snippet struct {
	line int // of the opening fence, 1-based
	text string
}

func yamlSnippets(t *testing.T, doc string) []snippet {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", doc))
	if err != nil {
		t.Fatal(err)
	}
	var out []snippet
	var cur *snippet
	for i, line := range strings.Split(string(b), "\n") {
		switch {
		case cur == nil && strings.TrimSpace(line) == "```yaml":
			cur = &snippet{line: i + 1}
		case cur != nil && strings.TrimSpace(line) == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("docs/%s: the yaml block at line %d is never closed", doc, cur.line)
	}
	return out
}

// actionRef is how the docs refer to the Action.
var actionRef = regexp.MustCompile(`uses: rivumi/rivumi-lint@\S+`)

func TestDocsGitHubActionsSnippets(t *testing.T) {
	snips := yamlSnippets(t, "github-actions.md")
	if len(snips) < 4 {
		t.Fatalf("docs/github-actions.md has %d yaml snippets, want the Action, outputs, SARIF and reviewdog", len(snips))
	}
	all := ""
	for _, s := range snips {
		all += s.text
		var wf struct {
			Jobs map[string]struct {
				Steps []struct{ Run string }
			}
		}
		if err := yaml.Unmarshal([]byte(s.text), &wf); err != nil || len(wf.Jobs) == 0 {
			t.Errorf("docs/github-actions.md:%d: not a workflow (%v)", s.line, err)
			continue
		}
		for _, j := range wf.Jobs {
			for _, st := range j.Steps {
				if strings.Contains(st.Run, "${{") {
					t.Errorf("docs/github-actions.md:%d: a run: script contains ${{ }}; pass values through env:", s.line)
				}
			}
		}
		// The Action as a local action, so actionlint checks the inputs
		// and outputs the snippet uses against action.yml.
		local := actionRef.ReplaceAllString(s.text, "uses: ./")
		dir := actionRepo(t, map[string]string{"snippet.yml": local})
		if r := runActionlint(t, dir, ".github/workflows/snippet.yml"); r.code != 0 {
			t.Errorf("docs/github-actions.md:%d: actionlint: %s", s.line, r)
		}
	}
	for _, want := range []string{
		"uses: rivumi/rivumi-lint@",
		"github/codeql-action/upload-sarif@",
		"security-events: write",
		"-f=rdjson -reporter=github-pr-review -filter-mode=added",
		"reviewdog_version: v0.21.0",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no docs/github-actions.md snippet shows %q", want)
		}
	}
	// Every input and output of action.yml is documented.
	doc, _ := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "github-actions.md"))
	a := loadAction(t)
	for name := range a.Inputs {
		if !strings.Contains(string(doc), "| `"+name+"` |") {
			t.Errorf("input %s is not in the inputs table of docs/github-actions.md", name)
		}
	}
	for name := range a.Outputs {
		if !strings.Contains(string(doc), "| `"+name+"` |") {
			t.Errorf("output %s is not in the outputs table of docs/github-actions.md", name)
		}
	}
}

// preCommitConfig is the strict shape of the docs' pre-commit configs.
type preCommitConfig struct {
	Repos []struct {
		Repo  string `yaml:"repo"`
		Rev   string `yaml:"rev"`
		Hooks []struct {
			ID              string   `yaml:"id"`
			Args            []string `yaml:"args"`
			LanguageVersion string   `yaml:"language_version"`
		} `yaml:"hooks"`
	} `yaml:"repos"`
}

func TestDocsPreCommitSnippets(t *testing.T) {
	pc := needPrek(t) // the manifest's stage names need pre-commit 3.2.0: precommit_test.go
	snips := yamlSnippets(t, "pre-commit.md")
	if len(snips) < 3 {
		t.Fatalf("docs/pre-commit.md has %d yaml snippets, want one per hook", len(snips))
	}
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest []struct{ ID string }
	if err := yaml.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, h := range manifest {
		ids[h.ID] = true
	}
	src, rev := sourceCopy(t)
	environ := preCommitEnv(t, filepath.Dir(rivumiLint(t)))
	shown := map[string]bool{}
	for _, s := range snips {
		if strings.Contains(s.text, "repo: local") {
			continue // the entry for pre-commit before 3.2.0: TestPreCommitOldClient runs it with 3.0.4
		}
		var cfg preCommitConfig
		dec := yaml.NewDecoder(strings.NewReader(s.text))
		dec.KnownFields(true)
		if err := dec.Decode(&cfg); err != nil || len(cfg.Repos) == 0 {
			t.Errorf("docs/pre-commit.md:%d: not a pre-commit config (%v)", s.line, err)
			continue
		}
		for _, r := range cfg.Repos {
			if r.Repo != "https://github.com/rivumi/rivumi-lint" || r.Rev == "" {
				t.Errorf("docs/pre-commit.md:%d: repo %q rev %q", s.line, r.Repo, r.Rev)
			}
			for _, h := range r.Hooks {
				if !ids[h.ID] {
					t.Errorf("docs/pre-commit.md:%d: hook %q is not in .pre-commit-hooks.yaml", s.line, h.ID)
				}
				shown[h.ID] = true
			}
		}
		// pre-commit itself accepts it, and it runs: the repo and rev
		// point at this source instead of the published one.
		dir := newRepo(t, map[string]string{"AGENTS.md": "# rules\n", "app/AGENTS.md": "# app\n"})
		// A baseline a snippet names is recorded first, as the doc says
		// (B1): a missing one would be exit 2.
		for _, r := range cfg.Repos {
			for _, h := range r.Hooks {
				for i, a := range h.Args {
					if a == "--baseline" && i+1 < len(h.Args) {
						if w := run(t, dir, environ, nil, rivumiLint(t), "check", "--write-baseline", h.Args[i+1]); w.code != 0 {
							t.Fatalf("check --write-baseline %s: %s", h.Args[i+1], w)
						}
					}
				}
			}
		}
		cfgFile := filepath.Join(t.TempDir(), "pre-commit-config.yaml")
		text := strings.Replace(s.text, "https://github.com/rivumi/rivumi-lint", src, 1)
		text = regexp.MustCompile(`(?m)^(\s*rev:) .*$`).ReplaceAllString(text, "${1} "+rev)
		if err := os.WriteFile(cfgFile, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := run(t, dir, environ, nil, pc, "validate-config", cfgFile); r.code != 0 {
			t.Errorf("docs/pre-commit.md:%d: prek validate-config: %s", s.line, r)
		}
		if r := preCommitRun(t, dir, cfgFile, environ, "--all-files"); r.code != 0 || !strings.Contains(r.stdout, "Passed") {
			t.Errorf("docs/pre-commit.md:%d: prek run --all-files on a clean repository: %s", s.line, r)
		}
	}
	for id := range ids {
		if !shown[id] {
			t.Errorf("docs/pre-commit.md has no snippet with hook %s", id)
		}
	}
}

// anyActionRef is the Action named with a ref anywhere in prose or YAML; a
// Go module path (github.com/rivumi/rivumi-lint/cmd/rivumi-lint@…) is not
// one.
var anyActionRef = regexp.MustCompile("(?:^|[^/.\\w-])rivumi/rivumi-lint@([^\\s`\"')]+)")

// TestDocsGiveOneActionRefD7: README.md and every docs/*.md give the
// Action as @v1, the tag each release moves to its recorded commit (issue
// #26: four different refs, three of which did not get the verified
// binary). The README's note for the time before the first release, which
// says to use main meanwhile, is the one exception; it goes with the
// first release.
func TestDocsGiveOneActionRefD7(t *testing.T) {
	root := moduleRoot(t)
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, p := range append([]string{filepath.Join(root, "README.md")}, docs...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		for i, par := range strings.Split(string(b), "\n\n") {
			if rel == "README.md" && strings.HasPrefix(par, "No release has been published yet") {
				continue
			}
			for _, m := range anyActionRef.FindAllStringSubmatch(par, -1) {
				seen++
				if m[1] != "v1" {
					t.Errorf("%s (paragraph %d): %q: the Action's one ref is @v1 (docs/releasing.md)", rel, i+1, m[0])
				}
			}
		}
	}
	if seen < 8 {
		t.Errorf("the docs name the Action with a ref %d times; want the README, init.md and the github-actions.md snippets at least", seen)
	}
}

// TestDocsActionSteps: docs/github-actions.md's step-by-step list names
// every step of action.yml, in its order (#33.14: the list had a fourth
// step, a separate SARIF run, that the Action no longer has).
func TestDocsActionSteps(t *testing.T) {
	root := moduleRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Steps []struct {
				Name string `yaml:"name"`
				Run  string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	d, err := os.ReadFile(filepath.Join(root, "docs", "github-actions.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(d)
	const from, to = "What it does, step by step", "The step fails when"
	i, j := strings.Index(doc, from), strings.Index(doc, to)
	if i < 0 || j < i {
		t.Fatalf("docs/github-actions.md lacks its step list (%q … %q)", from, to)
	}
	list := strings.Join(strings.Fields(doc[i:j]), " ") // a name may wrap
	at, checks := 0, 0
	for _, s := range action.Runs.Steps {
		checks += strings.Count(s.Run, `/rivumi-lint" check `)
		k := strings.Index(list[at:], "**"+s.Name+"**")
		if k < 0 {
			t.Errorf("the step list does not name action.yml's step %q (in bold, after the steps before it)", s.Name)
			continue
		}
		at += k
	}
	if len(action.Runs.Steps) < 4 {
		t.Errorf("action.yml has %d steps: the parse found too few to prove anything", len(action.Runs.Steps))
	}
	// One check writes every report: the list says so, and the Action does it.
	if checks != 1 || !strings.Contains(list, "from the same run") {
		t.Errorf("action.yml runs check %d times; the list must describe one run writing every report", checks)
	}
}
