package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/agenttest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// codexView resolves dir of the tree at root with o.
func codexView(t *testing.T, root, dir string, o Options) *agent.View {
	t.Helper()
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	closeWT := wt.Close
	t.Cleanup(func() { closeWT() }) // an open handle keeps Windows from removing the directory
	o.RootAbs = root
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	e := resolve.New(wt, resolve.Options{Overrides: []string{"RIVUMI.override.md", "AGENTS.override.md"},
		Normals: []string{"RIVUMI.md", "AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
	v, err := New(e, o).View(dir)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func wrap(root, dir, text string) string {
	if dir != "" {
		root += "/" + dir
	}
	return "# AGENTS.md instructions for " + root + "\n\n<INSTRUCTIONS>\n" + text + "\n</INSTRUCTIONS>"
}

// The expected texts below are what codex-cli 0.171.0 printed for the
// same trees (codex debug prompt-input), by hand, before the generated
// differential test (internal/integration) existed.
func TestCodexChain(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"AGENTS.md":              "root rules\n",
		"a/AGENTS.md":            "a rules\n",
		"a/b/AGENTS.override.md": "  \n",
		"a/b/AGENTS.md":          "b\n",
		"a/b/c/RIVUMI.md":        "rivumi only\n",
		"l/AGENTS.md":            "-> ../a/AGENTS.md",
		"loop/AGENTS.md":         "-> ../loop/x",
		"loop/x":                 "-> AGENTS.md",
		"d/realdir/":             "",
		"d/AGENTS.md":            "-> realdir",
		"d/CLAUDE.md":            "claude\n",
		"out/AGENTS.md":          "-> /nonexistent-elsewhere/AGENTS.md",
	})
	for _, tc := range []struct {
		dir  string
		o    Options
		want string
	}{
		{"a/b", Options{}, wrap(root, "a/b", "root rules\n\n\na rules\n")},
		{"a/b/c", Options{}, wrap(root, "a/b/c", "root rules\n\n\na rules\n")},
		{"l", Options{}, wrap(root, "l", "root rules\n\n\na rules\n")},
		{"loop", Options{}, ""},
		{"d", Options{Fallbacks: []string{"CLAUDE.md"}}, wrap(root, "d", "root rules\n\n\nclaude\n")},
		{"a", Options{MaxBytes: 5}, wrap(root, "a", "root ")},
		{"a", Options{RootMarkers: []string{}}, wrap(root, "a", "a rules\n")},
		{"a", Options{User: &agent.UserFile{Text: []byte("user rules\n")}}, wrap(root, "a", "user rules\n\n\n--- project-doc ---\n\nroot rules\n\n\na rules\n")},
	} {
		v := codexView(t, root, tc.dir, tc.o)
		if got := string(v.Message()); got != tc.want {
			t.Errorf("%s %+v: got\n%q\nwant\n%q", tc.dir, tc.o, got, tc.want)
		}
	}
	v := codexView(t, root, "out", Options{})
	if v.Exact() {
		t.Errorf("a link out of the root: view claims to be exact: %+v", v)
	}
	v = codexView(t, root, "a/b", Options{})
	var states []string
	for _, c := range v.Candidates {
		states = append(states, c.Path+"="+string(c.State))
	}
	if got, want := strings.Join(states, " "), "AGENTS.md=loaded a/AGENTS.md=loaded a/b/AGENTS.override.md=empty a/b/AGENTS.md=shadowed"; got != want {
		t.Errorf("states: got %s, want %s", got, want)
	}
}

func TestCodexTruncationInsideCharacter(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{"AGENTS.md": "abc\xe2\x82\xacdef", "a/AGENTS.md": "second\n"})
	v := codexView(t, root, "a", Options{MaxBytes: 5})
	if got, want := string(v.Message()), wrap(root, "a", "abc\uFFFD"); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if c := v.Candidates[0]; c.State != agent.Truncated || c.Kept != 5 || c.Size != 9 {
		t.Errorf("first: %+v", c)
	}
	if c := v.Candidates[1]; c.State != agent.Dropped {
		t.Errorf("second: %+v", c)
	}
}

// A directory with none of Codex's names and no root marker adds nothing
// to its parent's chain: its view is the parent's, for its own directory,
// the candidates shared rather than built again (the worktree check of a
// large repository resolves a view per directory). A marker below starts
// a chain of its own.
func TestCodexViewSharesTheParentsChain(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"AGENTS.md":   "root rules\n",
		"a/AGENTS.md": "a rules\n",
		"a/b/c/x.go":  "package x\n",
		"m/.hg":       "marker\n",
		"m/n/x.go":    "package x\n",
	})
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	closeWT := wt.Close
	t.Cleanup(func() { closeWT() }) // an open handle keeps Windows from removing the directory
	o := Options{MaxBytes: DefaultMaxBytes, RootAbs: root, RootMarkers: []string{".git", ".hg"}}
	e := resolve.New(wt, resolve.Options{Normals: []string{"AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
	r := New(e, o)
	view := func(dir string) *agent.View {
		v, err := r.View(dir)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	a, abc := view("a"), view("a/b/c")
	if got, want := string(abc.Message()), wrap(root, "a/b/c", "root rules\n\n\na rules\n"); got != want {
		t.Errorf("a/b/c: got %q, want %q", got, want)
	}
	if len(abc.Candidates) != 2 || &abc.Candidates[0] != &a.Candidates[0] {
		t.Errorf("a/b/c does not share a's candidates: %+v", abc.Candidates)
	}
	if abc.Dir != "a/b/c" || a.Dir != "a" {
		t.Errorf("dirs %q and %q", abc.Dir, a.Dir)
	}
	if mn := view("m/n"); mn.Start != "m" || len(mn.Candidates) != 0 || mn.Message() != nil {
		t.Errorf("m/n below the marker m: %+v", mn)
	}
}

// With no root marker anywhere Codex reads the working directory alone:
// a directory without files of its own then has no chain, not its
// parent's (differential seeds 15, 56); a marker that leads out of the
// root makes the view not exact, shared or not (seed 7).
func TestCodexNoMarkerIsNoSharing(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{"a/AGENTS.md": "a rules\n", "a/b/": "", "c/d/": ""})
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	closeWT := wt.Close
	t.Cleanup(func() { closeWT() }) // an open handle keeps Windows from removing the directory
	o := Options{MaxBytes: DefaultMaxBytes, RootMarkers: []string{".codexroot"}, RootAbs: root}
	e := resolve.New(wt, resolve.Options{Normals: []string{"AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
	r := New(e, o)
	if v, err := r.View("a"); err != nil || v.Message() == nil {
		t.Fatalf("a: %v %v", v, err)
	}
	if v, err := r.View("a/b"); err != nil || v.Message() != nil {
		t.Errorf("a/b has no file and no marker: Codex sends nothing, got %q (%v)", v.Message(), err)
	}
	if err := os.Symlink(filepath.Dir(root)+"/elsewhere", filepath.Join(root, "c/d/.codexroot")); err != nil {
		t.Fatal(err)
	}
	wt, _ = resolve.OpenWorktree(root, nil)
	closeWT2 := wt.Close
	t.Cleanup(func() { closeWT2() })
	e = resolve.New(wt, resolve.Options{Normals: []string{"AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
	r = New(e, o)
	r.View("c")
	if v, err := r.View("c/d"); err != nil || v.Exact() {
		t.Errorf("c/d's marker leads out of the root: the view claims to be exact (%v)", err)
	}
}
