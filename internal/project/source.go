package project

import (
	"fmt"

	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/profiles"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// repository opens the Git repository around the root for a diff-mode
// check.
func (p *Project) repository(d repo.Range) (*repo.Repo, error) {
	if p.GitDir == "" {
		return nil, fmt.Errorf("%s needs a Git repository: %s: %w (pass --root DIR inside a repository)", d.What(), p.Root, repo.ErrNotGit)
	}
	if p.noWorktree != nil && d.Kind == repo.RangeStaged {
		return nil, fmt.Errorf("%w: --staged checks the index of a worktree; check commits there with --base REV [--head REV]", p.noWorktree)
	}
	return p.openRepo()
}

// openRepo opens the project's one Git repository (GitDir must be set)
// the first time it is asked for, and returns it after: the diff scopes
// read it, and so does the worktree walk for a sparse checkout's
// skip-worktree .gitignore files (scope.Walker.Repo). It is safe for
// concurrent use; Close closes the repository.
func (p *Project) openRepo() (*repo.Repo, error) {
	p.repoOnce.Do(func() {
		top := p.GitTop
		if p.noWorktree != nil {
			top = ""
		}
		p.repo, p.repoErr = repo.OpenAt(top, p.GitDir)
	})
	return p.repo, p.repoErr
}

// sideConfigs are the repository's config at each side of a diff (the
// defaults where it has none); base is nil without a base side.
type sideConfigs struct {
	base, head *config.Config
	baseErr    error // why base is nil with --config: the base's does not parse
}

// diffConfig reads the config of both sides and returns the one the run
// uses (F7): `.rivumi-lint.yaml` as the base commit's tree holds it
// (HEAD's with Staged), never the worktree copy, so a check of a commit is
// the same on every machine, and the change under review cannot switch
// off its own review. A base without a config means the defaults. Both
// sides are resolved with it, so drift shows what the change did to
// instruction files, not to the linter's settings. The head's config (the
// index's with Staged) is parsed too, so a broken one is an error, and
// RL014 lists each key it changes. Without a base side (All: a new
// branch) the head's config is the only one. --config FILE overrides both
// sides with a file on disk.
func (p *Project) diffConfig(s *repo.Sides) (*config.Config, sideConfigs, error) {
	var sc sideConfigs
	explicit := p.opts.Config
	var err error
	// The head's is parsed even when it is not used: a broken config must
	// not reach the base unnoticed.
	if sc.head, _, err = readConfig(s.Head, ConfigName, s.HeadLabel); err != nil {
		return nil, sc, err
	}
	if s.Base != nil {
		if sc.base, _, err = readConfig(s.Base, ConfigName, s.BaseLabel); err != nil {
			if explicit == "" || resolve.IsFatal(err) {
				return nil, sc, fmt.Errorf("%w (the base's config is the one a diff-mode check uses: fix it on the base branch, or pass --config FILE)", err)
			}
			// --config replaces it: only RL014's key list needs it.
			sc.baseErr = err
		}
	}
	switch {
	case explicit != "":
		cfg, err := config.Load(explicit, profiles.Config()...)
		return cfg, sc, err
	case s.Base != nil:
		return sc.base, sc, nil
	}
	return sc.head, sc, nil
}

// readConfig reads and parses the config file at name in src, a side of
// the diff called label; a missing file is the defaults (found false).
// Errors name the file by its path in the repository (so annotations land
// on it) and say which version was read.
func readConfig(src resolve.Source, name, label string) (cfg *config.Config, found bool, err error) {
	ent, err := src.Lstat(name)
	if err != nil {
		return nil, false, fmt.Errorf("config at %s: %w", label, err)
	}
	where := func(err error) error { return fmt.Errorf("config of %s: %w", label, err) }
	switch ent.Kind {
	case resolve.Missing:
		return config.Default(profiles.Config()...), false, nil
	case resolve.Regular:
	default:
		return nil, false, where(&config.Error{Name: name, Msg: fmt.Sprintf("not a regular file (a %s); the config must be a plain file", ent.Kind)})
	}
	data, _, size, err := src.Read(name, config.MaxConfigBytes)
	if err != nil {
		return nil, false, where(fmt.Errorf("read %s: %w", name, err))
	}
	if size > config.MaxConfigBytes || len(data) > config.MaxConfigBytes {
		return nil, false, where(&config.Error{Name: name, Msg: fmt.Sprintf("config file is %d bytes; the limit is %d bytes (1 MiB)", size, config.MaxConfigBytes)})
	}
	cfg, err = config.Parse(name, data, profiles.Config()...)
	if err != nil {
		return nil, false, where(err)
	}
	return cfg, true, nil
}

// configChange is RL014's input for a change of a config file: which
// version the run used, and every key the head's version changes (F7).
func (p *Project) configChange(s *repo.Sides, sc sideConfigs, c repo.Change) (lint.ConfigChange, error) {
	explicit := p.opts.Config
	ch := lint.ConfigChange{Path: c.Path, What: "changed"}
	switch c.Kind {
	case repo.Added:
		ch.What = "was added"
	case repo.Deleted:
		ch.What = "was deleted"
	}
	switch {
	case explicit != "":
		ch.Used = "--config " + explicit
	case c.Kind == repo.Added:
		ch.Used = "the defaults, as the base (" + s.BaseLabel + ") has no " + c.Path
	default:
		ch.Used = "the base's version (" + s.BaseLabel + ")"
	}
	base, head := sc.base, sc.head
	var err error
	switch {
	case c.Path == ConfigName && sc.baseErr != nil:
		err = sc.baseErr
	case c.Path != ConfigName:
		// An in-repository --config file: both of its versions.
		if base, _, err = readConfig(s.Base, c.Path, s.BaseLabel); err == nil {
			head, _, err = readConfig(s.Head, c.Path, s.HeadLabel)
		}
	}
	if err != nil {
		if explicit == "" || resolve.IsFatal(err) {
			return ch, err
		}
		// The repository's config is not the one used: RL014 says why
		// its keys are not listed rather than fail the run.
		ch.KeysErr = err
		return ch, nil
	}
	for _, k := range config.Diff(base, head) {
		ch.Keys = append(ch.Keys, lint.ConfigKey{Key: k.Key, Old: k.Old, New: k.New, Effect: string(k.Effect)})
	}
	return ch, nil
}
