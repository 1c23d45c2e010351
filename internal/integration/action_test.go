package integration

// The composite Action's shell steps (SPEC §7 `action.yml`), run as the
// GitHub runner runs them: each `run:` script of action.yml in
// `bash --noprofile --norc -eo pipefail`, with the step's env: (its
// ${{ }} expressions evaluated from the inputs and the event), fresh
// $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY files per step, a real event
// payload in $GITHUB_EVENT_PATH, $GITHUB_ACTION_PATH at this module and
// the workspace a shallow clone (actions/checkout's default fetch-depth: 1)
// of a local origin.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runner simulates one job: the workspace, the event and the inputs.
type runner struct {
	t         *testing.T
	workspace string
	temp      string
	event     string // github.event_name
	eventPath string
	inputs    map[string]string
	steps     []actionStep
	sha       string // GITHUB_SHA, when set
	// actionPath is GITHUB_ACTION_PATH: this module unless a test uses a
	// copy (with or without a recorded release, D3).
	actionPath string
	// runnerOS and runnerArch are RUNNER_OS and RUNNER_ARCH (Linux, X64
	// unless a test sets them).
	runnerOS, runnerArch string
	// extraEnv is added to every step's environment (a download URL, a
	// PATH without Go).
	extraEnv []string
}

type stepResult struct {
	result
	outputs map[string]string
	summary string
}

func newRunner(t *testing.T, workspace, event string, payload any, inputs map[string]string) *runner {
	t.Helper()
	a := loadAction(t)
	r := &runner{t: t, workspace: workspace, temp: t.TempDir(), event: event, inputs: map[string]string{}, steps: a.Runs.Steps,
		actionPath: moduleRoot(t), runnerOS: "Linux", runnerArch: "X64"}
	if _, err := os.Stat(filepath.Join(r.actionPath, "action", "release", "version")); err == nil {
		// A record commit (docs/releasing.md): these tests run the
		// checkout's own source, as at any other commit.
		r.actionPath = actionCopy(t, "", "")
	}
	for name, in := range a.Inputs {
		r.inputs[name] = in.Default
	}
	for k, v := range inputs {
		if _, ok := a.Inputs[k]; !ok {
			t.Fatalf("action.yml has no input %q", k)
		}
		r.inputs[k] = v
	}
	b, err := json.MarshalIndent(payload, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	r.eventPath = filepath.Join(r.temp, "event.json")
	if err := os.WriteFile(r.eventPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

var exprRE = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// eval evaluates the expressions action.yml puts in a step's env:; any
// other expression fails the test, so the simulation cannot drift from
// the file.
func (r *runner) eval(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		e := exprRE.FindStringSubmatch(m)[1]
		if name, ok := strings.CutPrefix(e, "inputs."); ok {
			v, ok := r.inputs[name]
			if !ok {
				r.t.Fatalf("env: refers to unknown input %q", name)
			}
			return v
		}
		switch e {
		case "github.event_name":
			return r.event
		case "github.action_path":
			return r.actionPath
		}
		r.t.Fatalf("the simulated runner cannot evaluate ${{ %s }}: teach action_test.go", e)
		return ""
	})
}

// step runs the run: script of the step with the given name.
func (r *runner) step(name string) stepResult {
	t := r.t
	t.Helper()
	var s *actionStep
	for i := range r.steps {
		if r.steps[i].Name == name {
			s = &r.steps[i]
		}
	}
	if s == nil || s.Run == "" {
		t.Fatalf("action.yml has no run: step %q", name)
	}
	if s.Shell != "bash" {
		t.Fatalf("step %q: shell %q", name, s.Shell)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "step.sh")
	output := filepath.Join(dir, "output")
	summary := filepath.Join(dir, "summary")
	for _, f := range []string{script, output, summary} {
		content := ""
		if f == script {
			content = s.Run
		}
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	environ := env(t,
		"CI=true",
		"GITHUB_ACTIONS=true",
		"GITHUB_EVENT_NAME="+r.event,
		"GITHUB_EVENT_PATH="+r.eventPath,
		"GITHUB_WORKSPACE="+r.workspace,
		"GITHUB_ACTION_PATH="+r.actionPath,
		"GITHUB_OUTPUT="+output,
		"GITHUB_STEP_SUMMARY="+summary,
		"GITHUB_ENV="+filepath.Join(dir, "env"),
		"GITHUB_PATH="+filepath.Join(dir, "path"),
		"GITHUB_REPOSITORY=acme/app",
		"RUNNER_TEMP="+r.temp,
		"RUNNER_OS="+r.runnerOS,
		"RUNNER_ARCH="+r.runnerArch,
	)
	if r.sha != "" {
		environ = append(environ, "GITHUB_SHA="+r.sha)
	}
	for k, v := range s.Env {
		environ = append(environ, k+"="+r.eval(v))
	}
	environ = append(environ, r.extraEnv...)
	wd := r.workspace
	if s.WorkingDirectory != "" {
		wd = r.eval(s.WorkingDirectory)
	}
	res := run(t, wd, environ, nil, "bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	sr := stepResult{result: res, outputs: parseOutputFile(t, output)}
	b, _ := os.ReadFile(summary)
	sr.summary = string(b)
	return sr
}

// install runs the Action's install steps as the runner would: the
// install step, then the source build only when it said so (the `if:` of
// the setup-go and build steps, checked in TestActionInstallSteps).
func (r *runner) install() stepResult {
	r.t.Helper()
	res := r.step("Install rivumi-lint")
	if res.code != 0 || res.outputs["source"] != "true" {
		return res
	}
	return r.step("Build rivumi-lint from source")
}

// parseOutputFile reads a $GITHUB_OUTPUT file as the runner does:
// NAME=VALUE lines and NAME<<DELIMITER blocks.
func parseOutputFile(t *testing.T, name string) map[string]string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		if k, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(k, "=") {
			var val []string
			closed := false
			for sc.Scan() {
				if sc.Text() == delim {
					closed = true
					break
				}
				val = append(val, sc.Text())
			}
			if !closed {
				t.Fatalf("%s: %s<<%s is never closed", name, k, delim)
			}
			out[k] = strings.Join(val, "\n")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("%s: malformed line %q", name, line)
		}
		out[k] = v
	}
	return out
}

// annotation is one workflow command line: ::LEVEL PROPS::MESSAGE.
type annotation struct {
	level   string
	props   map[string]string
	message string
}

var annotationRE = regexp.MustCompile(`^::(error|warning|notice)(?: ([^:]*))?::(.*)$`)

// parseAnnotations reads the annotation commands of a step's output, with
// the properties split as the runner splits them (they are escaped, so a
// comma or colon inside a value cannot split it).
func parseAnnotations(stdout string) []annotation {
	var out []annotation
	for _, line := range strings.Split(stdout, "\n") {
		m := annotationRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		a := annotation{level: m[1], props: map[string]string{}, message: m[3]}
		for _, kv := range strings.Split(m[2], ",") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				a.props[k] = v
			}
		}
		out = append(out, a)
	}
	return out
}

