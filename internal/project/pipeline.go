package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/baseline"
	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/drift"
	"github.com/rivumi/rivumi-lint/internal/gitattr"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/memory"
	"github.com/rivumi/rivumi-lint/internal/profiles"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
	"github.com/rivumi/rivumi-lint/internal/rootpath"
	"github.com/rivumi/rivumi-lint/internal/scope"
	"github.com/rivumi/rivumi-lint/internal/skills"
	"github.com/rivumi/rivumi-lint/internal/trace"
)

// This file is the one pipeline of check (every scope) and preview:
//
//	scope    which directories, from which source (worktree, index, tree)
//	engine   their chains (resolve)
//	skills   the skills section (P4b)
//	rules    lint.Check over the chains, the memory file, a changed config
//	drift    the base's chains of the same directories (diff modes, R9)
//
// It returns a lint.Result or an error; an error that *resolve.FatalError
// wraps is a source that could not be read (F6), never a finding.

// Scope is what a run checks (§6).
type Scope struct {
	// Diff, when enabled, checks a change: content from its head (a
	// commit's tree or the index), drift from its base.
	Diff repo.Range
	// Paths are the worktree mode's command-line paths; with neither Paths
	// nor Dirs every directory of the worktree is checked.
	Paths []string
	// DirArg, when not nil, is the one directory to resolve as a user gave
	// it (preview DIR): "" is the working directory, a file its
	// directory (F9). It fills Dirs; one that does not exist is an error.
	DirArg *string
	// Typed says a user gave Paths (the command line): one that does not
	// exist must be known to Git, in the index or HEAD, or the run stops
	// (F9). An editor's never-saved document is not (the language server).
	Typed bool
	// Dirs are worktree directories (relative to the root) resolved as
	// they are: one that does not exist is an error (the preview).
	Dirs []string
	// Memory is an explicit memory file to check (RL013, check --memory).
	Memory string
}

// Run is one pass of the pipeline up to the rules: the config it uses, the
// engine over the checked source, the chains and the skills.
type Run struct {
	Config      *config.Config
	Engine      *resolve.Engine
	Resolutions []*resolve.Resolution
	Skills      []skills.Skill
	SkillNotes  []string
	// Agents are the enabled profiles other than Rivumi's, in the
	// profile table's order (A1): each resolves the chains as its agent
	// does, over the engine's listings and reads.
	Agents []AgentRun

	p     *Project
	scope Scope
	// The diff modes: both sides, their configs, the changed paths, the
	// engine settings the base is resolved with and the checkout view of
	// the head (F5).
	sides     *repo.Sides
	sideCfgs  sideConfigs
	changes   []repo.Change
	engineOpt resolve.Options
	checkout  func(path string) *lint.CheckoutFile
	// prepared is the rules' share of the chains, done beside resolve
	// (resolveAndPrepare); nil when it was not.
	prepared *lint.Prepared
	// baseSide is the base of a change, whose findings are only compared
	// with the head's (markOld): it finds no references.
	baseSide bool
	// refsBeside are the references found beside the agent profiles'
	// views (agents); nil when Lint finds them itself.
	refsBeside *referencesResult
}

type referencesResult struct {
	refs []lint.Reference
	err  error
}

// Start runs the scope, engine and skills stages.
func (p *Project) Start(s Scope) (*Run, error) {
	if s.DirArg != nil {
		dir, err := p.dirArg(*s.DirArg)
		if err != nil {
			return nil, err
		}
		s.Dirs = []string{dir}
	}
	r := &Run{p: p, scope: s}
	var dirs []string
	var err error
	if s.Diff.Enabled() {
		dirs, err = r.diffScope()
	} else {
		dirs, err = r.worktreeScope()
	}
	if err != nil {
		return nil, err
	}
	if r.Resolutions, err = r.resolve(dirs); err != nil {
		return nil, err
	}
	if err := r.agents(); err != nil {
		return nil, err
	}
	if s.Diff.Kind == repo.RangeDeleted {
		return r, nil
	}
	r.Skills, r.SkillNotes, err = skills.Read(r.Engine.Source(), r.Config.Limits.MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("read skills: %w", err)
	}
	trace.Mark("resolve")
	return r, nil
}

