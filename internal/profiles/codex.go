package profiles

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/codex"
	"github.com/rivumi/rivumi-lint/internal/config"
)

var codexRow = Row{Profile: codex.Profile,
	Config: config.Profile{Name: codex.Name,
		Doc: "The codex profile's settings (A2): set them as Codex's config.toml sets them.",
		Keys: []config.Key{
			{Path: "project_doc_max_bytes", Kind: config.KindInt, Min: 0, Max: config.MaxLimitBytes, Def: int64(32768),
				Doc: "Codex's budget in bytes for the whole chain of project files; 0 turns them off."},
			{Path: "project_doc_fallback_filenames", Kind: config.KindNames, Def: []string{},
				Doc: "Names Codex tries after AGENTS.md in each directory; [] for none."},
			{Path: "project_root_markers", Kind: config.KindNames, Def: []string{".git"},
				Doc: "Entries whose directory starts Codex's chain; [] for the working directory alone."},
		}},
	Env:   []string{"CODEX_HOME"},
	Also:  func(s config.Values) []string { o := codexOptions(s); return o.Also() },
	Build: buildCodex,
}

// codexOptions are the codex profile's settings from its config section.
func codexOptions(s config.Values) codex.Options {
	return codex.Options{MaxBytes: s.Int("project_doc_max_bytes"), Fallbacks: s.Strings("project_doc_fallback_filenames"),
		RootMarkers: s.Strings("project_root_markers")}
}

// buildCodex builds the codex resolver: the user file from $CODEX_HOME
// (else ~/.codex), read once per run.
func buildCodex(s config.Values, at Place) (agent.Build, error) {
	o := codexOptions(s)
	o.RootAbs = at.RootAbs
	// Codex's default marker is .git: the Git top holds one on the disk,
	// which the index and a commit's tree do not list.
	o.RootMarked = at.GitDir != "" && at.Prefix == ""
	abs := filepath.FromSlash(o.RootAbs)
	o.MarkerAbove = func(markers []string) string { return markerAbove(abs, markers) }
	home := at.Env.Get("CODEX_HOME")
	if home == "" {
		home = at.Env.InHome(".codex")
	}
	var err error
	if o.User, err = codex.ReadUser(home); err != nil {
		return nil, fmt.Errorf("codex profile: %w", err)
	}
	return func(e agent.Engine) (agent.Resolver, error) { return codex.New(e, o), nil }, nil
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
