package project

import (
	"fmt"
	"strings"

	"github.com/rivumi/rivumi-lint/config"
	"github.com/rivumi/rivumi-lint/internal/shell"
	"github.com/rivumi/rivumi-lint/lint"
	"github.com/rivumi/rivumi-lint/repo"
	"github.com/rivumi/rivumi-lint/resolve"
)

// commitSource is a source the diff modes read content from: a commit's
// tree or the index.
type commitSource interface {
	resolve.Source
	DirsBelow(dir string) ([]string, error)
	CandidateDirsBelow(dir string, names []string) ([]string, error)
	PrefetchLayers(dirs, names []string, limit int64)
	DirLink(p string) (bool, error)
}

// sides are the two sources of a diff-mode check (§6): the head, whose
// content is checked, and the base it is compared with (nil with All and
// Deleted).
type sides struct {
	head      commitSource
	headLabel string
	headTree  repo.Hash
	index     *repo.Index // the head with Staged
	base      *repo.Tree
	baseLabel string
}

// repository opens the Git repository around the root for a diff-mode
// check.
func (p *Project) repository(d DiffOptions) (*repo.Repo, error) {
	if p.repo != nil {
		return p.repo, nil
	}
	if p.GitDir == "" {
		return nil, fmt.Errorf("%s needs a Git repository: %s: %w (pass --root DIR inside a repository)", d.describe(), p.Root, repo.ErrNotGit)
	}
	if p.noWorktree != nil && d.Staged {
		return nil, fmt.Errorf("%w: --staged checks the index of a worktree; check commits there with --base REV [--head REV]", p.noWorktree)
	}
	top := p.GitTop
	if p.noWorktree != nil {
		top = ""
	}
	r, err := repo.OpenAt(top, p.GitDir)
	if err != nil {
		return nil, err
	}
	p.repo = r
	return r, nil
}

// openSides resolves the revisions of d and reads the index (Staged).
func (p *Project) openSides(r *repo.Repo, d DiffOptions) (*sides, error) {
	s := &sides{}
	switch {
	case d.Deleted:
		s.head = r.Tree(repo.Hash{}, "the deleted branch")
	case d.Staged:
		c, ok, err := r.Head()
		if err != nil {
			return nil, err
		}
		var t repo.Hash
		if ok {
			if t, err = r.CommitTree(c); err != nil {
				return nil, err
			}
		}
		// An unborn HEAD (the first commit) compares with the empty tree.
		if t, err = p.sub(r, t, "HEAD"); err != nil {
			return nil, err
		}
		s.base = r.Tree(t, "HEAD")
		if s.index, err = r.Index(); err != nil {
			return nil, err
		}
		if s.index, err = s.index.Sub(p.Prefix); err != nil {
			return nil, err
		}
		s.head, s.headLabel = s.index, "the index"
		s.baseLabel = "HEAD"
	default:
		headRev := d.Head
		if headRev == "" {
			headRev = "HEAD"
		}
		baseWhat, headWhat := "--base", "--head"
		if d.Source != "" {
			baseWhat, headWhat = "the base commit of the "+d.Source, "the head commit of the "+d.Source
		}
		if isZeroID(headRev) {
			return nil, fmt.Errorf("%s %s is the all-zero id, Git's \"no commit\": a pre-receive or pre-push hook passes it as the new value of a ref being deleted, so there is no commit to check (a deleted branch has nothing to check)", headWhat, headRev)
		}
		hc, err := commit(r, d, headRev, headWhat)
		if err != nil {
			return nil, err
		}
		baseRev := d.Base
		if d.Merge != "" && !d.All {
			if mc, parents, ok := mergeOf(r, d.Merge, hc); ok {
				hc, headRev, baseRev = mc, d.Merge, parents[0].String()
				baseWhat = "the first parent of the merge commit " + mc.Short() + " (GITHUB_SHA)"
				p.Notes = append(p.Notes, fmt.Sprintf("%s: checking instead the merge commit %s (GITHUB_SHA) against its first parent %s: what the pull request adds to the base branch as it is now", d.Source, mc.Short(), parents[0].Short()))
			} else {
				p.Notes = append(p.Notes, fmt.Sprintf("%s: GITHUB_SHA %.12s is not a merge of the head commit here, so the base commit is compared directly; if the base branch moved after the pull request branched, its changes are checked too", d.Source, d.Merge))
			}
		}
		if s.headTree, err = r.CommitTree(hc); err != nil {
			return nil, err
		}
		s.headLabel = label(headRev, hc)
		if s.headTree, err = p.sub(r, s.headTree, s.headLabel); err != nil {
			return nil, err
		}
		s.head = r.Tree(s.headTree, s.headLabel)
		if !d.All {
			if isZeroID(baseRev) {
				return nil, p.zeroBase(r, d, baseWhat, baseRev, hc)
			}
			bc, err := commit(r, d, baseRev, baseWhat)
			if err != nil {
				return nil, err
			}
			bt, err := r.CommitTree(bc)
			if err != nil {
				return nil, err
			}
			if bt, err = p.sub(r, bt, baseRev); err != nil {
				return nil, err
			}
			s.base = r.Tree(bt, baseRev)
			s.baseLabel = label(baseRev, bc)
		}
	}
	return s, nil
}