// Lint runs the rules over the run's chains, its skills, the memory file
// (nil: none) and a changed config, then the drift from the base.
func (r *Run) Lint(mem *lint.MemoryFile) (*lint.Result, error) {
	in := r.inputs(mem)
	s := r.sides
	if s != nil {
		var err error
		if in.ConfigChanges, err = r.configChanges(); err != nil {
			return nil, err
		}
	}
	var err error
	if got := r.refsBeside; got != nil {
		r.refsBeside = nil
		in.References, err = got.refs, got.err
	} else {
		in.References, err = r.references()
	}
	if err != nil {
		return nil, err
	}
	res := lint.Check(in, r.Config)
	trace.Mark("render")
	if s != nil && s.Base != nil {
		baseCO, err := checkout(r.p.repo.CommonDir, s.Base)
		if err != nil {
			return nil, err
		}
		var same func(string) bool
		if !r.p.opts.fullDrift {
			if s.Index != nil {
				same = repo.NewIndexChainInputs(s.Base, s.Index, r.Engine.Candidates()).Same
			} else if head, ok := s.Head.(*repo.Tree); ok {
				same = repo.NewChainInputs(s.Base, head, r.Engine.Candidates()).Same
			}
		}
		// One engine over the base for the drift and the base's
		// findings: the chains drift resolved are not resolved again.
		baseEngine := resolve.New(baseCO, r.engineOpt)
		groups, err := drift.Compare(baseEngine, r.Resolutions, same)
		if err != nil {
			return nil, err
		}
		res.Drift = groups
		trace.Mark("drift")
		if err := r.markOld(res, baseEngine, baseCO, mem); err != nil {
			return nil, err
		}
	} else if s != nil {
		// No base (a new history, the whole head): the change brings
		// every finding (B6).
		baseline.Accepting(nil).MarkBase(res, "")
	}
	if s != nil {
		r.p.Notes = appendNew(r.p.Notes, r.p.repo.Notes())
	}
	return res, nil
}

// inputs are the rules' inputs from the run's chains, skills and agent
// profiles, and the memory file (nil: none).
func (r *Run) inputs(mem *lint.MemoryFile) lint.Inputs {
	in := lint.Inputs{Chains: r.Resolutions, Skills: skills.Render(r.Skills), Checkout: r.checkout, Memory: mem, Prepared: r.prepared}
	for _, a := range r.Agents {
		in.Profiles = append(in.Profiles, lint.AgentInput{Resolver: a.Resolver, Views: a.Views})
	}
	if len(r.Config.Agents) != 1 || r.Config.Agents[0] != agent.Rivumi {
		in.Agents = r.Config.Agents
	}
	return in
}

