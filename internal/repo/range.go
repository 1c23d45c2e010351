package repo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
	"github.com/rivumi/rivumi-lint/internal/shell"
)

// RangeKind is what a diff-mode check compares (§6).
type RangeKind uint8

const (
	// RangeWorktree is no range: the whole worktree is checked, as
	// without --staged or --base (Range.NoChange may say why).
	RangeWorktree RangeKind = iota
	// RangeStaged is the index against HEAD, with content from the index
	// (what the next commit holds): `check --staged`.
	RangeStaged
	// RangeCommits is Base..Head: `check --base REV [--head REV]`.
	RangeCommits
	// RangeNewBranch is a push that created a branch (before all zeros):
	// the base is the merge base of Head with DefaultBranch (§11's events
	// table), found when the range is opened; every directory of Head
	// (RangeWholeHead) where there is none here.
	RangeNewBranch
	// RangeWholeHead is every directory of Head, without a base: the
	// fall-back when no base can be found (more checking, never less).
	RangeWholeHead
	// RangeDeleted is a push that deleted the branch: nothing to check.
	RangeDeleted
)

// Range is a revision range to check (§6): a kind and its revisions, and
// what the messages about it need. Front ends build it (the command line,
// a hook, GitHub's event payload); OpenRange opens it.
type Range struct {
	Kind RangeKind
	// Base is the revision to compare with (RangeCommits).
	Base string
	// Head is the revision checked; "" means HEAD.
	Head string
	// Merge is the commit a pull_request event checks out (GITHUB_SHA, the
	// test merge of Head into the base branch). When it is present and its
	// second parent is Head, the range is it against its first parent:
	// exactly what the pull request adds to the base branch as it is now,
	// even when the base branch moved after Base was recorded. Otherwise
	// Base..Head is compared.
	Merge string
	// DefaultBranch is the repository's default branch (the payload's
	// repository.default_branch), looked up as REMOTE/<name> where a base
	// must come from it: a new branch, or a Base that is not in the clone
	// (a force push rewrote it).
	DefaultBranch string
	// Remote is the remote whose tracking refs hold DefaultBranch
	// ("" = origin).
	Remote string
	// LocalHead says Head is a commit of this repository that the remote
	// may not hold (a pre-push hook's): no fetch can bring it, so a fix
	// never names it.
	LocalHead bool
	// NoDefault says, where DefaultBranch is "", why none is known and
	// what would record one, decided by the front end from what is local
	// (a pre-push hook: a remote this clone holds no branch of has no
	// default branch to record yet); "" is the generic text.
	NoDefault string
	// Created names what a RangeNewBranch push creates, for messages: "a
	// new tag", "a new ref"; "" is "a new branch".
	Created string
	// Source says where the range came from, for messages ("GitHub
	// pull_request event"); "" is the command line.
	Source string
	// NoChange says why an event has no change to compare (a tag push,
	// workflow_dispatch, schedule, …), with RangeWorktree.
	NoChange string
	// Prefix is the slash path of the project root below the worktree
	// top: both sides are re-rooted there (F2, R1).
	Prefix string
	// FixRoot is the --root a suggested command repeats ("" for none).
	FixRoot string
}

// Enabled reports whether rg is a range at all (not the worktree).
func (rg Range) Enabled() bool { return rg.Kind != RangeWorktree }

// Describe says what a range taken from an event checks, for a note.
func (rg Range) Describe() string {
	switch {
	case rg.Kind == RangeWorktree:
		return rg.Source + ": " + rg.NoChange + "; checking the whole worktree"
	case rg.Kind == RangeDeleted:
		return rg.Source + ": the push deleted the branch; nothing to check"
	case rg.Kind == RangeNewBranch && rg.DefaultBranch == "":
		return rg.Source + ": " + rg.created() + "; no default branch is known to find its merge base with"
	case rg.Kind == RangeNewBranch:
		return rg.Source + ": " + rg.created() + "; checking its commits since the merge base of " + rg.Head + " with " + rg.remote() + "/" + rg.DefaultBranch
	case rg.Kind == RangeWholeHead:
		return rg.Source + ": checking every directory of " + rg.Head
	}
	return rg.Source + ": checking the change from " + rg.Base + " to " + rg.Head
}