// hasAnnotation reports whether some annotation of level has every
// KEY=VALUE property.
func hasAnnotation(anns []annotation, level string, props ...string) bool {
next:
	for _, a := range anns {
		if a.level != level {
			continue
		}
		for _, kv := range props {
			k, v, _ := strings.Cut(kv, "=")
			if a.props[k] != v {
				continue next
			}
		}
		return true
	}
	return false
}

// origin is a local repository with a base commit (clean instruction files
// plus one old problem in a directory the change does not touch) and a head
// commit that adds a bad file on a branch.
type origin struct {
	dir, base, head string
}

func newOrigin(t *testing.T, extra ...map[string]string) origin {
	t.Helper()
	dir := newRepo(t, map[string]string{
		"AGENTS.md":        "# root rules\n",
		"legacy/AGENTS.md": "# old\nhidden \u200b space\n", // RL010, present before the change
		"app/main.go":      "package app\n",
	})
	base := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	git(t, dir, "checkout", "-q", "-b", "feature")
	writeFiles(t, dir, map[string]string{
		"app/AGENTS.md":  "# app rules\nab\xffc\n", // RL004 at 2:3
		"app/Agents.md":  "near miss\n",            // RL011 warning
		"docs/AGENTS.md": "# docs\n",
		"app/handler.go": "package app\n",
	})
	for _, files := range extra {
		writeFiles(t, dir, files)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "feature: app rules")
	head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	git(t, dir, "checkout", "-q", "main")
	return origin{dir: dir, base: base, head: head}
}

// shallowClone clones branch from o one commit deep, as actions/checkout
// does by default.
func shallowClone(t *testing.T, o origin, branch string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "workspace")
	git(t, "", "clone", "-q", "--depth", "1", "--no-tags", "--branch", branch, "file://"+o.dir, dst)
	if s := strings.TrimSpace(git(t, dst, "rev-parse", "--is-shallow-repository")); s != "true" {
		t.Fatalf("clone is not shallow: %s", s)
	}
	return dst
}