// isZeroID reports whether rev is the all-zero object id (40 zeros for
// SHA-1, 64 for SHA-256), which Git's hooks pass for "no commit": never
// a commit to fetch.
func isZeroID(rev string) bool {
	return (len(rev) == 40 || len(rev) == 64) && strings.Trim(rev, "0") == ""
}

// zeroBase explains a --base that is the all-zero id: the old value of a
// ref that did not exist (a new branch), so there is no base. The fix
// names a base that works as pasted: the merge base of the head with the
// default branch, where this repository knows one, else the whole
// worktree.
func (p *Project) zeroBase(r *repo.Repo, d DiffOptions, what, rev string, head repo.Hash) error {
	msg := fmt.Sprintf("%s %s is the all-zero id, Git's \"no commit\" (40 zeros, 64 with SHA-256): a pre-receive or pre-push hook passes it as the old value of a ref that does not exist yet, a new branch, so there is no base commit to compare with and nothing to fetch", what, rev)
	cmd := func(args ...string) string {
		c := []string{"rivumi-lint", "check"}
		if p.opts.Root != "" {
			c = append(c, "--root", shell.Quote(p.opts.Root))
		}
		return "`" + strings.Join(append(c, args...), " ") + "`"
	}
	whole := cmd()
	headArgs := []string{}
	headName := "HEAD"
	if d.Head != "" {
		headArgs, headName = []string{"--head", shell.Quote(d.Head)}, d.Head
	}
	name, tip, ok := defaultBranch(r, d.remote())
	if !ok {
		return fmt.Errorf("%s. Fix: pass --base the commit the branch started from (no default branch is known here: no %s/HEAD, main or master), or check every directory of the worktree with %s", msg, d.remote(), whole)
	}
	mb, found, complete := mergeBase(r, head, tip, maxMergeBaseWalk)
	switch {
	case !found && !complete:
		return fmt.Errorf("%s. Fix: pass --base the commit the branch started from (no merge base of %s with %s is in this clone's history), or check every directory of the worktree with %s", msg, headName, name, whole)
	case !found:
		return fmt.Errorf("%s. %s shares no history with %s (an orphan branch: all of it is new). Fix: check every directory of the worktree with %s", msg, headName, name, whole)
	case mb == head:
		return fmt.Errorf("%s. %s is already on %s, so the branch adds no commits of its own: nothing is new to check. To check every directory of the worktree anyway, run %s", msg, headName, name, whole)
	}
	return fmt.Errorf("%s. Fix: check the new branch's own commits, those since its merge base with %s: %s", msg, name, cmd(append([]string{"--base", mb.String()}, headArgs...)...))
}

// defaultBranch finds the branch a new branch most likely left: the
// remote's default (REMOTE/HEAD, else REMOTE/main or REMOTE/master), else
// the local main or master (a server's repository has no remote).
func defaultBranch(r *repo.Repo, remote string) (name string, tip repo.Hash, ok bool) {
	candidates := []string{remote + "/main", remote + "/master", "main", "master"}
	if h, err := r.ResolveCommit("refs/remotes/"+remote+"/HEAD", "the default branch"); err == nil {
		for _, c := range candidates[:2] {
			if ch, err := r.ResolveCommit("refs/remotes/"+c, "the default branch"); err == nil && ch == h {
				return c, h, true
			}
		}
		return remote + "/HEAD", h, true
	}
	for i, c := range candidates {
		ref := "refs/heads/" + c
		if i < 2 {
			ref = "refs/remotes/" + c
		}
		if h, err := r.ResolveCommit(ref, "the default branch"); err == nil {
			return c, h, true
		}
	}
	return "", repo.Hash{}, false
}

