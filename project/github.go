package project

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rivumi/rivumi-lint/repo"
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
