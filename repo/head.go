package repo

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// HeadBranch returns the branch HEAD names, also an unborn one ("" when
// HEAD is detached or unreadable), and whether the repository has any
// other reference: an unborn HEAD in a repository with commits is an
// orphan branch (`git switch --orphan`), not an empty repository.
func (r *Repo) HeadBranch() (branch string, otherRefs bool) {
	if r.refs == nil {
		if out, err := r.git(nil, "symbolic-ref", "--quiet", "HEAD"); err == nil {
			branch = strings.TrimPrefix(strings.TrimSpace(string(out)), "refs/heads/")
		}
		out, err := r.git(nil, "for-each-ref", "--count=1", "--format=%(refname)")
		return branch, err == nil && strings.TrimSpace(string(out)) != ""
	}
	if ref, err := r.refs.Reference(plumbing.HEAD); err == nil && ref.Type() == plumbing.SymbolicReference {
		branch = strings.TrimPrefix(ref.Target().String(), "refs/heads/")
	}
	it, err := r.refs.IterReferences()
	if err != nil {
		return branch, false
	}
	defer it.Close()
	for {
		ref, err := it.Next()
		if err != nil {
			return branch, false
		}
		if ref.Name() != plumbing.HEAD && ref.Type() == plumbing.HashReference {
			return branch, true
		}
	}
}
