package project

import (
	"slices"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/config"
)

// TestEveryProfileIsBuilt keeps builders in step with agent's table: each
// profile but Rivumi's (the engine's own) has a row here and a config
// section of its name, and no row names a profile the table lacks.
func TestEveryProfileIsBuilt(t *testing.T) {
	names := agent.Names()
	cfg := config.Default()
	for _, name := range names {
		if name == agent.Rivumi {
			continue
		}
		row, ok := builders[name]
		if !ok || row.build == nil || row.also == nil {
			t.Errorf("profile %s: no complete row in builders (agents.go)", name)
			continue
		}
		if len(row.also(cfg)) == 0 {
			t.Errorf("profile %s: its row keeps no names in the engine's listings", name)
		}
	}
	for name := range builders {
		if !slices.Contains(names, name) || name == agent.Rivumi {
			t.Errorf("builders has a row for %q, which agent's table does not list as a profile to build", name)
		}
	}
	schema := string(config.Schema())
	for _, name := range names {
		if name != agent.Rivumi && !containsKey(schema, name) {
			t.Errorf("profile %s: the config has no %s: section (config/keys.go)", name, name)
		}
	}
}

// containsKey reports whether the JSON schema has a property name.
func containsKey(schema, name string) bool { return strings.Contains(schema, `"`+name+`":`) }
