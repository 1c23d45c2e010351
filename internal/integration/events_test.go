package integration

// SPEC §11's events table ("CI events and hook stages"), row by row through
// the Action's shell steps (action.yml, action/fetch.sh) with realistic
// payloads (testdata/github), on shallow clones of a local origin made as
// actions/checkout makes them (one commit deep).

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// eventOrigin is newOrigin's repository where main moved on after the
// feature branched (docs/), and the feature has a second commit, so a
// one-commit-deep clone of either holds no merge base.
type eventOrigin struct {
	origin
	branchPoint string // = base
	mainTip     string
}

func newEventOrigin(t *testing.T, featureCommits int) eventOrigin {
	t.Helper()
	o := newOrigin(t)
	git(t, o.dir, "checkout", "-q", "feature")
	extraCommits(t, o.dir, "app/notes", featureCommits)
	o.head = strings.TrimSpace(git(t, o.dir, "rev-parse", "HEAD"))
	git(t, o.dir, "checkout", "-q", "main")
	writeFiles(t, o.dir, map[string]string{"docs2/README.md": "moved on\n"})
	git(t, o.dir, "add", "-A")
	git(t, o.dir, "commit", "-q", "-m", "main moved")
	extraCommits(t, o.dir, "docs2/log", 2)
	tip := strings.TrimSpace(git(t, o.dir, "rev-parse", "HEAD"))
	return eventOrigin{origin: o, branchPoint: o.base, mainTip: tip}
}

// extraCommits adds n commits on the checked-out branch, each changing
// file, through git fast-import (a thousand commits in a blink).
func extraCommits(t *testing.T, dir, file string, n int) {
	t.Helper()
	if n == 0 {
		return
	}
	branch := strings.TrimSpace(git(t, dir, "symbolic-ref", "HEAD"))
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "commit %s\ncommitter T <t@example.com> %d +0000\ndata 5\nstep\n", branch, 1700000000+i)
		if i == 0 {
			fmt.Fprintf(&b, "from %s^0\n", branch)
		}
		content := fmt.Sprintf("%d\n", i)
		fmt.Fprintf(&b, "M 100644 inline %s\ndata %d\n%s\n", file, len(content), content)
	}
	res := run(t, dir, env(t), strings.NewReader(b.String()), "git", "fast-import", "--quiet")
	if res.code != 0 {
		t.Fatalf("fast-import: %s", res)
	}
	git(t, dir, "reset", "-q", "--hard")
}

