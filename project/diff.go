package project

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/config"
	"github.com/rivumi/rivumi-lint/drift"
	"github.com/rivumi/rivumi-lint/internal/trace"
	"github.com/rivumi/rivumi-lint/lint"
	"github.com/rivumi/rivumi-lint/repo"
	"github.com/rivumi/rivumi-lint/resolve"
	"github.com/rivumi/rivumi-lint/scope"
)

// DiffOptions choose a diff-mode check (§6): exactly one of Staged, Base or
// All, or Deleted.
type DiffOptions struct {
	// Staged checks the index against HEAD, with content from the index
	// (what the next commit holds): `check --staged`.
	Staged bool
	// Base is the revision to compare with (`--base REV`); content comes
	// from Head.
	Base string
	// Head is the revision checked (`--head REV`); "" means HEAD.
	Head string
	// All checks every directory of Head, without a base: a push that
	// creates a branch has nothing to compare with.
	All bool
	// Deleted: the push deleted the branch; there is nothing to check.
	Deleted bool
	// Source says where the scope came from, for messages ("--base",
	// "GitHub pull_request event").
	Source string
	// Merge is the commit a pull_request event checks out (GITHUB_SHA, the
	// test merge of Head into the base branch). When it is present and its
	// second parent is Head, the check compares it with its first parent:
	// exactly what the pull request adds to the base branch as it is now,
	// even when the base branch moved after Base was recorded. Otherwise
	// Base..Head is compared.
	Merge string
}

// Enabled reports whether o asks for a diff-mode check.
func (o DiffOptions) Enabled() bool { return o.Staged || o.Base != "" || o.All || o.Deleted }

// headSource is the source the checked content comes from: a commit's
// tree or the index.
type headSource interface {
	resolve.Source
	DirsBelow(dir string) ([]string, error)
	CandidateDirsBelow(dir string, names []string) ([]string, error)
	PrefetchLayers(dirs, names []string, limit int64)
	DirLink(p string) (bool, error)
}

// Diff is an opened diff-mode check. Its Project carries the root, the
// config (the base's, F7), an engine over the head content and the notes.
type Diff struct {
	*Project
	Repo *repo.Repo
	opts DiffOptions

	head      headSource
	headLabel string
	base      *repo.Tree // nil with All
	index     *repo.Index
	headTree  repo.Hash
	baseLabel string
	engineOpt resolve.Options
	explicit  string // --config FILE, "" when the repository's config is used
	// baseCfg and headCfg are the repository's config at each side (the
	// defaults where it has none); baseCfg is nil without a base side.
	baseCfg, headCfg *config.Config
	baseCfgErr       error // why baseCfg is nil with --config: the base's does not parse
}

// OpenDiff opens the repository around the root for a diff-mode check:
// resolves the revisions, reads the index (Staged) and the config.
//
// The config is the base's (F7): `.rivumi-lint.yaml` as the base commit's
// tree holds it (HEAD's with Staged), never the worktree copy, so a check
// of a commit is the same on every machine, and the change under review
// cannot switch off its own review. A base without a config means the
// defaults. Both sides are resolved with it, so drift shows what the change
// did to instruction files, not to the linter's settings. The head's config
// (the index's with Staged) is parsed too, so a broken one is an error,
// and RL014 lists each key it changes. Without a base side (All: a new
// branch) the head's config is the only one. --config FILE
// (Options.Config) overrides both sides with a file on disk.
func OpenDiff(o Options, d DiffOptions) (*Diff, error) {
	pl, err := locate(o)
	if errors.Is(err, repo.ErrNotGit) {
		return nil, fmt.Errorf("%s needs a Git repository: %w", d.describe(), err)
	}
	if err != nil {
		return nil, err
	}
	if pl.gitDir == "" {
		return nil, fmt.Errorf("%s needs a Git repository: %s: %w (pass --root DIR inside a repository)", d.describe(), pl.root, repo.ErrNotGit)
	}
	if pl.noWorktree != nil && d.Staged {
		return nil, fmt.Errorf("%w: --staged checks the index of a worktree; check commits there with --base REV [--head REV]", pl.noWorktree)
	}
	r, err := repo.OpenAt(pl.top, pl.gitDir)
	if err != nil {
		return nil, err
	}
	x := &Diff{Project: &Project{Root: pl.root, GitDir: r.GitDir, GitTop: r.Root, Prefix: pl.prefix}, Repo: r, opts: d}
	if err := x.open(o); err != nil {
		r.Close()
		return nil, err
	}
	x.Notes = append(x.Notes, r.Notes()...)
	return x, nil
}

