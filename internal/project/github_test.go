package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// The rows of SPEC §11's events table ("CI events and hook stages"), each
// with a realistic payload from testdata/github.

// eventPayload writes testdata/github/NAME with its placeholders replaced
// (@BEFORE@ … @DEFAULT@) and returns its path.
func eventPayload(t *testing.T, name string, ids map[string]string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "github", name))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for k, v := range ids {
		s = strings.ReplaceAll(s, "@"+k+"@", v)
	}
	if strings.Contains(s, "@DEFAULT@") {
		t.Fatalf("%s: @DEFAULT@ left in the payload", name)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func eventScope(t *testing.T, event, payload string) repo.Range {
	t.Helper()
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": payload}
	d, ok, err := GitHubScope(func(k string) string { return env[k] })
	if err != nil || !ok {
		t.Fatalf("GitHubScope(%s): ok %v, err %v", event, ok, err)
	}
	return d
}

// eventRepos is an origin whose feature branch adds app/AGENTS.md while
// main moves on (docs/AGENTS.md) after the branch point, and a clone of it
// (refs/remotes/origin/main present), where the checks run.
type eventRepos struct {
	origin, clone        *gittest.Repo
	branchPoint, feature string
	mainTip              string
}

func newEventRepos(t *testing.T) eventRepos {
	t.Helper()
	o := gittest.New(t)
	o.Write("AGENTS.md", "root\n", "legacy/AGENTS.md", "legacy\n", "docs/AGENTS.md", "docs one\n")
	bp := o.Commit("base")
	o.Git("checkout", "-q", "-b", "feature")
	o.Write("app/AGENTS.md", "app rules\n")
	o.Commit("feature one")
	o.Write("app/main.go", "package app\n")
	feature := o.Commit("feature two")
	o.Git("checkout", "-q", "main")
	o.Write("docs/AGENTS.md", "docs two\n")
	tip := o.Commit("main moved")
	cloneDir := filepath.Join(t.TempDir(), "clone")
	o.Git("clone", "-q", "--no-tags", o.Dir, cloneDir)
	c := gittest.At(t, cloneDir)
	c.Git("checkout", "-q", "--detach", feature)
	return eventRepos{origin: o, clone: c, branchPoint: bp, feature: feature, mainTip: tip}
}

// TestEventNewBranchMergeBase is the events table's row "push of a new
// branch (before all zeros)": the base is the merge base of after with
// repository.default_branch (origin/main here), so only the branch's own
// commits are checked, not the whole tree (failed before: every directory
// of after was checked).
func TestEventNewBranchMergeBase(t *testing.T) {
	e := newEventRepos(t)
	d := eventScope(t, "push", eventPayload(t, "push_new_branch.json", map[string]string{"AFTER": e.feature, "DEFAULT": "main"}))
	if d.Kind != repo.RangeNewBranch || d.DefaultBranch != "main" || strings.Contains(d.Describe(), "every directory") {
		t.Fatalf("scope %+v (%s)", d, d.Describe())
	}
	res, notes := runDiff(t, e.clone.Dir, d)
	if got := dirs(res); got != "app" {
		t.Fatalf("directories %q, want app (the branch's commits since %s); notes %q", got, e.branchPoint, notes)
	}
	if got := driftText(res); got != "[app] added app/AGENTS.md;\n" {
		t.Errorf("drift %q", got)
	}
	if n := strings.Join(notes, "\n"); !strings.Contains(n, "merge base "+e.branchPoint) || strings.Contains(n, "warning: ") {
		t.Errorf("notes %q: want the merge base named, no warning", notes)
	}
}

// TestEventNewBranchNoMergeBase: the events table's new-branch row when the
// merge base is not in the clone (no origin/main): every directory of
// after, with a warning that says so (more checking, never less).
func TestEventNewBranchNoMergeBase(t *testing.T) {
	e := newEventRepos(t)
	e.clone.Git("update-ref", "-d", "refs/remotes/origin/main")
	d := eventScope(t, "push", eventPayload(t, "push_new_branch.json", map[string]string{"AFTER": e.feature, "DEFAULT": "main"}))
	res, notes := runDiff(t, e.clone.Dir, d)
	if got := dirs(res); got != ".,app,docs,legacy" {
		t.Fatalf("directories %q, want every directory of after", got)
	}
	n := strings.Join(notes, "\n")
	if !strings.Contains(n, "warning: ") || !strings.Contains(n, "no merge base") || !strings.Contains(n, "every directory of "+e.feature) {
		t.Errorf("notes %q: want a warning naming the missing merge base", notes)
	}
	if strings.Contains(n, "HEAD~") {
		t.Errorf("notes %q: a suggested command must name full object ids", notes)
	}
}

// TestEventForcePushMissingBefore is the events table's row "push whose
// before cannot be fetched (force push)": the merge base with the default
// branch, with a warning (failed before: exit 2, the before commit is not
// in the repository).
func TestEventForcePushMissingBefore(t *testing.T) {
	e := newEventRepos(t)
	gone := strings.Repeat("5a", 20) // the rewritten commit, in no clone
	d := eventScope(t, "push", eventPayload(t, "push_force.json", map[string]string{"BEFORE": gone, "AFTER": e.feature, "DEFAULT": "main"}))
	res, notes, err := tryDiff(e.clone.Dir, d)
	if err != nil {
		t.Fatalf("force push with a missing before: %v", err)
	}
	if got := dirs(res); got != "app" {
		t.Fatalf("directories %q, want app", got)
	}
	n := strings.Join(notes, "\n")
	if !strings.Contains(n, "warning: ") || !strings.Contains(n, gone) || !strings.Contains(n, "merge base "+e.branchPoint) {
		t.Errorf("notes %q: want a warning naming before and the merge base", notes)
	}
}

// TestEventPushExistingBranch is the row "push of an existing branch":
// before..after.
func TestEventPushExistingBranch(t *testing.T) {
	e := newEventRepos(t)
	one := e.clone.Rev(e.feature + "~1")
	d := eventScope(t, "push", eventPayload(t, "push_branch.json", map[string]string{"BEFORE": one, "AFTER": e.feature, "DEFAULT": "main"}))
	res, notes := runDiff(t, e.clone.Dir, d)
	if got := dirs(res); got != "app" || driftText(res) != "" || strings.Contains(strings.Join(notes, "\n"), "warning: ") {
		t.Fatalf("directories %q drift %q notes %q, want app (app/main.go) and no drift", got, driftText(res), notes)
	}
}

// TestEventMergeGroup is the row "merge_group": base_sha..head_sha, not the
// whole tree (failed before: a merge_group event checked every directory,
// so legacy/ findings threw passing pull requests out of the queue).
func TestEventMergeGroup(t *testing.T) {
	e := newEventRepos(t)
	c := e.clone
	c.Git("checkout", "-q", "--detach", e.mainTip)
	c.Git("merge", "-q", "--no-ff", "-m", "Merge pull request #42", e.feature)
	head := c.Rev("HEAD")
	d := eventScope(t, "merge_group", eventPayload(t, "merge_group.json", map[string]string{"BASE": e.mainTip, "HEAD": head, "DEFAULT": "main"}))
	if d.Base != e.mainTip || d.Head != head {
		t.Fatalf("scope %+v", d)
	}
	res, _ := runDiff(t, c.Dir, d)
	if got := dirs(res); got != "app" {
		t.Fatalf("directories %q, want app", got)
	}
}

// TestEventWholeTree is the row "push of a tag, workflow_dispatch,
// schedule, other": the whole worktree, announced as what it is (failed
// before: a tag push was announced as "a new branch").
func TestEventWholeTree(t *testing.T) {
	e := newEventRepos(t)
	for _, tc := range []struct{ event, file, want string }{
		{"push", "push_tag.json", "a push of the tag v1.2.0"},
		{"workflow_dispatch", "workflow_dispatch.json", "no change to compare"},
		{"schedule", "schedule.json", "no change to compare"},
		{"release", "schedule.json", "no change to compare"},
	} {
		d := eventScope(t, tc.event, eventPayload(t, tc.file, map[string]string{"AFTER": e.feature, "DEFAULT": "main"}))
		desc := d.Describe()
		if d.Enabled() || !strings.Contains(desc, tc.want) || !strings.Contains(desc, "the whole worktree") || strings.Contains(desc, "new branch") {
			t.Errorf("%s: scope %+v, described %q", tc.file, d, desc)
		}
	}
}

// TestEventPushDeletesBranch: a push that deletes a branch (after all
// zeros) has nothing to check.
func TestEventPushDeletesBranch(t *testing.T) {
	d := eventScope(t, "push", eventPayload(t, "push_delete.json", map[string]string{"BEFORE": strings.Repeat("ab", 20), "DEFAULT": "main"}))
	if d.Kind != repo.RangeDeleted || !strings.Contains(d.Describe(), "nothing to check") {
		t.Fatalf("scope %+v (%s)", d, d.Describe())
	}
}