// payload reads testdata/github/NAME with its placeholders replaced.
func payload(t *testing.T, name string, ids map[string]string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "testdata", "github", name))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for k, v := range ids {
		s = strings.ReplaceAll(s, "@"+k+"@", v)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

var actionBuild struct {
	once sync.Once
	dir  string
	res  stepResult
}

// eventRunner is newRunner with the Action's binary built once per test
// binary run (the build step itself is TestActionStepsOnShallowPullRequestClone's).
func eventRunner(t *testing.T, ws, event string, p map[string]any) *runner {
	t.Helper()
	r := newRunner(t, ws, event, p, nil)
	actionBuild.once.Do(func() {
		actionBuild.dir = filepath.Join(scratch, "action-temp")
		if err := os.MkdirAll(actionBuild.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		r.temp = actionBuild.dir
		actionBuild.res = r.install()
	})
	if actionBuild.res.code != 0 {
		t.Fatalf("build step: %s", actionBuild.res)
	}
	r.temp = actionBuild.dir
	return r
}

func (r *runner) fetchAndCheck() (fetch, check stepResult) {
	r.t.Helper()
	fetch = r.step("Fetch the commits to compare")
	if fetch.code != 0 {
		r.t.Fatalf("fetch step: %s", fetch)
	}
	return fetch, r.step("Check")
}

// checkedOnlyTheChange asserts the check reported app/ (the feature's
// RL004) and not legacy/ (an older problem outside the change).
func checkedOnlyTheChange(t *testing.T, check stepResult) {
	t.Helper()
	if !hasAnnotation(parseAnnotations(check.stdout), "error", "file=app/AGENTS.md", "line=2", "col=3") {
		t.Errorf("no annotation for app/AGENTS.md:2:3:\n%s", check)
	}
	if strings.Contains(check.stdout, "legacy/AGENTS.md") {
		t.Errorf("legacy/AGENTS.md is outside the change but was reported:\n%s", check)
	}
}

// TestEventsTableMergeGroup: merge_group compares merge_group.base_sha
// with head_sha (failed before: the whole tree, so legacy/ was reported).
func TestEventsTableMergeGroup(t *testing.T) {
	o := newEventOrigin(t, 1)
	// The merge queue's branch: the feature merged onto main's tip.
	git(t, o.dir, "checkout", "-q", "-b", "gh-readonly-queue/main/pr-42", o.mainTip)
	git(t, o.dir, "merge", "-q", "--no-ff", "-m", "Merge pull request #42", "feature")
	head := strings.TrimSpace(git(t, o.dir, "rev-parse", "HEAD"))
	git(t, o.dir, "checkout", "-q", "main")
	ws := shallowClone(t, o.origin, "gh-readonly-queue/main/pr-42")
	r := eventRunner(t, ws, "merge_group", payload(t, "merge_group.json", map[string]string{"BASE": o.mainTip, "HEAD": head, "DEFAULT": "main"}))
	fetch, check := r.fetchAndCheck()
	if !hasCommit(t, ws, o.mainTip) {
		t.Fatalf("the fetch step did not fetch base_sha:\n%s", fetch)
	}
	if check.code != 1 {
		t.Fatalf("check: %s", check)
	}
	checkedOnlyTheChange(t, check)
}

// TestEventsTableNewBranch: a push that creates a branch compares after
// with its merge base with repository.default_branch; the fetch step
// fetches main's tip and deepens both sides until the merge base is here,
// not the whole history (failed before: every directory of after).
func TestEventsTableNewBranch(t *testing.T) {
	o := newEventOrigin(t, 3)
	ws := shallowClone(t, o.origin, "feature")
	r := eventRunner(t, ws, "push", payload(t, "push_new_branch.json", map[string]string{"AFTER": o.head, "DEFAULT": "main"}))
	fetch, check := r.fetchAndCheck()
	if !hasCommit(t, ws, o.branchPoint) || !strings.Contains(fetch.stdout, "the merge base of "+o.head+" with main is "+o.branchPoint) {
		t.Fatalf("the fetch step did not bring the merge base %s:\n%s", o.branchPoint, fetch)
	}
	if !strings.Contains(fetch.stdout, "to 10 commits each") || strings.Contains(fetch.stdout, "to 50 commits each") {
		t.Errorf("the fetch step should deepen in steps and stop at the first that holds the merge base:\n%s", fetch)
	}
	if check.code != 1 {
		t.Fatalf("check: %s", check)
	}
	checkedOnlyTheChange(t, check)
	if strings.Contains(fetch.stdout+check.stdout+check.stderr, "::warning title=rivumi-lint") {
		t.Errorf("a warning where the merge base was found:\n%s\n%s", fetch, check)
	}
}

// TestEventsTableNewBranchPastTheCap: a branch 1,001 commits past the
// merge base: the fetch step stops at the cap with a warning annotation,
// and the check covers every directory of after (more checking, never
// less), with a warning annotation of its own.
func TestEventsTableNewBranchPastTheCap(t *testing.T) {
	o := newEventOrigin(t, 1001)
	ws := shallowClone(t, o.origin, "feature")
	r := eventRunner(t, ws, "push", payload(t, "push_new_branch.json", map[string]string{"AFTER": o.head, "DEFAULT": "main"}))
	fetch, check := r.fetchAndCheck()
	if !hasAnnotation(parseAnnotations(fetch.stdout), "warning", "title=rivumi-lint") || !strings.Contains(fetch.stdout, "within 1000 commits") {
		t.Fatalf("fetch step: want a warning annotation at the cap:\n%s", fetch)
	}
	if res := run(t, ws, env(t), nil, "git", "merge-base", o.head, "refs/remotes/origin/main"); res.code == 0 {
		t.Errorf("the fetch step went past the cap (the merge base is here):\n%s", fetch)
	}
	if check.code != 1 || !strings.Contains(check.stdout, "legacy/AGENTS.md") {
		t.Fatalf("check past the cap: want the whole tree (legacy/ reported):\n%s", check)
	}
	if !hasAnnotation(parseAnnotations(check.stderr), "warning", "title=rivumi-lint") {
		t.Errorf("check: no warning annotation saying the whole tree was checked:\n%s", check)
	}
}

// TestEventsTableForcePush: a force push whose before is gone from the
// origin: the fetch step warns instead of failing the job, and the check
// compares after with its merge base with main, with a warning annotation
// (failed before: the job failed, suggesting fetch-depth: 0, which fails
// the same way).
func TestEventsTableForcePush(t *testing.T) {
	o := newEventOrigin(t, 1)
	// The branch's old tip, rewritten away and pruned from the origin.
	git(t, o.dir, "checkout", "-q", "feature")
	writeFiles(t, o.dir, map[string]string{"app/old.txt": "old\n"})
	git(t, o.dir, "add", "-A")
	git(t, o.dir, "commit", "-q", "-m", "old tip")
	before := strings.TrimSpace(git(t, o.dir, "rev-parse", "HEAD"))
	git(t, o.dir, "reset", "-q", "--hard", o.head)
	git(t, o.dir, "checkout", "-q", "main")
	git(t, o.dir, "reflog", "expire", "--expire=now", "--all")
	git(t, o.dir, "gc", "-q", "--prune=now")
	if hasCommit(t, o.dir, before) {
		t.Fatal("the old tip is still in the origin; the test would prove nothing")
	}
	ws := shallowClone(t, o.origin, "feature")
	r := eventRunner(t, ws, "push", payload(t, "push_force.json", map[string]string{"BEFORE": before, "AFTER": o.head, "DEFAULT": "main"}))
	fetch, check := r.fetchAndCheck()
	if !hasAnnotation(parseAnnotations(fetch.stdout), "warning", "title=rivumi-lint") || !strings.Contains(fetch.stdout, before) {
		t.Fatalf("fetch step: want a warning naming before:\n%s", fetch)
	}
	if strings.Contains(fetch.stdout, "fetch-depth: 0") {
		t.Errorf("fetch step suggests fetch-depth: 0, which fails the same way:\n%s", fetch)
	}
	if check.code != 1 {
		t.Fatalf("check: %s", check)
	}
	checkedOnlyTheChange(t, check)
	if !hasAnnotation(parseAnnotations(check.stderr), "warning", "title=rivumi-lint") || !strings.Contains(check.stderr, "merge base "+o.branchPoint) {
		t.Errorf("check: want a warning annotation and the merge base %s:\n%s", o.branchPoint, check)
	}
}

// TestEventsTableWholeTree: a tag push, workflow_dispatch and schedule
// check the whole worktree, announced as what they are (failed before: a
// tag push was announced as "a new branch").
func TestEventsTableWholeTree(t *testing.T) {
	o := newEventOrigin(t, 1)
	git(t, o.dir, "tag", "v1.2.0", o.base)
	ws := filepath.Join(t.TempDir(), "workspace")
	git(t, "", "clone", "-q", "--depth", "1", "--branch", "v1.2.0", "file://"+o.dir, ws)
	for _, tc := range []struct{ event, file, say string }{
		{"push", "push_tag.json", "a push of the tag v1.2.0"},
		{"workflow_dispatch", "workflow_dispatch.json", "workflow_dispatch event"},
		{"schedule", "schedule.json", "schedule event"},
	} {
		r := eventRunner(t, ws, tc.event, payload(t, tc.file, map[string]string{"AFTER": o.base, "DEFAULT": "main"}))
		fetch, check := r.fetchAndCheck()
		if !strings.Contains(fetch.stdout, "checking the whole worktree") || strings.Contains(fetch.stdout, "fetching") {
			t.Errorf("%s: fetch step:\n%s", tc.file, fetch)
		}
		if check.code != 1 || !strings.Contains(check.stdout, "legacy/AGENTS.md") {
			t.Errorf("%s: want the whole worktree checked (legacy/ reported):\n%s", tc.file, check)
		}
		if !strings.Contains(check.stderr, tc.say) || strings.Contains(check.stderr, "new branch") {
			t.Errorf("%s: announced as:\n%s", tc.file, check.stderr)
		}
	}
}