// Describe says what a scope taken from an event checks, for a note.
func (o DiffOptions) Describe() string {
	switch {
	case o.Deleted:
		return o.Source + ": the push deleted the branch; nothing to check"
	case o.All:
		return o.Source + ": a new branch; checking every directory of " + o.Head
	}
	return o.Source + ": checking the change from " + o.Base + " to " + o.Head
}

func (o DiffOptions) describe() string {
	switch {
	case o.Source != "":
		return o.Source
	case o.Staged:
		return "--staged"
	}
	return "--base"
}

func (x *Diff) open(o Options) error {
	r, d := x.Repo, x.opts
	switch {
	case d.Deleted:
		x.head = r.Tree(repo.Hash{}, "the deleted branch")
	case d.Staged:
		c, ok, err := r.Head()
		if err != nil {
			return err
		}
		var t repo.Hash
		if ok {
			if t, err = r.CommitTree(c); err != nil {
				return err
			}
		}
		// An unborn HEAD (the first commit) compares with the empty tree.
		if t, err = x.sub(t, "HEAD"); err != nil {
			return err
		}
		x.base = r.Tree(t, "HEAD")
		if x.index, err = r.Index(); err != nil {
			return err
		}
		if x.index, err = x.index.Sub(x.Prefix); err != nil {
			return err
		}
		x.head, x.headLabel = x.index, "the index"
	default:
		headRev := d.Head
		if headRev == "" {
			headRev = "HEAD"
		}
		baseWhat, headWhat := "--base", "--head"
		if d.Source != "" {
			baseWhat, headWhat = "the base commit of the "+d.Source, "the head commit of the "+d.Source
		}
		hc, err := x.commit(headRev, headWhat)
		if err != nil {
			return err
		}
		baseRev := d.Base
		if d.Merge != "" && !d.All {
			if mc, parents, ok := x.mergeOf(d.Merge, hc); ok {
				hc, headRev, baseRev = mc, d.Merge, parents[0].String()
				baseWhat = "the first parent of the merge commit " + mc.Short() + " (GITHUB_SHA)"
				x.Notes = append(x.Notes, fmt.Sprintf("%s: checking instead the merge commit %s (GITHUB_SHA) against its first parent %s: what the pull request adds to the base branch as it is now", d.Source, mc.Short(), parents[0].Short()))
			} else {
				x.Notes = append(x.Notes, fmt.Sprintf("%s: GITHUB_SHA %.12s is not a merge of the head commit here, so the base commit is compared directly; if the base branch moved after the pull request branched, its changes are checked too", d.Source, d.Merge))
			}
		}
		if x.headTree, err = r.CommitTree(hc); err != nil {
			return err
		}
		x.headLabel = headRev + " (" + hc.Short() + ")"
		if _, full := repo.ParseHash(headRev); full {
			x.headLabel = hc.Short()
		}
		if x.headTree, err = x.sub(x.headTree, x.headLabel); err != nil {
			return err
		}
		x.head = r.Tree(x.headTree, x.headLabel)
		if !d.All {
			bc, err := x.commit(baseRev, baseWhat)
			if err != nil {
				return err
			}
			bt, err := r.CommitTree(bc)
			if err != nil {
				return err
			}
			if bt, err = x.sub(bt, baseRev); err != nil {
				return err
			}
			x.base = r.Tree(bt, baseRev)
			x.baseLabel = baseRev + " (" + bc.Short() + ")"
			if _, full := repo.ParseHash(baseRev); full {
				x.baseLabel = bc.Short()
			}
		}
	}
	if d.Staged {
		x.baseLabel = "HEAD"
	}
	cfg, err := x.loadConfig(o.Config)
	if err != nil {
		return err
	}
	x.explicit = o.Config
	x.Config = cfg
	x.engineOpt = resolve.Options{
		Overrides:    cfg.Filenames.Override,
		Normals:      cfg.Filenames.Normal,
		MaxFileBytes: cfg.Limits.MaxFileBytes,
	}
	if o.UserInstructions != "" {
		u, err := UserFile(o.UserInstructions)
		if err != nil {
			return err
		}
		u.Location = Location(x.Root, u.Path)
		x.engineOpt.User = u
	}
	x.Engine = resolve.New(x.head, x.engineOpt)
	return nil
}

