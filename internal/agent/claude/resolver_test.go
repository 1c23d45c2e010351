package claude

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/agenttest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

func viewOf(t testing.TB, root, dir string, o Options) *agent.View {
	t.Helper()
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	closeWT := wt.Close
	t.Cleanup(func() { closeWT() }) // an open handle keeps Windows from removing the directory
	o.RootAbs = root
	e := resolve.New(wt, resolve.Options{Overrides: []string{"RIVUMI.override.md", "AGENTS.override.md"},
		Normals: []string{"RIVUMI.md", "AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
	v, err := New(e, o).View(dir)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const (
	tProject = " (project instructions, checked into the codebase)"
	tLocal   = " (user's private project instructions, not checked in)"
)

// blockOf is the block Claude Code sends for files: path, label, text.
func blockOf(files ...string) string {
	var parts []string
	for i := 0; i+2 < len(files); i += 3 {
		parts = append(parts, "Contents of "+files[i]+files[i+1]+":\n\n"+files[i+2])
	}
	return preamble + strings.Join(parts, "\n\n") + "\n</system-reminder>"
}

// The trees and texts of the harness's own check (TestClaudeHarness),
// whose expected texts were written from runs of the binary.
func TestClaudeHarnessTrees(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"CLAUDE.md":               "---\ndescription: dropped\n---\n\nrepo CLAUDE.md\n\n<!-- a block comment -->\n\nimports @docs/style.md (outside the working directory)\n\n\n",
		"docs/style.md":           "style\n",
		".claude/CLAUDE.md":       "repo .claude/CLAUDE.md\n",
		".claude/rules/a.md":      "---\npaths: [\"**\"]\n---\nrule for every path\n",
		".claude/rules/scoped.md": "---\npaths: \"src/**\"\n---\nscoped rule\n",
		".claude/rules/notes.txt": "not .md\n",
		"CLAUDE.local.md":         "repo local\n",
		"AGENTS.md":               "not loaded: a CLAUDE.md is on the chain\n",
		"sub/CLAUDE.md":           "sub CLAUDE.md, an inline <!-- kept --> comment\n@notes.md\n`@code.md` is not an import\n",
		"sub/notes.md":            "notes\r\nwith a CR\n",
		"sub/code.md":             "never\n",
		"sub/CLAUDE.local.md":     "local \xff\xc3 bytes\n",
		"sub/below/CLAUDE.md":     "below the working directory\n",
		"sub/.claude/rules/x.md":  "  \n\t\n",
	})
	v := viewOf(t, root, "sub", Options{})
	want := blockOf(
		root+"/CLAUDE.md", tProject, "repo CLAUDE.md\n\nimports @docs/style.md (outside the working directory)",
		root+"/.claude/CLAUDE.md", tProject, "repo .claude/CLAUDE.md",
		root+"/.claude/rules/a.md", tProject, "rule for every path",
		root+"/CLAUDE.local.md", tLocal, "repo local",
		root+"/sub/CLAUDE.md", tProject, "sub CLAUDE.md, an inline <!-- kept --> comment\n@notes.md\n`@code.md` is not an import",
		root+"/sub/notes.md", tProject, "notes\r\nwith a CR",
		root+"/sub/CLAUDE.local.md", tLocal, "local \ufffd\ufffd bytes",
	)
	if got := string(v.Message()); got != want || !v.Exact() {
		t.Errorf("sub (exact %v %q):\n%q\nwant\n%q", v.Exact(), v.Inexact, got, want)
	}
	for _, c := range v.Candidates {
		t.Logf("%s %s %s", c.Path, c.State, c.Reason)
	}

	agents := agenttest.Tree(t, map[string]string{
		"AGENTS.md":            "repo AGENTS.md\n",
		"CLAUDE.local.md":      strings.Repeat("x", 4<<20+1),
		"a/CLAUDE.md":          " \n\t\n",
		"a/.claude/rules/r.md": "a rule\n",
		"a/AGENTS.md":          "a AGENTS.md @notes.md\n",
		"a/notes.md":           "a notes\n",
		"a/AGENTS.override.md": "never read\n",
		"a/.claude/AGENTS.md":  "a .claude/AGENTS.md\n",
		"a/b/AGENTS.md":        "below the working directory\n",
	})
	v = viewOf(t, agents, "a", Options{})
	want = blockOf(
		agents+"/AGENTS.md", tProject, "repo AGENTS.md",
		agents+"/a/.claude/rules/r.md", tProject, "a rule",
		agents+"/a/AGENTS.md", tProject, "a AGENTS.md @notes.md",
		agents+"/a/notes.md", tProject, "a notes",
		agents+"/a/.claude/AGENTS.md", tProject, "a .claude/AGENTS.md",
	)
	if got := string(v.Message()); got != want {
		t.Errorf("agents/default:\n%q\nwant\n%q", got, want)
	}
	v = viewOf(t, agents, "a", Options{Mode: ModeClaude})
	if got, want := string(v.Message()), blockOf(agents+"/a/.claude/rules/r.md", tProject, "a rule"); got != want {
		t.Errorf("agents/claude-md:\n%q\nwant\n%q", got, want)
	}

	link := agenttest.Tree(t, map[string]string{
		"CLAUDE.md":         "-> AGENTS.md",
		"AGENTS.md":         "shared AGENTS.md\n",
		"a/AGENTS.md":       "a AGENTS.md\n",
		"a/CLAUDE.local.md": "a local\n",
	})
	v = viewOf(t, link, "a", Options{})
	if got, want := string(v.Message()), blockOf(link+"/CLAUDE.md", tProject, "shared AGENTS.md", link+"/a/CLAUDE.local.md", tLocal, "a local"); got != want {
		t.Errorf("link/default:\n%q\nwant\n%q", got, want)
	}
	v = viewOf(t, link, "a", Options{Mode: ModeBoth})
	if got, want := string(v.Message()), blockOf(link+"/CLAUDE.md", tProject, "shared AGENTS.md", link+"/a/CLAUDE.local.md", tLocal, "a local", link+"/a/AGENTS.md", tProject, "a AGENTS.md"); got != want {
		t.Errorf("link/both:\n%q\nwant\n%q", got, want)
	}
	v = viewOf(t, link, "a", Options{Mode: ModeManaged})
	if got := v.Message(); got != nil {
		t.Errorf("link/managed-only: %q", got)
	}
}

func candidateOf(v *agent.View, p string) *agent.Candidate {
	for i := range v.Candidates {
		if v.Candidates[i].Path == p {
			return &v.Candidates[i]
		}
	}
	return nil
}

// What the view says of each file, in the states and reasons the findings
// read (docs/agent-profiles.md).
func TestClaudeStates(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"CLAUDE.md":               "root\n\n@docs/a.md and @docs/missing.md\n@../outside.md\n@docs/d1.md\n",
		"docs/a.md":               "a\n",
		"docs/d1.md":              "@d2.md\n",
		"docs/d2.md":              "@d3.md\n",
		"docs/d3.md":              "@d4.md\n",
		"docs/d4.md":              "@d5.md\n",
		"docs/d5.md":              "@d6.md\n",
		"docs/d6.md":              "six\n",
		"CLAUDE.local.md":         strings.Repeat("x", maxBytes+1),
		".claude/rules/when.md":   "---\npaths: src/**\n---\nwhen\n",
		".claude/rules/always.md": "---\ndescription: x\n---\n<!-- c -->\nalways\n",
		".claude/rules/blank.md":  " \n",
		"AGENTS.md":               "agents\n",
		"sub/CLAUDE.md":           "sub\n",
		"sub/CLAUDE.local.md":     "excluded\n",
	})
	v := viewOf(t, root, "", Options{Excludes: []string{"**/sub/CLAUDE.local.md"}})
	for _, tc := range []struct {
		path   string
		state  agent.State
		reason string
	}{
		{"CLAUDE.md", agent.Loaded, "loaded"},
		{"docs/a.md", agent.Imported, "imported by CLAUDE.md"},
		{"docs/missing.md", agent.NotAFile, "no such file"},
		{"../outside.md", agent.Outside, "outside the working directory"},
		{"docs/d4.md", agent.Imported, "imported by docs/d3.md"},
		{"docs/d5.md", agent.Dropped, "more than four levels"},
		{"CLAUDE.local.md", agent.Oversized, "over the 4194304"},
		{".claude/rules/when.md", agent.Conditional, "paths: (src)"},
		{".claude/rules/always.md", agent.Loaded, "front matter removed; HTML comments removed"},
		{".claude/rules/blank.md", agent.Empty, "whitespace only"},
		{"AGENTS.md", agent.Ignored, "turned off by CLAUDE.md"},
	} {
		c := candidateOf(v, tc.path)
		if c == nil {
			t.Errorf("%s: no candidate in %+v", tc.path, v.Candidates)
			continue
		}
		if c.State != tc.state || !strings.Contains(c.Reason, tc.reason) {
			t.Errorf("%s: %s (%s), want %s (…%s…)", tc.path, c.State, c.Reason, tc.state, tc.reason)
		}
	}
	if c := candidateOf(v, "docs/missing.md"); c == nil || c.Line != 3 || c.Column != 16 {
		t.Errorf("the missing import's position: %+v, want line 3, column 16", c)
	}
	if c := candidateOf(v, "docs/a.md"); c == nil || c.Kept != 1 || c.Size != 2 || c.Label != tProject {
		t.Errorf("docs/a.md: %+v", c)
	}
	if got := viewOf(t, root, "sub", Options{Excludes: []string{"**/sub/CLAUDE.local.md"}}); candidateOf(got, "sub/CLAUDE.local.md").State != agent.Excluded {
		t.Errorf("sub/CLAUDE.local.md: %+v", candidateOf(got, "sub/CLAUDE.local.md"))
	}
	// In claude-md-and-agents-md, an AGENTS.md whose text a loaded file
	// already carries is not added again.
	dup := agenttest.Tree(t, map[string]string{"CLAUDE.md": "same text\n", "AGENTS.md": "same text\n\n", "a/AGENTS.md": "a\n"})
	v = viewOf(t, dup, "a", Options{Mode: ModeBoth})
	if c := candidateOf(v, "AGENTS.md"); c == nil || c.State != agent.Shadowed || !strings.Contains(c.Reason, "text of CLAUDE.md") {
		t.Errorf("AGENTS.md beside a CLAUDE.md of the same text: %+v", c)
	}
	if got, want := string(v.Message()), blockOf(dup+"/CLAUDE.md", tProject, "same text", dup+"/a/AGENTS.md", tProject, "a"); got != want {
		t.Errorf("both:\n%q\nwant\n%q", got, want)
	}
}

