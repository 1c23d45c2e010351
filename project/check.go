package project

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strconv"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/trace"
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
		var missing []string
		dirs, missing, err = scope.PathDirs(p.Root, p.Engine, rels, p.walker().DirsBelow)
		if len(missing) > 0 {
			p.Notes = append(p.Notes, missingNote(missing))
		}
		if err == nil {
			// The chains of these directories need every directory from the
			// root down: list them (and read their layer files) in parallel
			// before the engine walks them one by one.
			p.wt.Prefetch(resolve.WithAncestors(dirs))
		}
	}
	if err != nil {
		return nil, err
	}
	trace.Mark("scope")
	res, err := p.Resolve(dirs)
	if err != nil {
		return nil, err
	}
	sk, err := p.SkillsSection()
	if err != nil {
		return nil, err
	}
	trace.Mark("resolve")
	out := lint.Run(res, p.Config, sk)
	trace.Mark("render")
	return out, nil
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
		if errors.Is(err, fs.ErrNotExist) && !resolve.IsFatal(err) {
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
		dirs, err := p.walker().WorktreeDirs()
		if err != nil {
			return nil, err
		}
		p.allDirs = dirs
	}
	return p.allDirs, nil
}

// walker lists the worktree's directories through the engine's source,
// which keeps each listing for the resolution that follows.
func (p *Project) walker() *scope.Walker {
	return &scope.Walker{Top: p.GitTop, GitDir: p.GitDir, Prefix: p.Prefix, Tracked: p.tracked,
		Skip: p.Config.Ignored, List: p.wt.ListKeep, Workers: runtime.GOMAXPROCS(0)}
}

// missingNote says which PATHs do not exist (F9): deleted in the change,
// or a typo, which the note makes visible. Names are quoted: a note is one
// line whatever a file name holds.
func missingNote(missing []string) string {
	const show = 5
	q := make([]string, 0, show)
	for _, m := range missing[:min(len(missing), show)] {
		q = append(q, strconv.Quote(m))
	}
	more := ""
	if len(missing) > show {
		more = fmt.Sprintf(" and %d more", len(missing)-show)
	}
	return fmt.Sprintf("%d PATH(s) do not exist (deleted?): %s%s; their directories are checked where they still exist (F9)",
		len(missing), strings.Join(q, ", "), more)
}

func displayDir(d string) string {
	if d == "" {
		return "."
	}
	return d
}