// sub re-roots a commit's tree at the project root (F2, R1): with --root
// naming a subdirectory, the tree at that path (the empty tree where the
// revision has none). label names the revision in messages.
func (x *Diff) sub(tree repo.Hash, label string) (repo.Hash, error) {
	if x.Prefix == "" {
		return tree, nil
	}
	return x.Repo.Subtree(tree, x.Prefix, label)
}

// mergeOf reports whether rev names a commit present here whose parents
// are (base branch, head): the merge commit of a pull_request event.
func (x *Diff) mergeOf(rev string, head repo.Hash) (repo.Hash, []repo.Hash, bool) {
	h, ok := repo.ParseHash(rev)
	if !ok {
		return repo.Hash{}, nil, false
	}
	parents, err := x.Repo.CommitParents(h) // a missing commit is an error: not a merge here
	if err != nil || len(parents) != 2 || parents[1] != head {
		return repo.Hash{}, nil, false
	}
	return h, parents, true
}

// commit resolves a revision; where HEAD is unborn the message says why
// there is no commit and what to do: an empty repository, or an orphan
// branch in a repository with commits.
func (x *Diff) commit(rev, what string) (repo.Hash, error) {
	h, err := x.Repo.ResolveCommit(rev, what)
	if err == nil {
		return h, nil
	}
	if _, ok, herr := x.Repo.Head(); herr == nil && !ok && rev == "HEAD" {
		branch, other := x.Repo.HeadBranch()
		if other == "" {
			return repo.Hash{}, fmt.Errorf("the repository has no commits yet: %s needs a commit to check (before the first commit, use check --staged)", x.opts.describe())
		}
		return repo.Hash{}, fmt.Errorf("HEAD is the unborn branch %q (an orphan branch: no commit on it yet), so %s has no commit %s to check. "+
			"Fix: name a commit with --head REV (for example --head %s), or, before the first commit on %s, check what is staged with check --staged", branch, what, rev, other, branch)
	}
	return repo.Hash{}, err
}

// loadConfig reads the config of both sides and returns the one the run
// uses (see OpenDiff).
func (x *Diff) loadConfig(explicit string) (*config.Config, error) {
	var err error
	// The head's is parsed even when it is not used: a broken config must
	// not reach the base unnoticed.
	if x.headCfg, _, err = readConfig(x.head, ConfigName, x.headLabel); err != nil {
		return nil, err
	}
	if x.base != nil {
		if x.baseCfg, _, err = readConfig(x.base, ConfigName, x.baseLabel); err != nil {
			if explicit == "" || resolve.IsFatal(err) {
				return nil, fmt.Errorf("%w (the base's config is the one a diff-mode check uses, F7: fix it on the base branch, or pass --config FILE)", err)
			}
			// --config replaces it: only RL014's key list needs it.
			x.baseCfgErr = err
		}
	}
	switch {
	case explicit != "":
		return config.Load(explicit)
	case x.base != nil:
		return x.baseCfg, nil
	}
	return x.headCfg, nil
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
		return config.Default(), false, nil
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
	cfg, err = config.Parse(name, data)
	if err != nil {
		return nil, false, where(err)
	}
	return cfg, true, nil
}

// Close releases the repository.
func (x *Diff) Close() error { return x.Repo.Close() }