// label names a revision in messages: "main (abc123def456)", or the short
// id alone when the revision is a full id.
func label(rev string, h repo.Hash) string {
	if _, full := repo.ParseHash(rev); full {
		return h.Short()
	}
	return rev + " (" + h.Short() + ")"
}

// sub re-roots a commit's tree at the project root (F2, R1): with --root
// naming a subdirectory, the tree at that path (the empty tree where the
// revision has none). label names the revision in messages.
func (p *Project) sub(r *repo.Repo, tree repo.Hash, label string) (repo.Hash, error) {
	if p.Prefix == "" {
		return tree, nil
	}
	return r.Subtree(tree, p.Prefix, label)
}

// mergeOf reports whether rev names a commit present here whose parents
// are (base branch, head): the merge commit of a pull_request event.
func mergeOf(r *repo.Repo, rev string, head repo.Hash) (repo.Hash, []repo.Hash, bool) {
	h, ok := repo.ParseHash(rev)
	if !ok {
		return repo.Hash{}, nil, false
	}
	parents, err := r.CommitParents(h) // a missing commit is an error: not a merge here
	if err != nil || len(parents) != 2 || parents[1] != head {
		return repo.Hash{}, nil, false
	}
	return h, parents, true
}

// commit resolves a revision; where HEAD is unborn the message says why
// there is no commit and what to do: an empty repository, or an orphan
// branch in a repository with commits.
func commit(r *repo.Repo, d DiffOptions, rev, what string) (repo.Hash, error) {
	h, err := r.ResolveCommit(rev, what)
	if err == nil {
		return h, nil
	}
	if _, ok, herr := r.Head(); herr == nil && !ok && rev == "HEAD" {
		branch, other := r.HeadBranch()
		if other == "" {
			return repo.Hash{}, fmt.Errorf("the repository has no commits yet: %s needs a commit to check (before the first commit, use check --staged)", d.describe())
		}
		return repo.Hash{}, fmt.Errorf("HEAD is the unborn branch %q (an orphan branch: no commit on it yet), so %s has no commit %s to check. "+
			"Fix: name a commit with --head REV (for example --head %s), or, before the first commit on %s, check what is staged with check --staged", branch, what, rev, other, branch)
	}
	return repo.Hash{}, err
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
func (p *Project) diffConfig(s *sides) (*config.Config, sideConfigs, error) {
	var sc sideConfigs
	explicit := p.opts.Config
	var err error
	// The head's is parsed even when it is not used: a broken config must
	// not reach the base unnoticed.
	if sc.head, _, err = readConfig(s.head, ConfigName, s.headLabel); err != nil {
		return nil, sc, err
	}
	if s.base != nil {
		if sc.base, _, err = readConfig(s.base, ConfigName, s.baseLabel); err != nil {
			if explicit == "" || resolve.IsFatal(err) {
				return nil, sc, fmt.Errorf("%w (the base's config is the one a diff-mode check uses, F7: fix it on the base branch, or pass --config FILE)", err)
			}
			// --config replaces it: only RL014's key list needs it.
			sc.baseErr = err
		}
	}
	switch {
	case explicit != "":
		cfg, err := config.Load(explicit)
		return cfg, sc, err
	case s.base != nil:
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

// configChange is RL014's input for a change of a config file: which
// version the run used, and every key the head's version changes (F7).
func (p *Project) configChange(s *sides, sc sideConfigs, c repo.Change) (lint.ConfigChange, error) {
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
		ch.Used = "the defaults, as the base (" + s.baseLabel + ") has no " + c.Path
	default:
		ch.Used = "the base's version (" + s.baseLabel + ")"
	}
	base, head := sc.base, sc.head
	var err error
	switch {
	case c.Path == ConfigName && sc.baseErr != nil:
		err = sc.baseErr
	case c.Path != ConfigName:
		// An in-repository --config file: both of its versions.
		if base, _, err = readConfig(s.base, c.Path, s.baseLabel); err == nil {
			head, _, err = readConfig(s.head, c.Path, s.headLabel)
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
