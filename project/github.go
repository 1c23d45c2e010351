package project

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rivumi/rivumi-lint/repo"
)

// DiffOptions choose a diff-mode check (§6): exactly one of Staged, Base,
// NewBranch or All, or Deleted; or, with Whole, no diff at all.
type DiffOptions struct {
	// Staged checks the index against HEAD, with content from the index
	// (what the next commit holds): `check --staged`.
	Staged bool
	// Base is the revision to compare with (`--base REV`); content comes
	// from Head.
	Base string
	// Head is the revision checked (`--head REV`); "" means HEAD.
	Head string
	// All checks every directory of Head, without a base: the fall-back
	// when no base can be found (more checking, never less).
	All bool
	// Deleted: the push deleted the branch; there is nothing to check.
	Deleted bool
	// NewBranch: the push created a branch (before all zeros). The base is
	// the merge base of Head with DefaultBranch (§11's events table), found
	// when the run opens the repository; All when there is none here.
	NewBranch bool
	// Created names what a NewBranch push creates, for messages: "a new
	// tag", "a new ref"; "" is "a new branch".
	Created string
	// LocalHead says Head is a commit of this repository that the remote
	// may not hold (a pre-push hook's): no fetch can bring it, so a fix
	// never names it.
	LocalHead bool
	// DefaultBranch is the repository's default branch (the payload's
	// repository.default_branch), looked up as origin/<name> where a
	// base must come from it: a new branch, or a Base that is not in the
	// clone (a force push rewrote it).
	DefaultBranch string
	// Remote is the remote whose tracking refs hold DefaultBranch
	// ("" = origin).
	Remote string
	// Whole says why an event has no change to compare (a tag push,
	// workflow_dispatch, schedule, …): the whole worktree is checked, as
	// outside Actions. Enabled is false.
	Whole string
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
func (o DiffOptions) Enabled() bool {
	return o.Staged || o.Base != "" || o.All || o.Deleted || o.NewBranch
}

// Describe says what a scope taken from an event checks, for a note.
func (o DiffOptions) Describe() string {
	switch {
	case o.Whole != "":
		return o.Source + ": " + o.Whole + "; checking the whole worktree"
	case o.Deleted:
		return o.Source + ": the push deleted the branch; nothing to check"
	case o.NewBranch && o.DefaultBranch == "":
		return o.Source + ": " + o.created() + "; no default branch is known to find its merge base with"
	case o.NewBranch:
		return o.Source + ": " + o.created() + "; checking its commits since the merge base of " + o.Head + " with " + o.remote() + "/" + o.DefaultBranch
	case o.All:
		return o.Source + ": checking every directory of " + o.Head
	}
	return o.Source + ": checking the change from " + o.Base + " to " + o.Head
}

func (o DiffOptions) created() string {
	if o.Created == "" {
		return "a new branch"
	}
	return o.Created
}

func (o DiffOptions) remote() string {
	if o.Remote == "" {
		return "origin"
	}
	return o.Remote
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

// maxEventBytes caps the GitHub event payload read (they are a few KiB to
// a few MiB).
const maxEventBytes = 64 << 20

// GitHubScope is §6's scope inside GitHub Actions, row by row of §11's
// events table (ok is false outside Actions; getenv is os.Getenv in
// production):
//
//   - pull_request, pull_request_target: pull_request.base.sha and
//     head.sha (and the merge commit GITHUB_SHA, see Merge);
//   - merge_group: merge_group.base_sha and head_sha;
//   - push of a branch: before and after; before all zeros (a new branch):
//     the merge base of after with repository.default_branch; after all
//     zeros: a deleted branch, nothing to check. A before the clone lacks
//     (a force push) falls back to the merge base too, with a warning
//     (Project.eventBase);
//   - a tag push, workflow_dispatch, schedule, any other event: no change
//     to compare, the whole worktree (Whole says why).
func GitHubScope(getenv func(string) string) (d DiffOptions, ok bool, err error) {
	if getenv("GITHUB_ACTIONS") != "true" {
		return DiffOptions{}, false, nil
	}
	event := getenv("GITHUB_EVENT_NAME")
	src := "GitHub " + event + " event"
	switch event {
	case "pull_request", "pull_request_target", "push", "merge_group":
	default:
		return DiffOptions{Whole: "no change to compare", Source: src}, true, nil
	}
	name := getenv("GITHUB_EVENT_PATH")
	if name == "" {
		return DiffOptions{}, false, fmt.Errorf("%s: GITHUB_EVENT_PATH is not set, so the base and head commits are unknown. Fix: pass --base REV and --head REV", src)
	}
	f, err := os.Open(name)
	if err != nil {
		return DiffOptions{}, false, fmt.Errorf("%s: %w", src, err)
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
		MergeGroup *struct {
			BaseSHA string `json:"base_sha"`
			HeadSHA string `json:"head_sha"`
		} `json:"merge_group"`
		Ref        string `json:"ref"`
		Before     string `json:"before"`
		After      string `json:"after"`
		Repository struct {
			DefaultBranch string `json:"default_branch"`
		} `json:"repository"`
	}
	if err := json.NewDecoder(io.LimitReader(f, maxEventBytes)).Decode(&payload); err != nil {
		return DiffOptions{}, false, fmt.Errorf("%s: %s: %w", src, name, err)
	}
	def := strings.TrimSpace(payload.Repository.DefaultBranch)
	switch event {
	case "push":
		ref := strings.TrimSpace(payload.Ref)
		if tag, ok := strings.CutPrefix(ref, "refs/tags/"); ok {
			return DiffOptions{Whole: "a push of the tag " + tag + " (no change to compare)", Source: src}, true, nil
		}
		before, after := strings.TrimSpace(payload.Before), strings.TrimSpace(payload.After)
		if !isSHA(after) {
			return DiffOptions{}, false, fmt.Errorf("%s: %s has no valid \"after\" commit (%q)", src, name, after)
		}
		if isZero(after) {
			return DiffOptions{Deleted: true, Source: src}, true, nil
		}
		if before == "" || isZero(before) {
			return DiffOptions{NewBranch: true, Head: after, DefaultBranch: def, Source: src}, true, nil
		}
		if !isSHA(before) {
			return DiffOptions{}, false, fmt.Errorf("%s: %s has no valid \"before\" commit (%q)", src, name, before)
		}
		return DiffOptions{Base: before, Head: after, DefaultBranch: def, Source: src}, true, nil
	case "merge_group":
		if payload.MergeGroup == nil {
			return DiffOptions{}, false, fmt.Errorf("%s: %s has no merge_group object", src, name)
		}
		base, head := strings.TrimSpace(payload.MergeGroup.BaseSHA), strings.TrimSpace(payload.MergeGroup.HeadSHA)
		if !isSHA(base) || !isSHA(head) || isZero(base) || isZero(head) {
			return DiffOptions{}, false, fmt.Errorf("%s: %s has no valid merge_group.base_sha / merge_group.head_sha (%q, %q)", src, name, base, head)
		}
		return DiffOptions{Base: base, Head: head, Source: src}, true, nil
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

// WarningPrefix starts a note that is a warning: the run checks more than
// the event asked for (§11's events table). The command line shows it as a
// warning (an annotation inside GitHub Actions).
const WarningPrefix = "warning: "

// maxMergeBaseWalk caps the commits read looking for a merge base, as the
// Action's fetch step caps its deepening (1,000 commits each side).
const maxMergeBaseWalk = 10000

// eventBase finds the base of an event scope that names none the clone
// holds (§11's events table): a new branch compares with the merge base of
// its head and the default branch; a push whose before is not here (a
// force push rewrote it, or the clone never had it) does too, with a
// warning. Where no merge base can be found here, every directory of the
// head is checked, with a warning that says so: more checking, never less.
func (p *Project) eventBase(r *repo.Repo, d DiffOptions) DiffOptions {
	if d.Source == "" || (!d.NewBranch && (d.Base == "" || d.DefaultBranch == "")) {
		return d
	}
	head, ok := repo.ParseHash(d.Head)
	if !ok {
		return d
	}
	if !d.NewBranch {
		b, ok := repo.ParseHash(d.Base)
		if !ok {
			return d
		}
		if _, err := r.CommitTree(b); err == nil {
			return d
		} else if !isMissing(err) {
			// A before that is here but unreadable is an error of its own,
			// reported when the sides are opened.
			return d
		}
	}
	if _, err := r.CommitTree(head); err != nil {
		return d // the head's own error is clearer when the sides open
	}
	why := d.created()
	newRef := d.NewBranch
	if !d.NewBranch {
		why = fmt.Sprintf("the push's before commit %s is not in this clone (a force push rewrote it, or it was never fetched)", d.Base)
	}
	d.NewBranch, d.Base = false, ""
	ref := "refs/remotes/" + d.remote() + "/" + d.DefaultBranch
	var base repo.Hash
	found, tipHere, complete := false, false, false
	if d.DefaultBranch != "" {
		if tip, err := r.ResolveCommit(ref, "the default branch"); err == nil {
			tipHere = true
			base, found, complete = mergeBase(r, head, tip, maxMergeBaseWalk)
		}
	}
	switch {
	case found && newRef && base == head:
		// A tag (or branch) of a commit the default branch holds: it
		// brings no commit of its own.
		d.Base = base.String()
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %s of %s, which %s already holds: no commit of its own, nothing new to check", d.Source, why, d.Head, ref))
	case found && newRef:
		d.Base = base.String()
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %s; comparing %s with its merge base %s with %s", d.Source, why, d.Head, d.Base, ref))
	case found:
		d.Base = base.String()
		p.Notes = append(p.Notes, fmt.Sprintf("%s%s: %s; comparing %s with its merge base %s with %s instead", WarningPrefix, d.Source, why, d.Head, d.Base, ref))
	case d.DefaultBranch == "":
		d.All = true
		known := "the payload's repository.default_branch, the remote's HEAD"
		if d.LocalHead {
			known = "the remote's HEAD: `git remote set-head " + d.remote() + " --auto` records it"
		}
		p.Notes = append(p.Notes, fmt.Sprintf("%s%s: %s, and no default branch is known (%s) to find a merge base with; checking every directory of %s", WarningPrefix, d.Source, why, known, d.Head))
	case complete && newRef:
		// Both histories were read to their roots: they never meet (an
		// orphan branch, an unrelated history). All of it is new, so every
		// directory is exactly its own change; no fetch would find more.
		d.All = true
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %s that shares no history with %s (an orphan history: no merge base, so all of it is new); checking every directory of %s", d.Source, why, ref, d.Head))
	case complete:
		d.All = true
		p.Notes = append(p.Notes, fmt.Sprintf("%s%s: %s, and %s shares no history with %s (no merge base); checking every directory of %s instead", WarningPrefix, d.Source, why, d.Head, ref, d.Head))
	default:
		d.All = true
		fetch := fmt.Sprintf("`git fetch --deepen=100 %s %s %s`", d.remote(), "+refs/heads/"+d.DefaultBranch+":"+ref, d.Head)
		switch {
		case d.LocalHead && tipHere:
			// The head is local: only the clone's shallow boundary can
			// hide the merge base.
			fetch = "`git fetch --unshallow " + d.remote() + "`"
		case d.LocalHead:
			fetch = fmt.Sprintf("`git fetch %s %s`", d.remote(), "+refs/heads/"+d.DefaultBranch+":"+ref)
		}
		p.Notes = append(p.Notes, fmt.Sprintf("%s%s: %s, and no merge base of %s with %s is in this clone; checking every directory of %s instead. "+
			"Fix: fetch the default branch and enough history for both to meet (the Action's fetch step does), e.g. %s",
			WarningPrefix, d.Source, why, d.Head, ref, d.Head, fetch))
	}
	return d
}

// isMissing reports whether err is a commit or object not in the clone.
func isMissing(err error) bool {
	var mc *repo.MissingCommitError
	var mo *repo.MissingObjectError
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
func mergeBase(r *repo.Repo, a, b repo.Hash, limit int) (base repo.Hash, found, complete bool) {
	if a == b {
		return a, true, true
	}
	complete = true
	seen := [2]map[repo.Hash]bool{{a: true}, {b: true}}
	front := [2][]repo.Hash{{a}, {b}}
	read := 0
	for len(front[0])+len(front[1]) > 0 && read < limit {
		for side := range 2 {
			var next []repo.Hash
			for _, c := range front[side] {
				if read++; read > limit {
					return repo.Hash{}, false, false
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
	return repo.Hash{}, false, complete && len(front[0])+len(front[1]) == 0
}