// Anything Claude Code would read outside the repository makes the view
// not exact: files above the root, the managed policy, a link out.
func TestClaudeInexact(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{"CLAUDE.md": "root\n", "a/CLAUDE.local.md": "-> /nonexistent-elsewhere/x.md", "b/x.md": "x\n"})
	for _, tc := range []struct {
		name string
		dir  string
		o    Options
		want string
	}{
		{"above", "b", Options{Above: func(n string) bool { return n == nameLocalMD }}, "above the repository's root holds CLAUDE.local.md"},
		{"managed", "b", Options{Managed: func() bool { return true }}, "/etc/claude-code"},
		{"link out", "a", Options{}, "out of the repository"},
	} {
		v := viewOf(t, root, tc.dir, tc.o)
		if v.Exact() || !strings.Contains(v.Inexact, tc.want) {
			t.Errorf("%s: inexact %q, want …%s…", tc.name, v.Inexact, tc.want)
		}
	}
	// An AGENTS.md above the root cannot matter when no AGENTS.md is read:
	// in claude-md mode, or where a CLAUDE.md turns them off.
	agentsAbove := func(n string) bool { return n == agentsMD }
	for _, mode := range []string{ModeClaude, ModeDefault} {
		if v := viewOf(t, root, "b", Options{Mode: mode, Above: agentsAbove}); !v.Exact() {
			t.Errorf("%s mode, AGENTS.md above the root, CLAUDE.md in it: %q", mode, v.Inexact)
		}
	}
	if v := viewOf(t, root, "b", Options{Mode: ModeBoth, Above: agentsAbove}); v.Exact() {
		t.Errorf("claude-md-and-agents-md mode, AGENTS.md above the root: exact")
	}
}