// What names the range's origin in messages: its Source, else the flag.
func (rg Range) What() string {
	switch {
	case rg.Source != "":
		return rg.Source
	case rg.Kind == RangeStaged:
		return "--staged"
	}
	return "--base"
}

func (rg Range) created() string {
	if rg.Created == "" {
		return "a new branch"
	}
	return rg.Created
}

func (rg Range) remote() string {
	if rg.Remote == "" {
		return "origin"
	}
	return rg.Remote
}

// Sides is an open range: the head, whose content is checked, the base it
// is compared with (nil with RangeWholeHead and RangeDeleted), the changes
// from one to the other, and what the messages call them.
type Sides struct {
	// Range is the range as opened: a new branch or a missing base has
	// become the merge base (RangeCommits) or the whole head.
	Range     Range
	Head      resolve.Snapshot // a commit's tree or the index
	HeadLabel string
	HeadTree  Hash   // the head's tree (zero with RangeStaged)
	Index     *Index // the head with RangeStaged
	Base      *Tree
	BaseLabel string
	// Changes are the paths that differ from Base to Head (none without
	// a base).
	Changes []Change
	// Notes are what the run should tell the user about the range (a
	// merge base chosen, a fall-back; some are warnings).
	Notes []Note
}

// OpenRange resolves the revisions of rg, reads the index (RangeStaged),
// finds a base where the range must come from the default branch, and
// diffs the sides. With an error the Sides returned, when not nil, hold
// the Notes gathered before it.
func (r *Repo) OpenRange(rg Range) (*Sides, error) {
	s := &Sides{}
	rg = r.recoverBase(rg, &s.Notes)
	s.Range = rg
	if err := r.openSides(rg, s); err != nil {
		return s, err
	}
	var err error
	switch {
	case s.Index != nil:
		s.Changes, err = r.DiffIndex(s.Base.Root(), s.Index)
	case s.Base != nil:
		s.Changes, err = r.DiffTrees(s.Base.Root(), s.HeadTree)
	}
	return s, err
}

