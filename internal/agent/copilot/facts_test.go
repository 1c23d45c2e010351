package copilot

import (
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/agenttest"
)

// The typed facts the copilot rules read (#35, RL022–RL025): an import's
// importer and place (a BOM counted in the first line's columns), an
// import Copilot leaves as text, the imports of a block sent once, the
// files of a folder between the root and the working directory, front
// matter kept.
func TestCopilotCandidateFacts(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"AGENTS.md":   "\ufeff@d/a.md x\nsee @d/gone.md, @octocat @types/node @/abs/x.md @../up.md @d\n",
		"d/a.md":      "a @b.md\n",
		"d/b.md":      "b\n",
		"CLAUDE.md":   "\ufeff@d/a.md x\nsee @d/gone.md, @octocat @types/node @/abs/x.md @../up.md @d\n",
		"m/AGENTS.md": "---\napplyTo: \"**\"\n---\nm\n",
		"m/.github/instructions/m.instructions.md": "between\n",
		"m/w/GEMINI.md": "---\nnot closed\n",
	})
	v := copilotView(t, root, "m/w", Options{Git: true})
	type fact struct {
		state        agent.State
		by           string
		line, column int
		kept         bool
	}
	got := map[string][]fact{}
	front := map[string]bool{}
	for _, c := range v.Candidates {
		got[c.Path] = append(got[c.Path], fact{c.State, c.ImportedBy, c.Line, c.Column, c.Kept > 0})
		front[c.Path] = c.FrontMatter
	}
	// AGENTS.md's imports: @d/a.md at its first line, column 4 (after the
	// BOM's 3 bytes), d/b.md by d/a.md; CLAUDE.md is the same text, sent
	// once: its imports are not sent either.
	want := map[string][]fact{
		"d/a.md":     {{agent.Imported, "AGENTS.md", 1, 4, true}, {agent.Imported, "CLAUDE.md", 1, 4, false}},
		"d/b.md":     {{agent.Imported, "d/a.md", 1, 3, true}, {agent.Imported, "d/a.md", 1, 3, false}},
		"d/gone.md,": {{agent.NotAFile, "AGENTS.md", 2, 5, false}, {agent.NotAFile, "CLAUDE.md", 2, 5, false}},
		"/abs/x.md":  {{agent.Ignored, "AGENTS.md", 2, 38, false}, {agent.Ignored, "CLAUDE.md", 2, 38, false}},
		"../up.md":   {{agent.Outside, "AGENTS.md", 2, 49, false}, {agent.Outside, "CLAUDE.md", 2, 49, false}},
		"AGENTS.md":  {{agent.Loaded, "", 0, 0, true}},
		"CLAUDE.md":  {{agent.Loaded, "", 0, 0, false}},
		"m/.github/instructions/m.instructions.md": {{agent.Ignored, "", 0, 0, false}},
	}
	for p, w := range want {
		if g := got[p]; len(g) != len(w) || func() bool {
			for i := range g {
				if g[i] != w[i] {
					return true
				}
			}
			return false
		}() {
			t.Errorf("%s: %+v, want %+v", p, g, w)
		}
	}
	// Mentions and a directory without an extension are not imports.
	for _, p := range []string{"octocat", "types/node", "d"} {
		if _, ok := got[p]; ok {
			t.Errorf("@%s is a candidate: %+v", p, got[p])
		}
	}
	if !front["m/AGENTS.md"] || front["m/w/GEMINI.md"] || front["AGENTS.md"] {
		t.Errorf("front matter: %v", front)
	}
}

func TestPathShape(t *testing.T) {
	for ref, want := range map[string]bool{
		"AGENTS.md": true, "docs/style.md": true, "./x": true, "../x": true, "x.md,": true,
		"octocat": false, "types/node": false, ".env": false, "x.": false, "": false, "a.b/c": false,
	} {
		if got := pathShape(ref); got != want {
			t.Errorf("pathShape(%q) = %v, want %v", ref, got, want)
		}
	}
}