func hasCommit(t *testing.T, dir, sha string) bool {
	t.Helper()
	return run(t, dir, env(t), nil, "git", "cat-file", "-e", sha+"^{commit}").code == 0
}

// pullRequestPayload is a pull_request "opened" event as GitHub sends it,
// trimmed to the fields a workflow commonly reads.
func pullRequestPayload(o origin) map[string]any {
	repo := map[string]any{
		"id": 123456789, "name": "app", "full_name": "acme/app", "private": false,
		"owner":          map[string]any{"login": "acme", "id": 1, "type": "Organization"},
		"html_url":       "https://github.com/acme/app",
		"default_branch": "main",
	}
	user := map[string]any{"login": "octocat", "id": 583231, "type": "User"}
	return map[string]any{
		"action": "opened",
		"number": 42,
		"pull_request": map[string]any{
			"id": 1, "number": 42, "state": "open", "title": "feature: app rules",
			"user": user, "draft": false, "merged": false,
			"html_url": "https://github.com/acme/app/pull/42",
			"head": map[string]any{
				"label": "acme:feature", "ref": "feature", "sha": o.head, "user": user, "repo": repo,
			},
			"base": map[string]any{
				"label": "acme:main", "ref": "main", "sha": o.base, "user": user, "repo": repo,
			},
			"commits": 1, "additions": 6, "deletions": 0, "changed_files": 4,
		},
		"repository": repo,
		"sender":     user,
	}
}

