package project

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/rivumi/rivumi-lint/lint"
	"github.com/rivumi/rivumi-lint/resolve"
	"github.com/rivumi/rivumi-lint/scope"
	"github.com/rivumi/rivumi-lint/skills"
)

// Check resolves the directories of args (command-line paths; none means the
// whole worktree) and runs the rules over them.
func (p *Project) Check(args []string) (*lint.Result, error) {
	var dirs []string
	var err error
	if len(args) == 0 {
		dirs, err = p.worktreeDirs()
	} else {
		rels := make([]string, 0, len(args))
		for _, a := range args {
			rel, err := p.Rel(a)
			if err != nil {
				return nil, err
			}
			rels = append(rels, rel)
		}
		dirs, err = scope.PathDirs(p.Root, p.Engine, rels, p.worktreeDirs)
	}
	if err != nil {
		return nil, err
	}
	res, err := p.Resolve(dirs)
	if err != nil {
		return nil, err
	}
	sk, err := p.SkillsSection()
	if err != nil {
		return nil, err
	}
	return lint.Run(res, p.Config, sk), nil
}

// SkillsSection renders the project's skills (P4b) from the engine's source,
// under the same read constraints as instruction files; nil when there are
// none. check counts it toward the budget (P3).
func (p *Project) SkillsSection() ([]byte, error) {
	sk, _, err := skills.Read(p.Engine.Source(), p.Config.Limits.MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("read skills: %w", err)
	}
	return skills.Render(sk), nil
}

// Resolve resolves each directory not ignored by the config; a directory
// that does not exist is skipped (R7).
func (p *Project) Resolve(dirs []string) ([]*resolve.Resolution, error) {
	out := make([]*resolve.Resolution, 0, len(dirs))
	for _, d := range dirs {
		if d != "" && p.Config.Ignored(d) {
			continue
		}
		r, err := p.Engine.Chain(d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", displayDir(d), err)
		}
		out = append(out, r)
	}
	return out, nil
}

func (p *Project) worktreeDirs() ([]string, error) {
	if p.allDirs == nil {
		dirs, err := scope.WorktreeDirs(p.GitTop, p.GitDir, p.Prefix, p.Config.Ignored)
		if err != nil {
			return nil, err
		}
		p.allDirs = dirs
	}
	return p.allDirs, nil
}

func displayDir(d string) string {
	if d == "" {
		return "."
	}
	return d
}