// markOld marks each finding of res that the change's base already has
// (B6), by the baseline's identity (B2): the rules run over the base's
// chains of the directories the findings concern, with the same config,
// agent profiles and memory file, and base, the engine drift resolved
// them with. A change with no findings costs nothing more; one with
// findings, one more check of at most its affected directories. RL014
// (a changed config) and RL021 in a diff (references the change breaks)
// are about the change itself, so the base side has neither.
func (r *Run) markOld(res *lint.Result, base *resolve.Engine, co *gitattr.Source, mem *lint.MemoryFile) error {
	if len(res.Findings) == 0 {
		res.BaseLabel = r.sides.BaseLabel
		return nil
	}
	concerned := map[string]bool{}
	for _, f := range res.Findings {
		for _, d := range f.Directories {
			concerned[d] = true
		}
	}
	// A directory the base does not have is checked as its nearest
	// ancestor there, the chain its path inherited (as drift compares it):
	// a file added below a bad layer does not make the layer's finding new.
	var dirs []string
	seen := map[string]bool{}
	for _, h := range r.Resolutions {
		if !concerned[resolve.DisplayDir(h.Dir)] {
			continue
		}
		d, ok, err := existingAncestor(base, h.Dir)
		if err != nil {
			return fmt.Errorf("at the base %s: %w", r.sides.BaseLabel, err)
		}
		if ok && !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	b := &Run{p: r.p, scope: r.scope, Config: r.Config, Engine: base, engineOpt: r.engineOpt, checkout: checkoutFiles(co), baseSide: true}
	var err error
	if b.Resolutions, err = b.resolve(dirs); err != nil {
		return fmt.Errorf("at the base %s: %w", r.sides.BaseLabel, err)
	}
	if err := b.agents(); err != nil {
		return fmt.Errorf("at the base %s: %w", r.sides.BaseLabel, err)
	}
	if b.Skills, _, err = skills.Read(base.Source(), r.Config.Limits.MaxFileBytes); err != nil {
		return fmt.Errorf("read skills at the base %s: %w", r.sides.BaseLabel, err)
	}
	old := lint.Check(b.inputs(mem), r.Config)
	baseline.Accepting(old.Findings).MarkBase(res, r.sides.BaseLabel)
	trace.Mark("base")
	return nil
}

// existingAncestor is dir or its nearest ancestor that e's source has;
// false when not even the root exists there.
func existingAncestor(e *resolve.Engine, dir string) (string, bool, error) {
	for d := dir; ; d = resolve.ParentDir(d) {
		_, err := e.Chain(d)
		switch {
		case err == nil:
			return d, true, nil
		case !errors.Is(err, fs.ErrNotExist) || resolve.IsFatal(err):
			return "", false, fmt.Errorf("resolve %s: %w", resolve.DisplayDir(d), err)
		case d == "":
			return "", false, nil
		}
	}
}

// ProjectKey is the memory project key (P4): flag (--project) when set,
// else the config's project, else the absolute root path.
func (r *Run) ProjectKey(flag string) string {
	switch {
	case flag != "":
		return flag
	case r.Config.Project != "":
		return r.Config.Project
	}
	return r.p.Root
}

// worktreeScope opens the worktree and its config and lists the
// directories of the scope: Dirs, the directories of Paths (F9), or every
// directory of the worktree.
func (r *Run) worktreeScope() ([]string, error) {
	p := r.p
	if p.noWorktree != nil {
		_, err := p.worktree(false)
		return nil, err
	}
	cfg, err := p.worktreeConfig()
	if err != nil {
		return nil, err
	}
	if p.wt == nil {
		p.way = p.wayDirs(r.scope.Dirs, r.scope.Paths, slices.Concat(cfg.Filenames.Override, cfg.Filenames.Normal))
	}
	// A check of PATHs reads the index on one core while the PATHs'
	// directories are listed on the other (worktreeBeside); with one core,
	// or a worktree opened before, in that order (worktree, its serial
	// twin: F1).
	var wt *resolve.Worktree
	var scanning func() bool
	join := func() error { return nil }
	if len(r.scope.Paths) > 0 && r.scope.Dirs == nil && p.wt == nil && p.GitDir != "" {
		wt, scanning, join, err = p.worktreeBeside(r.walks(cfg))
	} else {
		wt, err = p.worktree(r.walks(cfg))
	}
	if err != nil {
		return nil, err
	}
	// Any error before the scan is joined comes after the scan's own, as
	// in the serial order.
	fail := func(err error) ([]string, error) {
		if jerr := join(); jerr != nil {
			return nil, jerr
		}
		return nil, err
	}
	r.Config = cfg
	if r.engineOpt, err = p.engineOptions(cfg); err != nil {
		return fail(err)
	}
	r.Engine = resolve.New(wt, r.engineOpt)
	// The worktree lists the directories below one (R7) with the walk of
	// the whole-worktree check (Git's ignore rules, F4), which needs the
	// tracked directories: walks foresaw this; should a PATH reach here
	// that it did not, the walk still gets them.
	wt.SetWalk(func(dir string) ([]string, error) {
		if _, err := p.worktree(true); err != nil {
			return nil, err
		}
		return r.walker().DirsBelow(dir)
	})
	trace.Mark("open")
	var dirs []string
	switch {
	case r.scope.Dirs != nil:
		dirs = r.scope.Dirs
	case len(r.scope.Paths) == 0:
		dirs, err = r.worktreeDirs()
	default:
		rels := make([]string, 0, len(r.scope.Paths))
		for _, a := range r.scope.Paths {
			rel, err := p.Rel(a)
			if err != nil {
				return fail(err)
			}
			rels = append(rels, rel)
		}
		// The PATHs' directories are listed first, on both cores: the
		// chains need those listings anyway, and they tell each PATH's
		// kind without an lstat (R2, F9). Beside the index scan, one core
		// lists them until the scan ends.
		plan := wt.PlanKinds(rels)
		if scanning != nil {
			plan.Run(scanning)
		}
		if err := join(); err != nil {
			return nil, err
		}
		if scanning != nil {
			// The index scan and the listings beside it (the serial
			// order has the scan in "open").
			trace.Mark("index")
			if wt.Recorded() {
				plan.Forget() // Record dropped those listings: made again below
			}
		}
		plan.Run(nil)
		dirs, err = r.directories(wt, func() ([]string, error) {
			dirs, missing, err := scope.PathDirs(p.Root, r.Engine, wt, rels, plan.Kinds)
			if err == nil && len(missing) > 0 {
				if !r.scope.Typed {
					p.Notes = append(p.Notes, repo.Info("%s", missingNote(missing)))
				} else if err = p.checkMissing(missing); err == nil {
					p.Notes = append(p.Notes, repo.Info("%s", missingNote(missing)))
				}
			}
			return dirs, err
		}, nil)
	}
	if err != nil {
		return nil, err
	}
	trace.Mark("scope")
	return dirs, nil
}

// walks reports whether the scope may walk directories (scope.Walker),
// which need the tracked directories of the index: the whole worktree,
// or a PATH named like an instruction candidate (R7: the directories
// below it). Dirs (the preview) and other PATHs resolve only their own
// directories and ancestors.
func (r *Run) walks(cfg *config.Config) bool {
	switch {
	case r.scope.Dirs != nil:
		return false
	case len(r.scope.Paths) == 0:
		return true
	}
	for _, a := range r.scope.Paths {
		// The name Rel keeps (it cleans the path and never renames its
		// last element).
		base := filepath.Base(filepath.Clean(a))
		if slices.Contains(cfg.Filenames.Override, base) || slices.Contains(cfg.Filenames.Normal, base) {
			return true
		}
	}
	return false
}

func (r *Run) worktreeDirs() ([]string, error) {
	p := r.p
	if p.allDirs == nil {
		if p.Prefix == "" {
			// About as many directories as the index holds are listed
			// (below --root, a part of them: no room reserved then).
			p.wt.Reserve(p.trackedDirs)
		}
		dirs, err := r.walker().WorktreeDirs()
		if err != nil {
			return nil, err
		}
		p.allDirs = dirs
	}
	return p.allDirs, nil
}

// walker lists the worktree's directories through the engine's source,
// which keeps each listing for the resolution that follows.
func (r *Run) walker() *scope.Walker {
	p := r.p
	return &scope.Walker{Top: p.GitTop, GitDir: p.GitDir, Prefix: p.Prefix, Tracked: p.tracked, SkipIgnores: p.skipIgnores,
		Repo: p.openRepo, Skip: r.Config.Ignored, List: p.wt.ListKeep}
}

// diffScope opens both sides of the change and the config (F7) and lists
// the directories the change reaches (R7), or every directory of the head
// (All).
func (r *Run) diffScope() ([]string, error) {
	p, d := r.p, r.scope.Diff
	rp, err := p.repository(d)
	if err != nil {
		return nil, err
	}
	// An event range's base may have to come from the default branch
	// (§11's events table): OpenRange finds it, and says so in its notes.
	d.Prefix, d.FixRoot = p.Prefix, p.opts.Root
	s, err := rp.OpenRange(d)
	if s != nil {
		p.Notes = append(p.Notes, s.Notes...)
	}
	if err != nil {
		return nil, err
	}
	d = s.Range
	r.scope.Diff = d
	r.sides = s
	r.changes = s.Changes
	if r.Config, r.sideCfgs, err = p.diffConfig(s); err != nil {
		return nil, err
	}
	if r.engineOpt, err = p.engineOptions(r.Config); err != nil {
		return nil, err
	}
	r.Engine = resolve.New(s.Head, r.engineOpt)
	p.Notes = append(p.Notes, rp.Notes()...)
	trace.Mark("open")
	if d.Kind == repo.RangeDeleted {
		return nil, nil
	}
	// F5: the head is read as its checkout holds the files (gitattr).
	headCO, err := checkout(rp.CommonDir, s.Head)
	if err != nil {
		return nil, err
	}
	r.Engine = resolve.New(headCO, r.engineOpt)
	r.checkout = checkoutFiles(headCO)
	var base resolve.Snapshot // read ahead for drift (R9)
	if s.Base != nil {
		base = s.Base
	}
	dirs, err := r.directories(headCO, func() ([]string, error) {
		if d.Kind == repo.RangeWholeHead {
			return headCO.DirsBelow("")
		}
		paths := make([]string, len(r.changes))
		for i, c := range r.changes {
			paths[i] = c.Path
		}
		dirs, err := scope.Affected(r.Engine, headCO, paths)
		// A new or changed link to a directory is resolved itself, as a
		// whole-worktree check does, so the candidates behind it are
		// reported (C1).
		links := map[string]bool{}
		for _, c := range r.changes {
			if err != nil || c.NewMode != repo.ModeSymlink {
				continue
			}
			var ok bool
			if ok, err = headCO.DirLink(c.Path); ok {
				dirs = append(dirs, c.Path)
				links[c.Path] = true
			}
		}
		if err != nil {
			return nil, err
		}
		sort.Strings(dirs)
		return dropBehindLinks(headCO, slices.Compact(dirs), links)
	}, base)
	if err != nil {
		return nil, err
	}
	trace.Mark("diff")
	return dirs, nil
}

// directories is the directory stage of the worktree's PATHs and of the
// diff scopes, over snap, the snapshot the engine reads: expand lists the
// directories the scope's paths reach from snap (scope.PathDirs,
// scope.Affected: its directories at or below one that may hold a
// candidate, R7); then what the engine will read of those and of the
// directories above them is read ahead, on several goroutines, from snap
// and from base (nil: none), the snapshot drift resolves (R9). The
// engines then find it read.
func (r *Run) directories(snap resolve.Snapshot, expand func() ([]string, error), base resolve.Snapshot) ([]string, error) {
	names := r.Engine.Candidates()
	dirs, err := expand()
	if err != nil {
		return nil, err
	}
	snap.Prefetch(dirs, names, r.engineOpt.MaxFileBytes)
	if base != nil {
		base.Prefetch(dirs, names, r.engineOpt.MaxFileBytes)
	}
	return dirs, nil
}

// resolve resolves each directory not ignored by the config; a directory
// that does not exist is skipped (R7), unless the scope names it (Dirs).
func (r *Run) resolve(dirs []string) ([]*resolve.Resolution, error) {
	out := make([]*resolve.Resolution, 0, len(dirs))
	r.Engine.Reserve(len(dirs))
	beside := lint.PrepareBeside(r.Config, r.checkout, len(dirs), r.p.opts.prepareBesideMin)
	defer func() { r.prepared = beside.Done() }()
	for _, d := range dirs {
		if d != "" && r.Config.Ignored(d) && r.scope.Dirs == nil {
			continue
		}
		res, err := r.Engine.Chain(d)
		if errors.Is(err, fs.ErrNotExist) && !resolve.IsFatal(err) {
			if r.scope.Dirs == nil {
				continue
			}
			return nil, &NoDirError{Dir: d, Err: err}
		}
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", resolve.DisplayDir(d), err)
		}
		out = append(out, res)
		beside.Add(res)
	}
	return out, nil
}