// Check runs the diff-mode check: the changed paths, the directories they
// reach (R7), the rules over the head's resolutions, the drift from the
// base (R9) and RL014 when the config itself changed.
func (x *Diff) Check() (*lint.Result, error) {
	if x.opts.Deleted {
		return lint.Run(nil, x.Config, nil), nil
	}
	// F5: the head is read as its checkout holds the files (gitattr).
	headCO, err := x.checkout(x.head)
	if err != nil {
		return nil, err
	}
	x.Engine = resolve.New(headCO, x.engineOpt)
	var changes []repo.Change
	switch {
	case x.index != nil:
		changes, err = x.Repo.DiffIndex(x.base.Root(), x.index)
	case x.base != nil:
		changes, err = x.Repo.DiffTrees(x.base.Root(), x.headTree)
	}
	if err != nil {
		return nil, err
	}
	var dirs []string
	if x.opts.All {
		dirs, err = x.head.DirsBelow("")
	} else {
		paths := make([]string, len(changes))
		for i, c := range changes {
			paths[i] = c.Path
		}
		dirs, err = scope.Affected(x.Engine, paths, func(p string) ([]string, error) {
			return x.head.CandidateDirsBelow(p, x.Engine.Candidates())
		})
		// A new or changed link to a directory is resolved itself, as a
		// whole-worktree check does, so the candidates behind it are
		// reported (C1).
		links := map[string]bool{}
		for _, c := range changes {
			if err != nil || c.NewMode != repo.ModeSymlink {
				continue
			}
			var ok bool
			if ok, err = x.head.DirLink(c.Path); ok {
				dirs = append(dirs, c.Path)
				links[c.Path] = true
			}
		}
		sort.Strings(dirs)
		dirs = slices.Compact(dirs)
		if err == nil {
			dirs, err = dropBehindLinks(x.head, x.head.DirLink, dirs, links)
		}
	}
	if err != nil {
		return nil, err
	}
	// Read the layer files of the chains to resolve, head and base, on
	// several goroutines; the engines then find them read.
	x.head.PrefetchLayers(dirs, x.Engine.Candidates(), x.engineOpt.MaxFileBytes)
	if x.base != nil {
		x.base.PrefetchLayers(dirs, x.Engine.Candidates(), x.engineOpt.MaxFileBytes)
	}
	trace.Mark("diff")
	res, err := x.Resolve(dirs)
	if err != nil {
		return nil, err
	}
	sk, err := x.SkillsSection()
	if err != nil {
		return nil, err
	}
	trace.Mark("resolve")
	result := lint.RunWith(res, x.Config, sk, lint.Options{Checkout: checkoutNote(headCO)})
	result.Add(x.Config, filterFindings(headCO, res)...)
	trace.Mark("render")
	if x.base != nil {
		baseCO, err := x.checkout(x.base)
		if err != nil {
			return nil, err
		}
		baseEngine := resolve.New(baseCO, x.engineOpt)
		groups, err := drift.Compare(baseEngine, res)
		if err != nil {
			return nil, err
		}
		result.Drift = groups
		trace.Mark("drift")
	}
	// RL014: the root config changed, or the --config file when it lies
	// inside the repository.
	watched := map[string]bool{ConfigName: true}
	if x.explicit != "" {
		if rel, err := x.Rel(x.explicit); err == nil && rel != "" {
			watched[rel] = true
		}
	}
	for _, c := range changes {
		if watched[c.Path] {
			msg, err := x.configChanged(c)
			if err != nil {
				return nil, err
			}
			result.Add(x.Config, lint.Finding{Rule: "RL014", Path: c.Path, Message: msg})
		}
	}
	x.Notes = appendNew(x.Notes, x.Repo.Notes())
	return result, nil
}

// configChanged is RL014's message for a change of a config file: which
// version the run used, and every key the head's version changes (F7).
func (x *Diff) configChanged(c repo.Change) (string, error) {
	what := "changed"
	switch c.Kind {
	case repo.Added:
		what = "was added"
	case repo.Deleted:
		what = "was deleted"
	}
	msg := "the lint config changed in this change: " + c.Path + " " + what + "; "
	switch {
	case x.explicit != "":
		msg += "this run used --config " + x.explicit
	case c.Kind == repo.Added:
		msg += "this run used the defaults, as the base (" + x.baseLabel + ") has no " + c.Path
	default:
		msg += "this run used the base's version (" + x.baseLabel + ")"
	}
	msg += ": a config change takes effect once it is on the base (F7). "
	keys, err := x.configKeys(c.Path)
	if err != nil {
		if x.explicit == "" || resolve.IsFatal(err) {
			return "", err
		}
		// The repository's config is not the one used: say why its keys
		// are not listed rather than fail the run.
		return msg + "Its keys cannot be compared: " + err.Error() + ". Review that it does not switch off or loosen the checks this change is held to", nil
	}
	var by [3][]string
	for _, k := range keys {
		i := map[config.Effect]int{config.Loosened: 0, config.Tightened: 1, config.Changed: 2}[k.Effect]
		by[i] = append(by[i], k.Key+" ("+k.Old+" → "+k.New+")")
	}
	var parts []string
	for i, verb := range []string{"loosens", "tightens", "changes"} {
		if len(by[i]) > 0 {
			parts = append(parts, verb+" "+strings.Join(by[i], ", "))
		}
	}
	if len(parts) == 0 {
		msg += "The head's version changes no setting. "
	} else {
		msg += "The head's version " + strings.Join(parts, "; ") + ". "
	}
	return msg + "Review that it does not switch off or loosen the checks this change is held to", nil
}

