package agent_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/agenttest"
	"github.com/rivumi/rivumi-lint/internal/agent/claude"
	"github.com/rivumi/rivumi-lint/internal/agent/codex"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// A8, F1: the views made on goroutines, beside each other and beside other
// work, are the serial twin's; under -race (as .ci/run runs this package)
// the engine they share, listing directories for both, is read under the
// lock only: without it the race detector fails the test.
func TestViewsParallelIsSerial(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"AGENTS.md":                   "root rules\n",
		"a/AGENTS.md":                 "a rules\n",
		"a/b/AGENTS.override.md":      "  \n",
		"a/b/AGENTS.md":               "b rules\n",
		"a/b/c/CLAUDE.md":             "see @notes.md\n",
		"a/b/c/notes.md":              "notes\n",
		"d/CLAUDE.md":                 "-> ../AGENTS.md",
		"d/e/AGENTS.md":               "e rules\n",
		"f/.claude/rules/style.md":    "style\n",
		"f/g/RIVUMI.md":               "rivumi only\n",
		"f/g/h/AGENTS.md":             "h\n",
		"i/j/k/l/m/n/o/p/q/AGENTS.md": "deep\n",
	})
	dirs := []string{"", "a", "a/b", "a/b/c", "d", "d/e", "f", "f/g", "f/g/h", "i/j/k/l/m/n/o/p/q", "i/j"}
	run := func(parallel bool) [][]*agent.View {
		wt, err := resolve.OpenWorktree(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { wt.Close() })
		co := codex.Options{MaxBytes: codex.DefaultMaxBytes, RootAbs: root, RootMarked: true}
		cl := claude.Options{RootAbs: root}
		also := append(co.Also(), cl.Also()...)
		e := resolve.New(wt, resolve.Options{Overrides: []string{"RIVUMI.override.md", "AGENTS.override.md"},
			Normals: []string{"RIVUMI.md", "AGENTS.md"}, MaxFileBytes: 32768, Also: also})
		// No chain is resolved first: the resolvers make the engine list
		// the directories, on both goroutines.
		besideRan := false
		builds := []agent.Build{
			func(e agent.Engine) (agent.Resolver, error) { return codex.New(e, co), nil },
			func(e agent.Engine) (agent.Resolver, error) { return claude.New(e, cl), nil },
		}
		_, vs, err := agent.ViewsOn(e, builds, dirs, func(func(resolve.Source) resolve.Source) { besideRan = true }, parallel)
		if err != nil {
			t.Fatal(err)
		}
		if !besideRan {
			t.Fatal("beside did not run")
		}
		return vs
	}
	serial, parallel := run(false), run(true)
	for i := range serial {
		for j := range dirs {
			s, p := serial[i][j], parallel[i][j]
			if got, want := string(p.Message()), string(s.Message()); got != want {
				t.Errorf("profile %d, %q: message on goroutines\n%s\nserial\n%s", i, dirs[j], got, want)
			}
			if got, want := summary(p), summary(s); !reflect.DeepEqual(got, want) {
				t.Errorf("profile %d, %q: candidates on goroutines %v, serial %v", i, dirs[j], got, want)
			}
		}
	}
	if len(serial[1][3].Candidates) == 0 || len(serial[0][2].Candidates) == 0 {
		t.Fatalf("the fixture shows nothing: %v / %v", summary(serial[1][3]), summary(serial[0][2]))
	}
}

func summary(v *agent.View) []string {
	var out []string
	for _, c := range v.Candidates {
		out = append(out, fmt.Sprintf("%s %v %s", c.Path, c.State, c.Reason))
	}
	return append(out, "inexact: "+v.Inexact)
}

// A view is resolved once per directory; a failure is not kept.
func TestViewCache(t *testing.T) {
	calls := 0
	fail := true
	resolveDir := func(dir string) (*agent.View, error) {
		calls++
		if fail {
			return nil, errors.New("not yet")
		}
		return &agent.View{Dir: dir}, nil
	}
	m := agent.ViewCache{}
	if _, err := m.Get("a", resolveDir); err == nil {
		t.Fatal("the failure was not returned")
	}
	fail = false
	v1, err1 := m.Get("a", resolveDir)
	v2, err2 := m.Get("a", resolveDir)
	if err1 != nil || err2 != nil || v1 != v2 || v1.Dir != "a" || calls != 2 {
		t.Fatalf("views %p %p, errors %v %v, %d resolutions; want one view of a after the failure", v1, v2, err1, err2, calls)
	}
}