// NoDirError is a directory the scope names (Scope.Dirs) that does not
// exist.
type NoDirError struct {
	Dir string
	Err error
}

func (e *NoDirError) Error() string {
	return "resolve " + resolve.DisplayDir(e.Dir) + ": " + e.Err.Error()
}
func (e *NoDirError) Unwrap() error { return e.Err }

// configChanges are RL014's inputs: the root config, or the --config file
// when it lies inside the repository, as the change touches them (F7).
func (r *Run) configChanges() ([]lint.ConfigChange, error) {
	watched := map[string]bool{ConfigName: true}
	if x := r.p.opts.Config; x != "" {
		if rel, err := r.p.Rel(x); err == nil && rel != "" {
			watched[rel] = true
		}
	}
	var out []lint.ConfigChange
	for _, c := range r.changes {
		if watched[c.Path] {
			ch, err := r.p.configChange(r.sides, r.sideCfgs, c)
			if err != nil {
				return nil, err
			}
			out = append(out, ch)
		}
	}
	return out, nil
}

// MemoryInput reads the memory file at path (RL013's input): its corrupt
// lines, the file shown as DisplayPath shows it. key is the memory project
// key; corrupt lines do not depend on it. A missing file, one that is not
// regular or an I/O error is an error (exit 2).
func MemoryInput(path, root, key string) (*lint.MemoryFile, error) {
	sel, err := memory.ReadFile(path, key)
	if err != nil {
		return nil, err
	}
	d, in := DisplayPath(path, root)
	return MemoryFile(d, in, sel), nil
}

