package project

import (
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/profiles"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// TestEveryProfileIsBuilt runs every row of the registry as a run does:
// each profile but Rivumi's (the engine's own) builds a resolver from its
// config section's defaults, keeps names in the engine's listings, and the
// resolver calls itself by its row's profile.
func TestEveryProfileIsBuilt(t *testing.T) {
	cfg := config.Default(profiles.Config()...)
	root := t.TempDir()
	for _, row := range profiles.All() {
		name := row.Profile.Name
		if name == agent.Rivumi {
			if row.Build != nil {
				t.Errorf("rivumi's row has a builder: its policy is the engine's")
			}
			continue
		}
		if row.Build == nil || row.Also == nil {
			t.Errorf("profile %s: its row has no Build or no Also (internal/profiles)", name)
			continue
		}
		s := cfg.Section(name)
		if len(row.Also(s)) == 0 {
			t.Errorf("profile %s: its row keeps no names in the engine's listings", name)
		}
		b, err := row.Build(s, profiles.Place{Root: root, RootAbs: root, Env: agent.Env{Home: t.TempDir()}})
		if err != nil {
			t.Errorf("profile %s: build: %v", name, err)
			continue
		}
		wt, err := resolve.OpenWorktree(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { wt.Close() })
		e := resolve.New(wt, resolve.Options{Normals: []string{"AGENTS.md"}, MaxFileBytes: 32768, Also: row.Also(s)})
		res, views, err := agent.Views(e, []agent.Build{b}, []string{""}, nil)
		if err != nil {
			t.Errorf("profile %s: views: %v", name, err)
			continue
		}
		if res[0].Profile() != row.Profile || len(views[0]) != 1 {
			t.Errorf("profile %s: its resolver calls itself %s, %d views", name, res[0].Profile().Name, len(views[0]))
		}
	}
}
