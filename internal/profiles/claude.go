package profiles

import (
	"os"
	"path/filepath"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/claude"
	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/repo"
)

var claudeRow = Row{Profile: claude.Profile,
	Config: config.Profile{Name: claude.Name,
		Doc: "The claude profile's settings (A2 for Claude Code): set them as the users' Claude Code settings set them.",
		Keys: []config.Key{
			{Path: "instruction_files", Kind: config.KindEnum, Def: "claude-md-or-agents-md",
				Enum: []string{"claude-md-or-agents-md", "claude-md", "claude-md-and-agents-md", "managed-only"},
				Doc:  "Which files Claude Code loads (its agents-md plugin's instructionFiles): AGENTS.md only where no CLAUDE.md exists on the path (the default), CLAUDE.md only, both, or managed files only."},
			{Path: "md_excludes", Kind: config.KindPatterns, Def: []string{},
				Doc: "More of Claude Code's claudeMdExcludes, besides those of the settings files the profile reads: globs matched against each file's absolute path."},
			{Path: "external_imports", Kind: config.KindBool, Def: false,
				Doc: "Whether the users approved this project's imports from outside the working directory (~/.claude.json's hasClaudeMdExternalIncludesApproved): Claude Code then loads them; unapproved, it skips them."},
		}},
	Also:  func(config.Values) []string { var o claude.Options; return o.Also() },
	Build: buildClaude,
}

// buildClaude builds the claude resolver, from its config section.
func buildClaude(s config.Values, at Place) (agent.Build, error) {
	abs := at.RootAbs
	o := claude.Options{Mode: s.String("instruction_files"), RootAbs: abs,
		Home: at.Env.Home, Excludes: s.Strings("md_excludes"), ExternalImports: s.Bool("external_imports")}
	root := filepath.FromSlash(abs)
	// Claude Code reads .claude/settings.local.json at the canonical Git
	// root too (#33.4): the root itself when it is a Git top, else the top
	// above it, or a linked worktree's main worktree, looked at by name.
	linked := at.GitDir != "" && repo.CommonDir(at.GitDir) != filepath.Clean(at.GitDir)
	o.RootGit = at.GitDir != "" && at.Prefix == "" && !linked
	if at.GitDir != "" && !o.RootGit {
		canon := at.GitTop
		if common := repo.CommonDir(at.GitDir); linked && filepath.Base(common) == ".git" {
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