// openSides opens both sides of rg into s.
func (r *Repo) openSides(rg Range, s *Sides) error {
	switch rg.Kind {
	case RangeDeleted:
		s.Head = r.Tree(Hash{}, "the deleted branch")
		return nil
	case RangeStaged:
		c, ok, err := r.Head()
		if err != nil {
			return err
		}
		var t Hash
		if ok {
			if t, err = r.CommitTree(c); err != nil {
				return err
			}
		}
		// An unborn HEAD (the first commit) compares with the empty tree.
		if t, err = r.subBase(rg, t, "HEAD"); err != nil {
			return err
		}
		s.Base = r.Tree(t, "HEAD")
		if s.Index, err = r.Index(); err != nil {
			return err
		}
		if s.Index, err = s.Index.Sub(rg.Prefix); err != nil {
			return err
		}
		s.Head, s.HeadLabel = s.Index, "the index"
		s.BaseLabel = "HEAD"
		return nil
	}
	headRev := rg.Head
	if headRev == "" {
		headRev = "HEAD"
	}
	baseWhat, headWhat := "--base", "--head"
	if rg.Source != "" {
		baseWhat, headWhat = "the base commit of the "+rg.Source, "the head commit of the "+rg.Source
	}
	if isZeroID(headRev) {
		return fmt.Errorf("%s %s is the all-zero id, Git's \"no commit\": a pre-receive or pre-push hook passes it as the new value of a ref being deleted, so there is no commit to check (a deleted branch has nothing to check)", headWhat, headRev)
	}
	hc, err := r.commit(rg, headRev, headWhat)
	if err != nil {
		return err
	}
	baseRev := rg.Base
	whole := rg.Kind == RangeWholeHead
	if rg.Merge != "" && !whole {
		if mc, parents, ok := r.mergeOf(rg.Merge, hc); ok {
			hc, headRev, baseRev = mc, rg.Merge, parents[0].String()
			baseWhat = "the first parent of the merge commit " + mc.Short() + " (GITHUB_SHA)"
			s.Notes = append(s.Notes, Info("%s: checking instead the merge commit %s (GITHUB_SHA) against its first parent %s: what the pull request adds to the base branch as it is now", rg.Source, mc.Short(), parents[0].Short()))
		} else {
			s.Notes = append(s.Notes, Info("%s: GITHUB_SHA %.12s is not a merge of the head commit here, so the base commit is compared directly; if the base branch moved after the pull request branched, its changes are checked too", rg.Source, rg.Merge))
		}
	}
	if s.HeadTree, err = r.CommitTree(hc); err != nil {
		return err
	}
	s.HeadLabel = label(headRev, hc)
	if s.HeadTree, err = r.sub(rg, s.HeadTree, s.HeadLabel); err != nil {
		return err
	}
	s.Head = r.Tree(s.HeadTree, s.HeadLabel)
	if whole {
		return nil
	}
	if isZeroID(baseRev) {
		return r.zeroBase(rg, baseWhat, baseRev, hc)
	}
	bc, err := r.commit(rg, baseRev, baseWhat)
	if err != nil {
		return err
	}
	bt, err := r.CommitTree(bc)
	if err != nil {
		return err
	}
	if bt, err = r.subBase(rg, bt, baseRev); err != nil {
		return err
	}
	s.Base = r.Tree(bt, baseRev)
	s.BaseLabel = label(baseRev, bc)
	return nil
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
func (r *Repo) zeroBase(rg Range, what, rev string, head Hash) error {
	msg := fmt.Sprintf("%s %s is the all-zero id, Git's \"no commit\" (40 zeros, 64 with SHA-256): a pre-receive or pre-push hook passes it as the old value of a ref that does not exist yet, a new branch, so there is no base commit to compare with and nothing to fetch", what, rev)
	cmd := func(args ...string) string {
		c := []string{"rivumi-lint", "check"}
		if rg.FixRoot != "" {
			c = append(c, "--root", shell.Quote(rg.FixRoot))
		}
		return "`" + strings.Join(append(c, args...), " ") + "`"
	}
	whole := cmd()
	headArgs := []string{}
	headName := "HEAD"
	if rg.Head != "" {
		headArgs, headName = []string{"--head", shell.Quote(rg.Head)}, rg.Head
	}
	name, tip, ok := r.defaultBranch(rg.remote())
	if !ok {
		return fmt.Errorf("%s. Fix: pass --base the commit the branch started from (no default branch is known here: no %s/HEAD, main or master), or check every directory of the worktree with %s", msg, rg.remote(), whole)
	}
	mb, found, complete := r.mergeBase(head, tip, maxMergeBaseWalk)
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
func (r *Repo) defaultBranch(remote string) (name string, tip Hash, ok bool) {
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
	return "", Hash{}, false
}

// label names a revision in messages: "main (abc123def456)", or the short
// id alone when the revision is a full id.
func label(rev string, h Hash) string {
	if _, full := ParseHash(rev); full {
		return h.Short()
	}
	return rev + " (" + h.Short() + ")"
}

// sub re-roots a commit's tree at rg.Prefix (F2, R1): the tree at that
// path (the empty tree where the revision has none). label names the
// revision in messages.
func (r *Repo) sub(rg Range, tree Hash, label string) (Hash, error) {
	if rg.Prefix == "" {
		return tree, nil
	}
	return r.Subtree(tree, rg.Prefix, label)
}

// subBase is sub for the side compared with (--base, HEAD against the
// index): where the project root is a file, a link or a submodule there,
// the directory is new in the change and that side holds nothing of it,
// as when the path is absent (F2: --root DIR works in every mode, #38.10).
func (r *Repo) subBase(rg Range, tree Hash, label string) (Hash, error) {
	h, err := r.sub(rg, tree, label)
	var nd *NotDirError
	if errors.As(err, &nd) {
		return Hash{}, nil
	}
	return h, err
}

// mergeOf reports whether rev names a commit present here whose parents
// are (base branch, head): the merge commit of a pull_request event.
func (r *Repo) mergeOf(rev string, head Hash) (Hash, []Hash, bool) {
	h, ok := ParseHash(rev)
	if !ok {
		return Hash{}, nil, false
	}
	parents, err := r.CommitParents(h) // a missing commit is an error: not a merge here
	if err != nil || len(parents) != 2 || parents[1] != head {
		return Hash{}, nil, false
	}
	return h, parents, true
}

// commit resolves a revision; where HEAD is unborn the message says why
// there is no commit and what to do: an empty repository, or an orphan
// branch in a repository with commits.
func (r *Repo) commit(rg Range, rev, what string) (Hash, error) {
	h, err := r.ResolveCommit(rev, what)
	if err == nil {
		return h, nil
	}
	if _, ok, herr := r.Head(); herr == nil && !ok && rev == "HEAD" {
		branch, other := r.HeadBranch()
		if other == "" {
			return Hash{}, fmt.Errorf("the repository has no commits yet: %s needs a commit to check (before the first commit, use check --staged)", rg.What())
		}
		return Hash{}, fmt.Errorf("HEAD is the unborn branch %q (an orphan branch: no commit on it yet), so %s has no commit %s to check. "+
			"Fix: name a commit with --head REV (for example --head %s), or, before the first commit on %s, check what is staged with check --staged", branch, what, rev, other, branch)
	}
	return Hash{}, err
}

// maxMergeBaseWalk caps the commits read looking for a merge base, as the
// Action's fetch step caps its deepening (1,000 commits each side).
const maxMergeBaseWalk = 10000

// recoverBase finds the base of an event range that names none the clone
// holds (§11's events table): a new branch compares with the merge base of
// its head and the default branch; a push whose before is not here (a
// force push rewrote it, or the clone never had it) does too, with a
// warning. Where no merge base can be found here, every directory of the
// head is checked, with a warning that says so: more checking, never less.
// Each choice is a note appended to notes.
func (r *Repo) recoverBase(rg Range, notes *[]Note) Range {
	newRef := rg.Kind == RangeNewBranch
	if rg.Source == "" || (!newRef && (rg.Kind != RangeCommits || rg.Base == "" || rg.DefaultBranch == "")) {
		return rg
	}
	head, ok := ParseHash(rg.Head)
	if !ok {
		return rg
	}
	if !newRef {
		b, ok := ParseHash(rg.Base)
		if !ok {
			return rg
		}
		if _, err := r.CommitTree(b); err == nil {
			return rg
		} else if !isMissing(err) {
			// A before that is here but unreadable is an error of its own,
			// reported when the sides are opened.
			return rg
		}
	}
	if _, err := r.CommitTree(head); err != nil {
		return rg // the head's own error is clearer when the sides open
	}
	why := rg.created()
	if !newRef {
		why = fmt.Sprintf("the push's before commit %s is not in this clone (a force push rewrote it, or it was never fetched)", rg.Base)
	}
	rg.Kind, rg.Base = RangeCommits, ""
	ref := "refs/remotes/" + rg.remote() + "/" + rg.DefaultBranch
	var base Hash
	found, tipHere, complete := false, false, false
	if rg.DefaultBranch != "" {
		if tip, err := r.ResolveCommit(ref, "the default branch"); err == nil {
			tipHere = true
			base, found, complete = r.mergeBase(head, tip, maxMergeBaseWalk)
		}
	}
	note := func(format string, args ...any) { *notes = append(*notes, Info(format, args...)) }
	warn := func(format string, args ...any) { *notes = append(*notes, Warn(format, args...)) }
	switch {
	case found && newRef && base == head:
		// A tag (or branch) of a commit the default branch holds: it
		// brings no commit of its own.
		rg.Base = base.String()
		note("%s: %s of %s, which %s already holds: no commit of its own, nothing new to check", rg.Source, why, rg.Head, ref)
	case found && newRef:
		rg.Base = base.String()
		note("%s: %s; comparing %s with its merge base %s with %s", rg.Source, why, rg.Head, rg.Base, ref)
	case found:
		rg.Base = base.String()
		warn("%s: %s; comparing %s with its merge base %s with %s instead", rg.Source, why, rg.Head, rg.Base, ref)
	case rg.DefaultBranch == "":
		rg.Kind = RangeWholeHead
		if rg.NoDefault != "" {
			warn("%s: %s, and %s; checking every directory of %s", rg.Source, why, rg.NoDefault, rg.Head)
			break
		}
		known := "the payload's repository.default_branch, the remote's HEAD"
		if rg.LocalHead {
			known = "the remote's HEAD: `git remote set-head " + rg.remote() + " --auto` records it"
		}
		warn("%s: %s, and no default branch is known (%s) to find a merge base with; checking every directory of %s", rg.Source, why, known, rg.Head)
	case complete && newRef:
		// Both histories were read to their roots: they never meet (an
		// orphan branch, an unrelated history). All of it is new, so every
		// directory is exactly its own change; no fetch would find more.
		rg.Kind = RangeWholeHead
		note("%s: %s that shares no history with %s (an orphan history: no merge base, so all of it is new); checking every directory of %s", rg.Source, why, ref, rg.Head)
	case complete:
		rg.Kind = RangeWholeHead
		warn("%s: %s, and %s shares no history with %s (no merge base); checking every directory of %s instead", rg.Source, why, rg.Head, ref, rg.Head)
	default:
		rg.Kind = RangeWholeHead
		fetch := fmt.Sprintf("`git fetch --deepen=100 %s %s %s`", rg.remote(), "+refs/heads/"+rg.DefaultBranch+":"+ref, rg.Head)
		switch {
		case rg.LocalHead && tipHere:
			// The head is local: only the clone's shallow boundary can
			// hide the merge base.
			fetch = "`git fetch --unshallow " + rg.remote() + "`"
		case rg.LocalHead:
			fetch = fmt.Sprintf("`git fetch %s %s`", rg.remote(), "+refs/heads/"+rg.DefaultBranch+":"+ref)
		}
		warn("%s: %s, and no merge base of %s with %s is in this clone; checking every directory of %s instead. "+
			"Fix: fetch the default branch and enough history for both to meet (the Action's fetch step does), e.g. %s",
			rg.Source, why, rg.Head, ref, rg.Head, fetch)
	}
	return rg
}

// isMissing reports whether err is a commit or object not in the clone.
func isMissing(err error) bool {
	var mc *MissingCommitError
	var mo *MissingObjectError
	return errors.As(err, &mc) || errors.As(err, &mo)
}

// mergeBase finds a common ancestor of a and b by walking both histories
// breadth first, one generation at a time, reading at most limit commits.
// The first commit both walks reach is a common ancestor; in a criss-cross
// history it may be older than Git's best merge base, which only widens
// the change checked. A commit whose parents are not here (a shallow
// clone's boundary) ends its line. complete reports that, without a merge
// base, both histories were read to their roots: they share none (an
// orphan branch), rather than the boundary or the limit hiding it.
func (r *Repo) mergeBase(a, b Hash, limit int) (base Hash, found, complete bool) {
	if a == b {
		return a, true, true
	}
	complete = true
	seen := [2]map[Hash]bool{{a: true}, {b: true}}
	front := [2][]Hash{{a}, {b}}
	read := 0
	for len(front[0])+len(front[1]) > 0 && read < limit {
		for side := range 2 {
			var next []Hash
			for _, c := range front[side] {
				if read++; read > limit {
					return Hash{}, false, false
				}
				parents, err := r.CommitParents(c)
				if err != nil {
					complete = false
					continue // missing here: the shallow boundary
				}
				for _, par := range parents {
					if seen[1-side][par] {
						return par, true, true
					}
					if !seen[side][par] {
						seen[side][par] = true
						next = append(next, par)
					}
				}
			}
			front[side] = next
		}
	}
	return Hash{}, false, complete && len(front[0])+len(front[1]) == 0
}
