#!/usr/bin/env bash
# The rivumi-lint Action's fetch step (SPEC §11, "CI events and hook
# stages"; docs/github-actions.md): make the commits the check compares
# present in the clone, which actions/checkout makes one commit deep by
# default (fetch-depth: 1). rivumi-lint itself chooses the scope from the
# same payload; this script only fetches.
#
#   pull_request, pull_request_target  base.sha, head.sha and the merge
#                                      commit's first parent
#   merge_group                        merge_group.base_sha, head_sha
#   push of an existing branch         before, after
#   push of a new branch               the default branch's tip, then both
#                                      sides deepened until their merge base
#                                      is here (at most 1,000 commits each)
#   push whose before is gone          as a new branch, with a warning
#   (a force push)
#   tag push, workflow_dispatch, …     nothing: the whole worktree
#
# Input (env, never ${{ }} here): RIVUMI_LINT_EVENT, the event's name; the
# runner's GITHUB_EVENT_PATH and GITHUB_SHA.
set -euo pipefail

event=${RIVUMI_LINT_EVENT:?RIVUMI_LINT_EVENT names the event}
# How deep each side is made looking for the merge base, in steps (commits
# from each tip); the last is the cap.
depths=(10 50 200 1000)

say() { echo "rivumi-lint: $*"; }
warn() {
	local msg="$*"
	msg=${msg//'%'/'%25'}
	msg=${msg//$'\r'/'%0D'}
	msg=${msg//$'\n'/'%0A'}
	echo "::warning title=rivumi-lint::$msg"
}
field() { jq -r "$1 // empty" "$GITHUB_EVENT_PATH"; }
# A full object id (never a short one or HEAD~N: those cannot be fetched),
# and not all zeros.
is_id() { [[ $1 =~ ^([0-9a-f]{40}|[0-9a-f]{64})$ && $1 =~ [1-9a-f] ]]; }
have() { git cat-file -e "$1^{commit}" 2>/dev/null; }
shallow() { [ "$(git rev-parse --is-shallow-repository)" = true ]; }

# fetch ID...: fetch the ids the clone lacks, one commit deep each.
fetch() {
	local id missing=()
	for id in "$@"; do
		if have "$id"; then
			say "$id is present"
		else
			missing+=("$id")
		fi
	done
	[ "${#missing[@]}" -eq 0 ] && return 0
	say "fetching ${missing[*]} (shallow clone)"
	git fetch --no-tags --depth=1 origin "${missing[@]}"
}

# merge_base HEAD BRANCH: fetch BRANCH's tip as refs/remotes/origin/BRANCH
# and deepen both sides until their merge base is here. Past the cap the
# check compares nothing and checks every directory of HEAD instead.
merge_base() {
	local head=$1 branch=$2 ref="refs/remotes/origin/$2" depth
	if [ -z "$branch" ] || ! git check-ref-format "refs/heads/$branch"; then
		warn "the payload names no valid repository.default_branch, so no merge base can be found; rivumi-lint checks every directory of $head"
		return 0
	fi
	if git merge-base "$head" "$ref" >/dev/null 2>&1; then
		say "the merge base of $head with $ref is present"
		return 0
	fi
	if ! shallow; then
		git fetch --no-tags origin "+refs/heads/$branch:$ref" || true
	else
		say "fetching the tip of $branch"
		git fetch --no-tags --depth=1 origin "+refs/heads/$branch:$ref" || true
		local have_depth=1
		for depth in "${depths[@]}"; do
			if git merge-base "$head" "$ref" >/dev/null 2>&1; then
				break
			fi
			say "deepening $head and $branch to $depth commits each, looking for their merge base"
			# --deepen, not --depth: a fetch at a new --depth of refs that are
			# already here fetches nothing.
			git fetch --no-tags --deepen="$((depth - have_depth))" origin "+refs/heads/$branch:$ref" "$head" || break
			have_depth=$depth
		done
	fi
	if git merge-base "$head" "$ref" >/dev/null 2>&1; then
		say "the merge base of $head with $branch is $(git merge-base "$head" "$ref")"
	else
		warn "no merge base of $head with $branch within ${depths[-1]} commits of each; rivumi-lint checks every directory of $head instead (more checking, never less)"
	fi
}

case "$event" in
pull_request | pull_request_target | merge_group | push) ;;
*)
	say "$event event: no commits to compare; checking the whole worktree"
	exit 0
	;;
esac
if ! command -v jq >/dev/null; then
	warn "jq is not installed, so the commits to compare were not fetched"
	exit 0
fi

case "$event" in
pull_request | pull_request_target)
	ids=()
	for id in "$(field .pull_request.base.sha)" "$(field .pull_request.head.sha)"; do
		is_id "$id" && ids+=("$id")
	done
	# pull_request checks out GITHUB_SHA, the test merge into the base
	# branch; rivumi-lint compares it with its first parent when its second
	# parent is the head (docs/github-actions.md).
	if [ "$event" = pull_request ] && is_id "${GITHUB_SHA:-}" && have "$GITHUB_SHA"; then
		parent=$(git cat-file commit "$GITHUB_SHA" | sed -n '/^$/q; s/^parent //p' | head -n 1)
		is_id "$parent" && ids+=("$parent")
	fi
	if ! fetch "${ids[@]}"; then
		echo "::error title=rivumi-lint::could not fetch ${ids[*]} from origin; use actions/checkout with fetch-depth: 0"
		exit 1
	fi
	;;
merge_group)
	base=$(field .merge_group.base_sha) head=$(field .merge_group.head_sha)
	if ! is_id "$base" || ! is_id "$head"; then
		say "the merge_group payload names no base_sha/head_sha; not fetching"
		exit 0
	fi
	if ! fetch "$base" "$head"; then
		echo "::error title=rivumi-lint::could not fetch the merge group's base $base and head $head from origin"
		exit 1
	fi
	;;
push)
	ref=$(field .ref) before=$(field .before) after=$(field .after)
	default=$(field .repository.default_branch)
	if [[ $ref == refs/tags/* ]]; then
		say "a push of the tag ${ref#refs/tags/}: no commits to compare; checking the whole worktree"
		exit 0
	fi
	if ! is_id "$after"; then
		say "the push deleted ${ref:-a branch} (or names no after commit); nothing to fetch"
		exit 0
	fi
	if ! fetch "$after"; then
		echo "::error title=rivumi-lint::could not fetch the pushed commit $after from origin"
		exit 1
	fi
	if ! is_id "$before"; then
		say "a new branch: comparing $after with its merge base with ${default:-the default branch}"
		merge_base "$after" "$default"
	elif ! fetch "$before"; then
		warn "the push's before commit $before cannot be fetched (a force push rewrote it); comparing $after with its merge base with ${default:-the default branch} instead"
		merge_base "$after" "$default"
	fi
	;;
esac