// MemoryFile is the Memory input of a selection from the file shown as
// display; inRoot says it lies inside the project root (F10).
func MemoryFile(display string, inRoot bool, sel memory.Selection) *lint.MemoryFile {
	return &lint.MemoryFile{Path: display, User: !inRoot, Problems: sel.Problems, More: sel.MoreProblems}
}

// DisplayPath shows a local file: relative to root (forward slashes) when
// inside it (inRoot: a repository location), else ~/… under the home
// directory, else absolute (or as given when root is "" and the path is
// relative).
func DisplayPath(path, root string) (display string, inRoot bool) {
	abs, err := rootpath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path), false
	}
	if root != "" {
		if rel, ok := rootpath.Within(root, abs); ok {
			if rel == "" {
				rel = "."
			}
			return rel, true
		}
	}
	if t := Tilde(abs); strings.HasPrefix(t, "~/") || root != "" || filepath.IsAbs(path) {
		return t, false
	}
	return filepath.ToSlash(filepath.Clean(path)), false
}

// loadConfig reads the worktree's config: --config FILE, else
// ROOT/.rivumi-lint.yaml when present, else the defaults.
func loadConfig(root, explicit string) (*config.Config, error) {
	if explicit != "" {
		return config.Load(explicit, profiles.Config()...)
	}
	path := filepath.Join(root, ConfigName)
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return config.Default(profiles.Config()...), nil
	}
	// The repository's own config may come from an untrusted change: never
	// read it through a link (§10), or an error message could echo the target.
	if err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link; replace it with a regular file (rivumi-lint does not follow links)", path)
	}
	return config.Load(path, profiles.Config()...)
}

