package project

import (
	"path/filepath"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/profiles"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// profilesOn are the enabled profiles' rows but Rivumi's, in the
// registry's order.
func profilesOn(cfg *config.Config) []*profiles.Row {
	var on []*profiles.Row
	for _, name := range profiles.Names() {
		if name != agent.Rivumi && cfg.Enabled(name) {
			on = append(on, profiles.Lookup(name))
		}
	}
	return on
}

// AgentRun is one enabled profile's part of a run: its resolver and its
// views of the run's directories, one per Run.Resolutions entry.
type AgentRun struct {
	Resolver agent.Resolver
	Views    []*agent.View
}

// Agent returns the run of the profile called name, nil when it is off.
func (r *Run) Agent(name string) *AgentRun {
	for i := range r.Agents {
		if r.Agents[i].Resolver.Profile().Name == name {
			return &r.Agents[i]
		}
	}
	return nil
}

// agents resolves the other enabled profiles over the engine's listings
// and reads (A1): each one's view of each resolved directory.
func (r *Run) agents() error {
	var builds []agent.Build
	at := profiles.Place{Root: r.p.Root, RootAbs: r.rootAbs(), GitDir: r.p.GitDir, GitTop: r.p.GitTop,
		Prefix: r.p.Prefix, Env: r.p.opts.Env}
	for _, row := range profilesOn(r.Config) {
		b, err := row.Build(r.Config.Section(row.Profile.Name), at)
		if err != nil {
			return err
		}
		builds = append(builds, b)
	}
	if len(builds) == 0 {
		return nil
	}
	dirs := make([]string, len(r.Resolutions))
	for i, c := range r.Resolutions {
		dirs[i] = c.Dir
	}
	// The references read the engine's source (or, in the worktree
	// modes, one of their own) and not the engine: they are found beside
	// the views.
	find, err := r.referencesFinder()
	if err != nil {
		return err
	}
	var beside func(share func(resolve.Source) resolve.Source)
	if find != nil {
		beside = func(share func(resolve.Source) resolve.Source) {
			refs, err := find(share)
			r.refsBeside = &referencesResult{refs, err}
		}
	} else {
		r.refsBeside = &referencesResult{}
	}
	resolvers, views, err := agent.Views(r.Engine, builds, dirs, beside)
	if err != nil {
		return err
	}
	for i, res := range resolvers {
		r.Agents = append(r.Agents, AgentRun{Resolver: res, Views: views[i]})
	}
	return nil
}

// rootAbs is the root's absolute, physical path: the directory the agents
// name, as getcwd gives it to them.
func (r *Run) rootAbs() string {
	abs, err := filepath.EvalSymlinks(r.p.Root)
	if err != nil {
		abs = r.p.Root
	}
	return filepath.ToSlash(abs)
}