// A directory holding none of Claude Code's names shares its parent's
// view unless an import got in for lying in the parent's directory.
func TestClaudeViewSharing(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"CLAUDE.md":   "root @docs/x.md\n",
		"docs/x.md":   "x\n",
		"a/CLAUDE.md": "a\n",
		"a/b/c/f.go":  "package f\n",
		"docs/sub/y":  "y\n",
	})
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	closeWT := wt.Close
	t.Cleanup(func() { closeWT() }) // an open handle keeps Windows from removing the directory
	o := Options{RootAbs: root}
	e := resolve.New(wt, resolve.Options{Normals: []string{"AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
	r := New(e, o)
	view := func(d string) *agent.View {
		v, err := r.View(d)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	a, abc := view("a"), view("a/b/c")
	if abc.Origin() != a || string(abc.Message()) != string(a.Message()) || abc.Dir != "a/b/c" {
		t.Errorf("a/b/c does not share a's view")
	}
	// From docs the root's import of docs/x.md loads; from docs/sub it
	// does not (it is not in docs/sub): no sharing there.
	docs, sub := view("docs"), view("docs/sub")
	if sub.Origin() == docs.Origin() || candidateOf(sub, "docs/x.md").State != agent.Outside || candidateOf(docs, "docs/x.md").State != agent.Imported {
		t.Errorf("docs/sub shares docs's view, whose import lies outside it: %+v", sub.Candidates)
	}
	if c, ok := r.FileState(".claude/rules/none.md"); ok {
		t.Errorf("a file that does not exist has a state: %+v", c)
	}
	if c, ok := r.FileState("a/CLAUDE.md"); !ok || c.State != agent.Loaded {
		t.Errorf("FileState(a/CLAUDE.md) = %+v, %v", c, ok)
	}
}

// sortedSource is a Git-like source: it lists by name, not in the order a
// file system gives.
type sortedSource struct{ files map[string]string }

func (s *sortedSource) Name() string { return "index" }

func (s *sortedSource) kind(p string) resolve.Kind {
	if _, ok := s.files[p]; ok {
		return resolve.Regular
	}
	for k := range s.files {
		if p == "" || strings.HasPrefix(k, p+"/") {
			return resolve.Dir
		}
	}
	return resolve.Missing
}

func (s *sortedSource) List(dir string) ([]resolve.Entry, error) {
	seen := map[string]bool{}
	var out []resolve.Entry
	for k := range s.files {
		rest, ok := strings.CutPrefix(k, dir+"/")
		if dir == "" {
			rest, ok = k, true
		}
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, "/")
		if !seen[name] {
			seen[name] = true
			p := name
			if dir != "" {
				p = dir + "/" + name
			}
			out = append(out, resolve.Entry{Name: name, Kind: s.kind(p), Size: -1})
		}
	}
	slices.SortFunc(out, func(a, b resolve.Entry) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func (s *sortedSource) Lstat(p string) (resolve.Entry, error) {
	return resolve.Entry{Name: p, Kind: s.kind(p), Size: -1}, nil
}

func (s *sortedSource) Read(p string, limit int64) ([]byte, resolve.Kind, int64, error) {
	d, ok := s.files[p]
	if !ok {
		return nil, s.kind(p), 0, nil
	}
	return []byte(d), resolve.Regular, int64(len(d)), nil
}

func (s *sortedSource) LinkTarget(string) (string, error) { return "", nil }

// In a Git tree or the index the rules' order is the names', not the file
// system's, which Claude Code loads them in: two rules that load make the
// view not exact; one does not.
func TestClaudeRulesOrderOfASnapshot(t *testing.T) {
	for _, tc := range []struct {
		files map[string]string
		exact bool
	}{
		{map[string]string{".claude/rules/a.md": "a\n", ".claude/rules/b.md": "b\n"}, false},
		{map[string]string{".claude/rules/a.md": "a\n", ".claude/rules/b.md": "---\npaths: src/**\n---\nb\n"}, true},
		{map[string]string{".claude/rules/sub/a.md": "a\n", ".claude/rules/z.md": "z\n"}, false},
	} {
		src := &sortedSource{files: tc.files}
		o := Options{RootAbs: "/r"}
		e := resolve.New(src, resolve.Options{Normals: []string{"AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
		v, err := New(e, o).View("")
		if err != nil {
			t.Fatal(err)
		}
		if v.Exact() != tc.exact {
			t.Errorf("%v: exact %v (%q), want %v", tc.files, v.Exact(), v.Inexact, tc.exact)
		}
	}
}

// #33.5: Claude Code 2.1.328 exits where the working directory's path is
// not UTF-8 ("Can't access working directory"): the view loads nothing and
// says why, for the directory and every directory below it, and takes no
// parent's view; a UTF-8 directory beside it loads as before.
func TestClaudeDirNotUTF8(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a Windows file name is UTF-16: one whose bytes are not UTF-8 cannot be made")
	}
	root := agenttest.Tree(t, map[string]string{
		"CLAUDE.md":        "root\n",
		"a\xffb/CLAUDE.md": "inner\n@missing.md\n",
		"a\xffb/c/x.txt":   "below\n",
		"ok/x.txt":         "beside\n",
	})
	for _, dir := range []string{"a\xffb", "a\xffb/c"} {
		v := viewOf(t, root, dir, Options{})
		if v.Lost != noStart || len(v.Candidates) != 0 || v.Message() != nil || !v.Exact() {
			t.Errorf("%q: lost %q, %d candidates, message %q, exact %v", dir, v.Lost, len(v.Candidates), v.Message(), v.Exact())
		}
	}
	if v := viewOf(t, root, "ok", Options{}); v.Lost != "" || !strings.Contains(string(v.Message()), "root") {
		t.Errorf("ok: lost %q, message %q", v.Lost, v.Message())
	}
}
