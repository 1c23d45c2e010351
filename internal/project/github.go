package project

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/repo"
)

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
//     (repo.Repo.OpenRange);
//   - a tag push, workflow_dispatch, schedule, any other event: no change
//     to compare, the whole worktree (NoChange says why).
func GitHubScope(getenv func(string) string) (d repo.Range, ok bool, err error) {
	if getenv("GITHUB_ACTIONS") != "true" {
		return repo.Range{}, false, nil
	}
	event := getenv("GITHUB_EVENT_NAME")
	src := "GitHub " + event + " event"
	switch event {
	case "pull_request", "pull_request_target", "push", "merge_group":
	default:
		return repo.Range{NoChange: "no change to compare", Source: src}, true, nil
	}
	name := getenv("GITHUB_EVENT_PATH")
	if name == "" {
		return repo.Range{}, false, fmt.Errorf("%s: GITHUB_EVENT_PATH is not set, so the base and head commits are unknown. Fix: pass --base REV and --head REV", src)
	}
	f, err := os.Open(name)
	if err != nil {
		return repo.Range{}, false, fmt.Errorf("%s: %w", src, err)
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
		return repo.Range{}, false, fmt.Errorf("%s: %s: %w", src, name, err)
	}
	def := strings.TrimSpace(payload.Repository.DefaultBranch)
	switch event {
	case "push":
		ref := strings.TrimSpace(payload.Ref)
		if tag, ok := strings.CutPrefix(ref, "refs/tags/"); ok {
			return repo.Range{NoChange: "a push of the tag " + tag + " (no change to compare)", Source: src}, true, nil
		}
		before, after := strings.TrimSpace(payload.Before), strings.TrimSpace(payload.After)
		if !isSHA(after) {
			return repo.Range{}, false, fmt.Errorf("%s: %s has no valid \"after\" commit (%q)", src, name, after)
		}
		if isZero(after) {
			return repo.Range{Kind: repo.RangeDeleted, Source: src}, true, nil
		}
		if before == "" || isZero(before) {
			return repo.Range{Kind: repo.RangeNewBranch, Head: after, DefaultBranch: def, Source: src}, true, nil
		}
		if !isSHA(before) {
			return repo.Range{}, false, fmt.Errorf("%s: %s has no valid \"before\" commit (%q)", src, name, before)
		}
		return repo.Range{Kind: repo.RangeCommits, Base: before, Head: after, DefaultBranch: def, Source: src}, true, nil
	case "merge_group":
		if payload.MergeGroup == nil {
			return repo.Range{}, false, fmt.Errorf("%s: %s has no merge_group object", src, name)
		}
		base, head := strings.TrimSpace(payload.MergeGroup.BaseSHA), strings.TrimSpace(payload.MergeGroup.HeadSHA)
		if !isSHA(base) || !isSHA(head) || isZero(base) || isZero(head) {
			return repo.Range{}, false, fmt.Errorf("%s: %s has no valid merge_group.base_sha / merge_group.head_sha (%q, %q)", src, name, base, head)
		}
		return repo.Range{Kind: repo.RangeCommits, Base: base, Head: head, Source: src}, true, nil
	}
	if payload.PullRequest == nil {
		return repo.Range{}, false, fmt.Errorf("%s: %s has no pull_request object", src, name)
	}
	base, head := payload.PullRequest.Base.SHA, payload.PullRequest.Head.SHA
	if !isSHA(base) || !isSHA(head) {
		return repo.Range{}, false, fmt.Errorf("%s: %s has no valid pull_request.base.sha / pull_request.head.sha (%q, %q)", src, name, base, head)
	}
	d = repo.Range{Kind: repo.RangeCommits, Base: base, Head: head, Source: src}
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

// Note is what a run tells the user beside its result (repo.Note): a
// front end prints it, and shows a warning as one.
type Note = repo.Note
