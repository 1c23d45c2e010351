package project

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// codexOptions are the codex profile's settings from the config.
func codexOptions(cfg *config.Config) agent.CodexOptions {
	return agent.CodexOptions{MaxBytes: cfg.Codex.MaxBytes, Fallbacks: cfg.Codex.Fallbacks,
		RootMarkers: cfg.Codex.RootMarkers}
}

// agents resolves the other enabled profiles over the engine's listings
// and reads (A1): Codex's view of each resolved directory.
func (r *Run) agents() error {
	if !r.Config.Enabled(agent.Codex) {
		return nil
	}
	o := codexOptions(r.Config)
	abs, err := filepath.EvalSymlinks(r.p.Root)
	if err != nil {
		abs = r.p.Root
	}
	o.RootAbs = filepath.ToSlash(abs)
	// Codex's default marker is .git: the Git top holds one on the disk,
	// which the index and a commit's tree do not list.
	o.RootMarked = r.p.GitDir != "" && r.p.Prefix == ""
	o.MarkerAbove = func(markers []string) string { return markerAbove(abs, markers) }
	if o.User, err = agent.ReadCodexUser(r.p.opts.CodexHome); err != nil {
		return fmt.Errorf("codex profile: %w", err)
	}
	r.Codex = agent.NewCodex(r.Engine, o)
	r.CodexViews = make([]*agent.View, len(r.Resolutions))
	for i, res := range r.Resolutions {
		if r.CodexViews[i], err = r.Codex.View(res.Dir); err != nil {
			return fmt.Errorf("codex profile: resolve %s: %w", resolve.DisplayDir(res.Dir), err)
		}
	}
	return nil
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
