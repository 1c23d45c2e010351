package project

import (
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// A8, RL021: the references are found beside the agent profiles' views
// (agent.Views): in the worktree mode from a source of their own, in the
// diff modes from the head's tree and the base's, read under the views'
// lock. The findings are the ones a run without profiles gives; .ci/run
// runs this test under -race too.
func TestReferencesBesideAgentViews(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "Read `docs/setup.md` first.\n", "docs/setup.md", "setup\n",
		"a/b/AGENTS.md", "b, see [the guide](gone.md)\n", "a/b/CLAUDE.md", "claude, see @notes.md\n", "a/b/notes.md", "notes\n",
		"a/b/.claude/rules/style.md", "style\n", "Makefile", "build:\n\ttrue\n", "a/AGENTS.md", "run `make build`\n",
		"c/AGENTS.override.md", " \n", "c/AGENTS.md", "c\n")
	g.Commit("one")
	g.Git("mv", "docs/setup.md", "docs/install.md")
	g.Write("a/b/AGENTS.md", "b, see [the guide](gone.md) and `make build`\n", "a/b/CLAUDE.md", "claude, see @notes.md again\n")
	g.Commit("two")
	for _, scope := range []struct {
		name string
		s    Scope
	}{
		{"diff", Scope{Diff: repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1", Head: "HEAD"}}},
		{"worktree", Scope{}},
	} {
		rl021 := func(agents string) []string {
			g.Write(ConfigName, "agents: ["+agents+"]\n")
			res, _, err := Check(Options{Root: g.Dir, Env: agent.Env{Home: t.TempDir()}}, scope.s)
			if err != nil {
				t.Fatalf("%s, agents %s: %v", scope.name, agents, err)
			}
			var out []string
			for _, f := range res.Findings {
				if f.Rule == "RL021" {
					out = append(out, f.Path+": "+f.Message)
				}
			}
			return out
		}
		alone, all := rl021("rivumi"), rl021("rivumi, codex, claude")
		if len(alone) == 0 {
			t.Fatalf("%s: no RL021 finding without profiles", scope.name)
		}
		if strings.Join(all, "\n") != strings.Join(alone, "\n") {
			t.Errorf("%s: RL021 with every profile\n%s\nwithout\n%s", scope.name, strings.Join(all, "\n"), strings.Join(alone, "\n"))
		}
	}
}