// configKeys lists the settings the head's version of the config file p
// changes from the base's; a missing side counts as the defaults.
func (x *Diff) configKeys(p string) ([]config.KeyChange, error) {
	base, head := x.baseCfg, x.headCfg
	if p == ConfigName && x.baseCfgErr != nil {
		return nil, x.baseCfgErr
	}
	if p != ConfigName {
		// An in-repository --config file: both of its versions.
		var err error
		if base, _, err = readConfig(x.base, p, x.baseLabel); err != nil {
			return nil, err
		}
		if head, _, err = readConfig(x.head, p, x.headLabel); err != nil {
			return nil, err
		}
	}
	return config.Diff(base, head, func(id string) string {
		r, _ := lint.Lookup(id)
		return r.Default.String()
	}), nil
}

func appendNew(dst, src []string) []string {
	have := map[string]bool{}
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

// maxEventBytes caps the GitHub event payload read (they are a few KiB to
// a few MiB).
const maxEventBytes = 64 << 20

// GitHubScope is §6's scope inside GitHub Actions: with GITHUB_ACTIONS=true
// and a pull_request or pull_request_target event, the base and head are
// the pull request's base.sha and head.sha; with a push event, before and
// after (an all-zero before is a new branch: every directory of after is
// checked; an all-zero after is a deleted branch: nothing is). ok is false
// outside Actions or for other events. getenv is os.Getenv in production.
func GitHubScope(getenv func(string) string) (d DiffOptions, ok bool, err error) {
	if getenv("GITHUB_ACTIONS") != "true" {
		return DiffOptions{}, false, nil
	}
	event := getenv("GITHUB_EVENT_NAME")
	switch event {
	case "pull_request", "pull_request_target", "push":
	default:
		return DiffOptions{}, false, nil
	}
	name := getenv("GITHUB_EVENT_PATH")
	if name == "" {
		return DiffOptions{}, false, fmt.Errorf("GitHub %s event: GITHUB_EVENT_PATH is not set, so the base and head commits are unknown; pass --base and --head", event)
	}
	f, err := os.Open(name)
	if err != nil {
		return DiffOptions{}, false, fmt.Errorf("GitHub %s event: %w", event, err)
	}
	defer f.Close()
	var payload struct {
		PullRequest *struct {
			Base struct {
				SHA string `json:"sha"`
			} `json:"base"`
			Head struct {
				SHA string `json:"sha"`
			} `json:"head"`
		} `json:"pull_request"`
		Before string `json:"before"`
		After  string `json:"after"`
	}
	if err := json.NewDecoder(io.LimitReader(f, maxEventBytes)).Decode(&payload); err != nil {
		return DiffOptions{}, false, fmt.Errorf("GitHub %s event: %s: %w", event, name, err)
	}
	src := "GitHub " + event + " event"
	if event == "push" {
		before, after := strings.TrimSpace(payload.Before), strings.TrimSpace(payload.After)
		if !isSHA(after) {
			return DiffOptions{}, false, fmt.Errorf("%s: %s has no valid \"after\" commit (%q)", src, name, after)
		}
		if isZero(after) {
			return DiffOptions{Deleted: true, Source: src}, true, nil
		}
		if before == "" || isZero(before) {
			return DiffOptions{All: true, Head: after, Source: src}, true, nil
		}
		if !isSHA(before) {
			return DiffOptions{}, false, fmt.Errorf("%s: %s has no valid \"before\" commit (%q)", src, name, before)
		}
		return DiffOptions{Base: before, Head: after, Source: src}, true, nil
	}
	if payload.PullRequest == nil {
		return DiffOptions{}, false, fmt.Errorf("%s: %s has no pull_request object", src, name)
	}
	base, head := payload.PullRequest.Base.SHA, payload.PullRequest.Head.SHA
	if !isSHA(base) || !isSHA(head) {
		return DiffOptions{}, false, fmt.Errorf("%s: %s has no valid pull_request.base.sha / pull_request.head.sha (%q, %q)", src, name, base, head)
	}
	d = DiffOptions{Base: base, Head: head, Source: src}
	// pull_request checks out GITHUB_SHA, the test merge into the base
	// branch; pull_request_target checks out the base branch itself.
	if sha := strings.TrimSpace(getenv("GITHUB_SHA")); event == "pull_request" && isSHA(sha) {
		d.Merge = sha
	}
	return d, true, nil
}

func isSHA(s string) bool {
	_, ok := repo.ParseHash(s)
	return ok
}

func isZero(s string) bool { return strings.Trim(s, "0") == "" }
