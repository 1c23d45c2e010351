package project

import (
	"errors"
	"fmt"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/repo"
)

// Request is one run of the pipeline as a front end asks for it: where
// the project is and how to read it, which directories, and whether the
// rules run.
type Request struct {
	Options
	Scope Scope
	// ChainsOnly stops after the chains and the skills (the preview): no
	// rules, no drift.
	ChainsOnly bool
}

// Outcome is what one run found. Close releases the project's files.
type Outcome struct {
	Project *Project     // where: the root, the Git directory, the prefix
	Run     *Run         // the config, the engine, the chains, the skills
	Result  *lint.Result // the findings; nil with ChainsOnly
	Notes   []Note       // to show beside the result, warnings marked
}

// Close releases what the run holds open.
func (o *Outcome) Close() error { return o.Project.Close() }

// Do is the one entry of every front end (check, fix, preview, the
// language server): it opens the project, runs the scope, engine and
// skills stages and, unless ChainsOnly, the rules and the drift. On an
// error the outcome, when the project could be opened, still holds the
// notes gathered so far; it is closed then.
func Do(req Request) (*Outcome, error) {
	p, err := Open(req.Options)
	if errors.Is(err, repo.ErrNotGit) && req.Scope.Diff.Enabled() {
		return nil, fmt.Errorf("%s needs a Git repository: %w", req.Scope.Diff.What(), err)
	}
	if err != nil {
		return nil, err
	}
	out := &Outcome{Project: p}
	fail := func(err error) (*Outcome, error) {
		out.Notes = p.Notes
		p.Close()
		return out, err
	}
	r, err := p.Start(req.Scope)
	if err != nil {
		return fail(err)
	}
	out.Run = r
	if !req.ChainsOnly {
		var mem *lint.MemoryFile
		if req.Scope.Memory != "" {
			if mem, err = MemoryInput(req.Scope.Memory, p.Root, r.ProjectKey("")); err != nil {
				return fail(err)
			}
		}
		if out.Result, err = r.Lint(mem); err != nil {
			return fail(err)
		}
	}
	out.Notes = p.Notes
	return out, nil
}

// Check is Do for a caller that wants only the findings and the notes
// (the command line's check and its hooks).
func Check(o Options, s Scope) (*lint.Result, []Note, error) {
	out, err := Do(Request{Options: o, Scope: s})
	if out == nil {
		return nil, nil, err
	}
	if err == nil {
		out.Close()
	}
	return out.Result, out.Notes, err
}