func TestActionStepsOnShallowPullRequestClone(t *testing.T) {
	// §7 action.yml "works with actions/checkout's default fetch-depth: 1
	// (it fetches the base commit it needs)"; §10 shallow clones.
	o := newOrigin(t)
	ws := shallowClone(t, o, "feature")
	if hasCommit(t, ws, o.base) {
		t.Fatal("the shallow clone already has the base commit; the test would prove nothing")
	}
	sarif := filepath.Join(ws, "rivumi-lint.sarif")
	r := newRunner(t, ws, "pull_request", pullRequestPayload(o), map[string]string{"sarif-file": sarif, "category": "rivumi-lint/app"})

	build := r.install()
	if build.code != 0 {
		t.Fatalf("build step: %s", build)
	}
	if _, err := os.Stat(filepath.Join(r.temp, "rivumi-lint")); err != nil {
		t.Fatalf("build step left no $RUNNER_TEMP/rivumi-lint: %v", err)
	}

	fetch := r.step("Fetch the commits to compare")
	if fetch.code != 0 {
		t.Fatalf("fetch step: %s", fetch)
	}
	if !hasCommit(t, ws, o.base) {
		t.Fatalf("the fetch step did not fetch the base commit %s: %s", o.base, fetch)
	}
	if s := strings.TrimSpace(git(t, ws, "rev-parse", "--is-shallow-repository")); s != "true" {
		t.Fatalf("the fetch deepened the clone to the full history (is-shallow %s)", s)
	}

	check := r.step("Check")
	if check.code != 1 {
		t.Fatalf("check step: want exit 1 (an error finding, fail-on error)\n%s", check)
	}
	// Annotations on the exact line.
	anns := parseAnnotations(check.stdout)
	if !hasAnnotation(anns, "error", "file=app/AGENTS.md", "line=2", "col=3", "title=RL004 invalid-utf8") {
		t.Fatalf("no error annotation for app/AGENTS.md:2:3:\n%s", check)
	}
	if !hasAnnotation(anns, "warning", "file=app/Agents.md", "title=RL011 near-miss-name") {
		t.Fatalf("no warning annotation for app/Agents.md:\n%s", check)
	}
	// Event scope (§6): base and head from the payload, so a problem in a
	// directory the pull request does not touch is not reported.
	if strings.Contains(check.stdout, "legacy/AGENTS.md") {
		t.Errorf("legacy/AGENTS.md is outside the pull request's change but was reported:\n%s", check.stdout)
	}
	// Outputs in $GITHUB_OUTPUT, as the action's outputs read them.
	for _, k := range []string{"errors", "warnings", "directories"} {
		if _, ok := check.outputs[k]; !ok {
			t.Errorf("step output %s missing from $GITHUB_OUTPUT: %v", k, check.outputs)
		}
	}
	if check.outputs["errors"] != "1" || check.outputs["warnings"] != "1" {
		t.Errorf("outputs errors=%q warnings=%q, want 1 and 1", check.outputs["errors"], check.outputs["warnings"])
	}
	if check.outputs["directories"] == "" || check.outputs["directories"] == "0" {
		t.Errorf("output directories=%q", check.outputs["directories"])
	}
	if !strings.Contains(check.summary, "RL004") {
		t.Errorf("job summary lacks the RL004 finding:\n%s", check.summary)
	}
	// SARIF for code scanning.
	b, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatalf("sarif-file not written: %v", err)
	}
	var doc struct {
		Version string
		Runs    []struct {
			Results           []struct{ RuleID string }
			AutomationDetails struct{ ID string }
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil || doc.Version != "2.1.0" || len(doc.Runs) != 1 {
		t.Fatalf("sarif-file is not SARIF 2.1.0 (%v): %.300s", err, b)
	}
	// The category input reaches the SARIF run (§7: through env:).
	if id := doc.Runs[0].AutomationDetails.ID; id != "rivumi-lint/app/" {
		t.Errorf("SARIF automationDetails.id = %q, want the category input rivumi-lint/app/", id)
	}
	rules := fmt.Sprint(doc.Runs[0].Results)
	if !strings.Contains(rules, "RL004") || !strings.Contains(rules, "RL011") {
		t.Errorf("SARIF results %s lack RL004 or RL011", rules)
	}
	// Nothing but the SARIF file the user asked for was written (R10).
	if st := git(t, ws, "status", "--porcelain"); st != "?? rivumi-lint.sarif\n" {
		t.Errorf("workspace status after the action: %q", st)
	}
}

func TestActionStepsOnPush(t *testing.T) {
	o := newOrigin(t)
	git(t, o.dir, "update-ref", "refs/heads/main", o.head) // the feature was pushed to main
	ws := shallowClone(t, o, "main")
	payload := map[string]any{
		"ref": "refs/heads/main", "before": o.base, "after": o.head,
		"created": false, "deleted": false, "forced": false,
		"repository":  map[string]any{"full_name": "acme/app", "default_branch": "main"},
		"head_commit": map[string]any{"id": o.head, "message": "feature: app rules"},
	}
	r := newRunner(t, ws, "push", payload, map[string]string{"fail-on": "never"})
	if res := r.install(); res.code != 0 {
		t.Fatalf("build step: %s", res)
	}
	fetch := r.step("Fetch the commits to compare")
	if fetch.code != 0 || !hasCommit(t, ws, o.base) {
		t.Fatalf("fetch step on push did not fetch before=%s: %s", o.base, fetch)
	}
	if !strings.Contains(fetch.stdout, o.head+" is present") {
		t.Errorf("fetch step should find after=%s already present: %s", o.head, fetch)
	}
	check := r.step("Check")
	if check.code != 0 || !hasAnnotation(parseAnnotations(check.stdout), "error", "file=app/AGENTS.md", "line=2") {
		t.Fatalf("check step with fail-on never: want exit 0 and the annotation\n%s", check)
	}
	if check.outputs["errors"] != "1" {
		t.Errorf("outputs %v", check.outputs)
	}
}

func TestActionFetchStepWithFullHistoryAndOtherEvents(t *testing.T) {
	o := newOrigin(t)
	full := filepath.Join(t.TempDir(), "full")
	git(t, "", "clone", "-q", "--branch", "feature", "file://"+o.dir, full)
	r := newRunner(t, full, "pull_request", pullRequestPayload(o), nil)
	fetch := r.step("Fetch the commits to compare")
	if fetch.code != 0 || strings.Contains(fetch.stdout, "fetching") {
		t.Fatalf("fetch step on a full clone should fetch nothing: %s", fetch)
	}
	r = newRunner(t, full, "workflow_dispatch", map[string]any{"inputs": map[string]any{}}, nil)
	if fetch := r.step("Fetch the commits to compare"); fetch.code != 0 {
		t.Fatalf("fetch step on workflow_dispatch: %s", fetch)
	}
	// A base commit the origin does not have: the step fails with the fix.
	p := pullRequestPayload(o)
	p["pull_request"].(map[string]any)["base"].(map[string]any)["sha"] = strings.Repeat("ab", 20)
	ws := shallowClone(t, o, "feature")
	r = newRunner(t, ws, "pull_request", p, nil)
	fetch = r.step("Fetch the commits to compare")
	if fetch.code == 0 || !strings.Contains(fetch.stdout, "fetch-depth: 0") {
		t.Fatalf("fetch of a missing base: want failure naming fetch-depth: 0\n%s", fetch)
	}
}

func TestActionAnnotationsOnHostileFileNames(t *testing.T) {
	// §7 github format and §10 ("annotation output can never be turned
	// into another workflow command by a file name or content"), end to
	// end through the Action: a directory whose name holds a newline, "::",
	// "," and "%" yields one escaped annotation, never a forged one.
	hostile := "odd\n::error file=forged.md,line=1::pwned, 100%"
	o := newOrigin(t, map[string]string{hostile + "/AGENTS.md": "# rules\nx\xffy\n"})
	ws := shallowClone(t, o, "feature")
	r := newRunner(t, ws, "pull_request", pullRequestPayload(o), nil)
	if res := r.install(); res.code != 0 {
		t.Fatalf("install: %s", res)
	}
	if res := r.step("Fetch the commits to compare"); res.code != 0 {
		t.Fatalf("fetch: %s", res)
	}
	check := r.step("Check")
	if check.code != 1 {
		t.Fatalf("check: %s", check)
	}
	anns := parseAnnotations(check.stdout)
	for _, line := range strings.Split(check.stdout, "\n") {
		if strings.HasPrefix(line, "::") && annotationRE.FindStringSubmatch(line) == nil {
			t.Errorf("a workflow command that is not an annotation: %q", line)
		}
	}
	for _, a := range anns {
		if a.props["file"] == "forged.md" || strings.Contains(a.props["file"], "\n") {
			t.Fatalf("a file name forged an annotation: %+v\n%s", a, check.stdout)
		}
	}
	// The newline is shown as \x0a (report.SafeLine), so the runner never
	// turns it back into a line break.
	want := `odd\x0a%3A%3Aerror file=forged.md%2Cline=1%3A%3Apwned%2C 100%25/AGENTS.md`
	if !hasAnnotation(anns, "error", "file="+want, "line=2", "col=2") {
		t.Fatalf("no escaped annotation for the hostile file (want file=%s):\n%s", want, check.stdout)
	}
	t.Logf("annotations:\n%s", check.stdout)
	if check.outputs["errors"] != "2" {
		t.Errorf("outputs %v, want errors=2", check.outputs)
	}
}

func TestActionInputsAreNotShellCode(t *testing.T) {
	// §7: inputs reach the shell only through env:, so shell syntax in an
	// input is an argument like any other, never run.
	o := newOrigin(t)
	ws := shallowClone(t, o, "feature")
	pwned := filepath.Join(t.TempDir(), "pwned")
	inputs := map[string]string{
		"args":    "$(touch " + pwned + ") `touch " + pwned + "` ; touch " + pwned,
		"config":  "\"; touch " + pwned + "; echo \"",
		"fail-on": "error",
	}
	r := newRunner(t, ws, "pull_request", pullRequestPayload(o), inputs)
	if res := r.install(); res.code != 0 {
		t.Fatalf("build step: %s", res)
	}
	check := r.step("Check")
	if _, err := os.Stat(pwned); err == nil {
		t.Fatalf("an input was run as shell code:\n%s", check)
	}
	if check.code != 2 {
		t.Fatalf("check with a config file that does not exist: want exit 2\n%s", check)
	}
}

// TestActionStepsOnMergeCommitCheckout is §6/§7 with what actions/checkout
// does on a pull_request event by default: it checks out GITHUB_SHA, the
// test merge of the head into the base branch (refs/pull/N/merge), one
// commit deep. Here the base branch moved after the pull request branched:
// it changed legacy/AGENTS.md, whose older version (in the head commit)
// has an RL010 finding. The check compares the merge commit with its first
// parent, fetched by the fetch step, so legacy/ is not in scope; comparing
// base.sha with head.sha would report legacy/AGENTS.md.
func TestActionStepsOnMergeCommitCheckout(t *testing.T) {
	o := newOrigin(t)
	writeFiles(t, o.dir, map[string]string{"legacy/AGENTS.md": "# old, cleaned\n"})
	git(t, o.dir, "commit", "-q", "-am", "main: clean legacy")
	baseTip := strings.TrimSpace(git(t, o.dir, "rev-parse", "HEAD"))
	git(t, o.dir, "checkout", "-q", "--detach", baseTip)
	git(t, o.dir, "merge", "-q", "--no-ff", "-m", "Merge feature into main", "feature")
	merge := strings.TrimSpace(git(t, o.dir, "rev-parse", "HEAD"))
	git(t, o.dir, "update-ref", "refs/pull/42/merge", merge)
	git(t, o.dir, "checkout", "-q", "main")

	// As actions/checkout: init, fetch the merge ref one commit deep,
	// check it out detached.
	ws := filepath.Join(t.TempDir(), "workspace")
	git(t, "", "init", "-q", ws)
	git(t, ws, "remote", "add", "origin", "file://"+o.dir)
	git(t, ws, "fetch", "-q", "--no-tags", "--depth=1", "origin", "+refs/pull/42/merge:refs/remotes/pull/42/merge")
	git(t, ws, "checkout", "-q", "--detach", "refs/remotes/pull/42/merge")
	if hasCommit(t, ws, baseTip) || hasCommit(t, ws, o.head) {
		t.Fatal("the merge checkout already has its parents; the test would prove nothing")
	}

	p := pullRequestPayload(o)
	p["pull_request"].(map[string]any)["base"].(map[string]any)["sha"] = baseTip
	r := newRunner(t, ws, "pull_request", p, nil)
	r.sha = merge
	if build := r.install(); build.code != 0 {
		t.Fatalf("build step: %s", build)
	}
	if fetch := r.step("Fetch the commits to compare"); fetch.code != 0 || !hasCommit(t, ws, baseTip) || !hasCommit(t, ws, o.head) {
		t.Fatalf("fetch step: the merge's parents are not both present after it:\n%s", fetch)
	}
	check := r.step("Check")
	if check.code != 1 {
		t.Fatalf("check step: want exit 1 (the RL004 error of app/AGENTS.md)\n%s", check)
	}
	if !hasAnnotation(parseAnnotations(check.stdout), "error", "file=app/AGENTS.md", "line=2", "col=3", "title=RL004 invalid-utf8") {
		t.Errorf("no error annotation for app/AGENTS.md:2:3:\n%s", check)
	}
	if strings.Contains(check.stdout, "legacy/AGENTS.md") {
		t.Errorf("legacy/AGENTS.md changed only on the base branch but was reported:\n%s", check)
	}
	if !strings.Contains(check.stdout+check.stderr, "checking instead the merge commit "+merge[:12]) {
		t.Errorf("no note naming the merge commit:\n%s", check)
	}
}

// B3, §7 action.yml: the baseline input reaches check as --baseline (through
// env:): with the pushed findings recorded the step passes and annotates
// none of them; with an empty baseline the same push fails.
func TestActionBaselineInput(t *testing.T) {
	o := newOrigin(t)
	git(t, o.dir, "update-ref", "refs/heads/main", o.head)
	ws := shallowClone(t, o, "main")
	payload := map[string]any{
		"ref": "refs/heads/main", "before": o.base, "after": o.head,
		"created": false, "deleted": false, "forced": false,
		"repository":  map[string]any{"full_name": "acme/app", "default_branch": "main"},
		"head_commit": map[string]any{"id": o.head, "message": "feature: app rules"},
	}
	known := filepath.Join(t.TempDir(), "baseline.json")
	r := newRunner(t, ws, "push", payload, map[string]string{"baseline": known})
	if res := r.install(); res.code != 0 {
		t.Fatalf("build step: %s", res)
	}
	if fetch := r.step("Fetch the commits to compare"); fetch.code != 0 {
		t.Fatalf("fetch step: %s", fetch)
	}
	// Recorded from the whole worktree (B1), as docs/baseline.md says:
	// the push's two findings and legacy/'s, which the push leaves alone.
	if w := run(t, ws, env(t), nil, filepath.Join(r.temp, "rivumi-lint"), "check", "--write-baseline", known); w.code != 0 {
		t.Fatalf("check --write-baseline: %s", w)
	}
	check := r.step("Check")
	if check.code != 0 || len(parseAnnotations(check.stdout)) != 0 {
		t.Fatalf("check step with the findings in the baseline: want exit 0 and no annotation\n%s", check)
	}
	if !strings.Contains(check.stderr, "2 known findings in "+known+" not reported") || check.outputs["errors"] != "0" {
		t.Errorf("want the known count on stderr and errors=0: %v\n%s", check.outputs, check)
	}
	if err := os.WriteFile(known, []byte(`{"version": 1, "findings": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	check = r.step("Check")
	if check.code != 1 || !hasAnnotation(parseAnnotations(check.stdout), "error", "file=app/AGENTS.md", "line=2") {
		t.Fatalf("check step with an empty baseline: want exit 1 and the annotation\n%s", check)
	}
}