// checkMissing accepts PATHs that do not exist only where Git has a
// record of them, in the index or in HEAD: deleted files, as `git diff
// --name-only | xargs rivumi-lint check` passes them (F9). Any other is a
// typo, and checking around it would pass silently: exit 2, naming it.
func (p *Project) checkMissing(missing []string) error {
	known := make([]bool, len(missing))
	if p.GitDir != "" {
		r, err := p.repository(repo.Range{})
		if err != nil {
			return err
		}
		full := make([]string, len(missing))
		for i, m := range missing {
			full[i] = path.Join(p.Prefix, m)
		}
		if known, err = r.Recorded(full); err != nil {
			return fmt.Errorf("look up PATHs that do not exist in the index and HEAD: %w", err)
		}
	}
	var typos []string
	for i, m := range missing {
		if !known[i] {
			typos = append(typos, m)
		}
	}
	if len(typos) == 0 {
		return nil
	}
	where := "Git has no record of it (not in the index, not in HEAD)"
	if p.GitDir == "" {
		where = "the root is not in a Git repository, so it cannot have been deleted in a change"
	}
	return fmt.Errorf("PATH %s does not exist under %s and %s: check the spelling (a file deleted by earlier commits is checked with --base REV)",
		quoteList(typos, 5), p.Root, where)
}

// missingNote says which PATHs do not exist (F9): deleted in the change,
// or a typo, which the note makes visible. Names are quoted: a note is one
// line whatever a file name holds.
func missingNote(missing []string) string {
	return fmt.Sprintf("%d PATH(s) do not exist (deleted?): %s; their directories are checked where they still exist",
		len(missing), quoteList(missing, 5))
}

func appendNew(dst, src []Note) []Note {
	have := map[Note]bool{}
	for _, s := range dst {
		have[s] = true
	}
	for _, s := range src {
		if !have[s] {
			dst = append(dst, s)
			have[s] = true
		}
	}
	return dst
}
