package project

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/claude"
	"github.com/rivumi/rivumi-lint/internal/agent/codex"
	"github.com/rivumi/rivumi-lint/internal/agent/copilot"
	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// profileRow is how a run makes one profile's resolver.
type profileRow struct {
	// also are the entry names the engine's listings must keep for it.
	also func(cfg *config.Config) []string
	// build makes its resolver from the config and the run.
	build func(r *Run) (agent.Build, error)
}

// builders are the profiles' rows: the one place outside a profile's
// package that names it, one row per profile of agent's table but
// Rivumi's (whose policy is the engine's). TestEveryProfileIsBuilt keeps
// the two tables in step.
var builders = map[string]profileRow{
	agent.Codex: {also: func(cfg *config.Config) []string { o := codexOptions(cfg); return o.Also() },
		build: (*Run).codex},
	agent.Claude: {also: func(*config.Config) []string { var o claude.Options; return o.Also() },
		build: (*Run).claude},
	agent.Copilot: {also: func(*config.Config) []string { return copilot.Also() },
		build: (*Run).copilot},
}

// profilesOn are the enabled profiles' names but Rivumi's, in the table's
// order.
func profilesOn(cfg *config.Config) []string {
	var on []string
	for _, name := range agent.Names() {
		if name != agent.Rivumi && cfg.Enabled(name) {
			on = append(on, name)
		}
	}
	return on
}

// codexOptions are the codex profile's settings from the config.
func codexOptions(cfg *config.Config) codex.Options {
	return codex.Options{MaxBytes: cfg.Codex.MaxBytes, Fallbacks: cfg.Codex.Fallbacks,
		RootMarkers: cfg.Codex.RootMarkers}
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
	for _, name := range profilesOn(r.Config) {
		b, err := builders[name].build(r)
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

// codex builds the codex profile's resolver, from the config.
func (r *Run) codex() (agent.Build, error) {
	o := codexOptions(r.Config)
	o.RootAbs = r.rootAbs()
	// Codex's default marker is .git: the Git top holds one on the disk,
	// which the index and a commit's tree do not list.
	o.RootMarked = r.p.GitDir != "" && r.p.Prefix == ""
	abs := filepath.FromSlash(o.RootAbs)
	o.MarkerAbove = func(markers []string) string { return markerAbove(abs, markers) }
	var err error
	if o.User, err = codex.ReadUser(r.p.opts.Env.CodexHome); err != nil {
		return nil, fmt.Errorf("codex profile: %w", err)
	}
	return func(e agent.Engine) (agent.Resolver, error) { return codex.New(e, o), nil }, nil
}

// copilot builds the copilot profile's resolver: the user's files from
// ~/.copilot, read once per run.
func (r *Run) copilot() (agent.Build, error) {
	o := copilot.Options{RootAbs: r.rootAbs(), CustomDirs: r.p.opts.Env.CopilotCustomDirs}
	if o.CustomDirs == "" && len(r.Config.Copilot.CustomDirs) > 0 {
		o.CustomDirs = strings.Join(r.Config.Copilot.CustomDirs, ",")
	}
	// Copilot's chain runs from the Git top (the worktree's own, for a
	// linked one), which the root is, or lies above.
	o.Git = r.p.GitDir != "" && r.p.Prefix == ""
	o.GitAbove = r.p.GitDir != "" && r.p.Prefix != ""
	var err error
	if o.User, err = copilot.ReadUser(r.p.opts.Env.CopilotHome); err != nil {
		return nil, fmt.Errorf("copilot profile: %w", err)
	}
	return func(e agent.Engine) (agent.Resolver, error) { return copilot.New(e, o), nil }, nil
}

// claude builds the claude profile's resolver, from the config.
func (r *Run) claude() (agent.Build, error) {
	abs := r.rootAbs()
	o := claude.Options{Mode: r.Config.Claude.InstructionFiles, RootAbs: abs,
		Home: r.p.opts.Env.ClaudeHome, Excludes: r.Config.Claude.Excludes, ExternalImports: r.Config.Claude.ExternalImports}
	root := filepath.FromSlash(abs)
	// Claude Code reads .claude/settings.local.json at the canonical Git
	// root too (#33.4): the root itself when it is a Git top, else the top
	// above it, or a linked worktree's main worktree, looked at by name.
	linked := r.p.GitDir != "" && repo.CommonDir(r.p.GitDir) != filepath.Clean(r.p.GitDir)
	o.RootGit = r.p.GitDir != "" && r.p.Prefix == "" && !linked
	if r.p.GitDir != "" && !o.RootGit {
		canon := r.p.GitTop
		if common := repo.CommonDir(r.p.GitDir); linked && filepath.Base(common) == ".git" {
			canon = filepath.Dir(common)
		}
		o.LocalAbove = func() string { return localAbove(canon) }
	}
	o.RealDir = func(abs string) string {
		p, err := filepath.EvalSymlinks(filepath.FromSlash(abs))
		if err != nil {
			return abs
		}
		return filepath.ToSlash(p)
	}
	o.Above = func(name string) bool { return nameAbove(root, name) }
	anyOf := func(ps ...string) bool {
		for _, p := range ps {
			if _, err := os.Stat(p); err == nil {
				return true
			}
		}
		return false
	}
	o.Managed = func() bool { return anyOf("/etc/claude-code/CLAUDE.md", "/etc/claude-code/.claude/rules") }
	o.ManagedSettings = func() bool {
		return anyOf("/etc/claude-code/managed-settings.json", "/etc/claude-code/managed-settings.d")
	}
	return func(e agent.Engine) (agent.Resolver, error) { return claude.New(e, o), nil }, nil
}

// localAbove says why a claude view is not exact when the canonical Git
// root canon, outside the root, holds .claude/settings.local.json, whose
// claudeMdExcludes Claude Code applies: only the name is looked at.
func localAbove(canon string) string {
	p := filepath.Join(canon, ".claude", "settings.local.json")
	if _, err := os.Lstat(p); err != nil {
		return ""
	}
	return "the Git root Claude Code takes (" + filepath.ToSlash(canon) + ", outside the root) holds .claude/settings.local.json, whose claudeMdExcludes Claude Code applies; rivumi-lint reads only the repository"
}

// nameAbove reports whether a directory above root, below the file
// system's root, holds an entry called name, as Claude Code's chain runs
// up to there: only names are looked at, nothing is read.
func nameAbove(root, name string) bool {
	for d := filepath.Dir(root); filepath.Dir(d) != d; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, name)); err == nil {
			return true
		}
	}
	return false
}

// markerAbove is the nearest directory above root holding one of
// markers, as Codex looks for them up to the file system's root: only
// names are looked at (a stat), nothing is read; "" for none.
func markerAbove(root string, markers []string) string {
	for d := filepath.Dir(root); ; d = filepath.Dir(d) {
		for _, m := range markers {
			if m == "" {
				continue
			}
			if _, err := os.Stat(filepath.Join(d, filepath.FromSlash(m))); err == nil {
				return d
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
