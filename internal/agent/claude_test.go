package agent

import (
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

func claudeView(t *testing.T, root, dir string, o ClaudeOptions) *View {
	t.Helper()
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	o.RootAbs = root
	e := resolve.New(wt, resolve.Options{Overrides: []string{"RIVUMI.override.md", "AGENTS.override.md"},
		Normals: []string{"RIVUMI.md", "AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
	v, err := NewClaude(e, o).View(dir)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const (
	tProject = " (project instructions, checked into the codebase)"
	tLocal   = " (user's private project instructions, not checked in)"
)

// claudeBlock is the block Claude Code sends for files: path, label, text.
func claudeBlock(files ...string) string {
	var parts []string
	for i := 0; i+2 < len(files); i += 3 {
		parts = append(parts, "Contents of "+files[i]+files[i+1]+":\n\n"+files[i+2])
	}
	return claudePreamble + strings.Join(parts, "\n\n") + "\n</system-reminder>"
}

// The trees and texts of the harness's own check (TestClaudeHarness),
// whose expected texts were written from runs of the binary.
func TestClaudeHarnessTrees(t *testing.T) {
	root := tree(t, map[string]string{
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
	v := claudeView(t, root, "sub", ClaudeOptions{})
	want := claudeBlock(
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

	agents := tree(t, map[string]string{
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
	v = claudeView(t, agents, "a", ClaudeOptions{})
	want = claudeBlock(
		agents+"/AGENTS.md", tProject, "repo AGENTS.md",
		agents+"/a/.claude/rules/r.md", tProject, "a rule",
		agents+"/a/AGENTS.md", tProject, "a AGENTS.md @notes.md",
		agents+"/a/notes.md", tProject, "a notes",
		agents+"/a/.claude/AGENTS.md", tProject, "a .claude/AGENTS.md",
	)
	if got := string(v.Message()); got != want {
		t.Errorf("agents/default:\n%q\nwant\n%q", got, want)
	}
	v = claudeView(t, agents, "a", ClaudeOptions{Mode: ClaudeModeClaude})
	if got, want := string(v.Message()), claudeBlock(agents+"/a/.claude/rules/r.md", tProject, "a rule"); got != want {
		t.Errorf("agents/claude-md:\n%q\nwant\n%q", got, want)
	}

	link := tree(t, map[string]string{
		"CLAUDE.md":         "-> AGENTS.md",
		"AGENTS.md":         "shared AGENTS.md\n",
		"a/AGENTS.md":       "a AGENTS.md\n",
		"a/CLAUDE.local.md": "a local\n",
	})
	v = claudeView(t, link, "a", ClaudeOptions{})
	if got, want := string(v.Message()), claudeBlock(link+"/CLAUDE.md", tProject, "shared AGENTS.md", link+"/a/CLAUDE.local.md", tLocal, "a local"); got != want {
		t.Errorf("link/default:\n%q\nwant\n%q", got, want)
	}
	v = claudeView(t, link, "a", ClaudeOptions{Mode: ClaudeModeBoth})
	if got, want := string(v.Message()), claudeBlock(link+"/CLAUDE.md", tProject, "shared AGENTS.md", link+"/a/CLAUDE.local.md", tLocal, "a local", link+"/a/AGENTS.md", tProject, "a AGENTS.md"); got != want {
		t.Errorf("link/both:\n%q\nwant\n%q", got, want)
	}
	v = claudeView(t, link, "a", ClaudeOptions{Mode: ClaudeModeManaged})
	if got := v.Message(); got != nil {
		t.Errorf("link/managed-only: %q", got)
	}
}
