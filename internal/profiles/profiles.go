// Package profiles is the agent profiles' registry (A1): one row per
// profile, holding everything a run needs from it — what it is, its
// config section, the environment it reads, the entries the engine's
// listings keep for it and how its resolver is built. The engine, the
// config, the rules and every front end loop over this table; nothing
// outside a profile's package and its row names one profile
// (TestProfilesStayInTheirPackages). CONTRIBUTING.md, "An agent profile",
// says how to add a row.
package profiles

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/config"
)

// Row is one profile of the registry.
type Row struct {
	Profile *agent.Profile
	// Config is the profile's config section: its doc and keys (paths
	// relative to the section), none for a profile with no settings.
	Config config.Profile
	// Shows are the config keys `rivumi-lint agents` lists for it; nil
	// for its section's keys.
	Shows []string
	// Env are the environment variables it reads (agent.Env has them).
	Env []string
	// Also are the entry names the engine's listings must keep for it.
	Also func(s config.Values) []string
	// AnyCase are the names of Also the engine keeps in any letter case.
	AnyCase []string
	// Build makes its resolver's builder for one run; nil for Rivumi's,
	// whose policy is the engine's.
	Build func(s config.Values, at Place) (agent.Build, error)
}

// Place is where a run's root is, as a profile's builder needs it.
type Place struct {
	// Root is the root as the run names it (an OS path).
	Root string
	// RootAbs is its absolute, physical path, slash-separated: the
	// directory the agents name, as getcwd gives it to them.
	RootAbs string
	// GitDir is the repository's Git directory, "" outside Git; GitTop
	// its work tree's top, and Prefix the root's path below it ("" when
	// the root is the top).
	GitDir, GitTop, Prefix string
	// Env is where the agents find their user files.
	Env agent.Env
}

// rows is the registry, Rivumi first; the rest in the order findings
// and listings name them.
var rows = []Row{
	{Profile: agent.RivumiProfile, Config: config.Profile{Name: agent.Rivumi},
		Shows: []string{"filenames.override", "filenames.normal", "limits.max_file_bytes"}},
	codexRow,
	claudeRow,
	copilotRow,
}

// All returns every row, Rivumi's first.
func All() []Row { return slices.Clone(rows) }

// Lookup returns the row of the profile called name, or nil.
func Lookup(name string) *Row {
	for i := range rows {
		if rows[i].Profile.Name == name {
			return &rows[i]
		}
	}
	return nil
}

// Names returns the profiles' names, in the table's order.
func Names() []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Profile.Name)
	}
	return out
}

// Ordered returns names in the table's order, each once.
func Ordered(names []string) []string {
	var out []string
	for _, r := range rows {
		if slices.Contains(names, r.Profile.Name) {
			out = append(out, r.Profile.Name)
		}
	}
	return out
}

// ParseList reads a --agent value: names separated by commas, or all.
// The result is in the table's order, each name once.
func ParseList(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("--agent needs a profile name (%s, or all)", strings.Join(Names(), ", "))
	}
	var given []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "all" {
			return Names(), nil
		}
		if Lookup(f) == nil {
			return nil, fmt.Errorf("unknown agent profile %q: the profiles are %s (or all; `rivumi-lint agents` lists them)", f, strings.Join(Names(), ", "))
		}
		given = append(given, f)
	}
	return Ordered(given), nil
}

// Config are the profiles' parts of the config, for config.Parse, Load,
// Default, Schema and Template.
func Config() []config.Profile {
	var out []config.Profile
	for _, r := range rows {
		out = append(out, r.Config)
	}
	return out
}

// Env reads, once, what every profile needs from the process's
// environment: getenv reads a variable, home is os.UserHomeDir.
func Env(getenv func(string) string, home func() (string, error)) agent.Env {
	var names []string
	for _, r := range rows {
		names = append(names, r.Env...)
	}
	return agent.EnvFrom(getenv, home, names)
}

// Options are the config keys `rivumi-lint agents` lists for the row.
func (r *Row) Options() []config.Option {
	paths := r.Shows
	if paths == nil {
		paths = r.Config.SectionPaths()
	}
	return config.Options(paths, Config()...)
}
