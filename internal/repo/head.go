package repo

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// HeadBranch returns the branch HEAD names, also an unborn one ("" when
// HEAD is detached or unreadable), and another branch of the repository
// (the first by name; "" when there is none). An unborn HEAD in a
// repository with branches is an orphan branch (`git switch --orphan`),
// not an empty repository.
func (r *Repo) HeadBranch() (branch, other string) {
	if r.refs == nil {
		if out, err := r.git(nil, "symbolic-ref", "--quiet", "HEAD"); err == nil {
			branch = strings.TrimPrefix(strings.TrimSpace(string(out)), "refs/heads/")
		}
		if out, err := r.git(nil, "for-each-ref", "--count=1", "--format=%(refname:short)", "refs/heads/"); err == nil {
			other = strings.TrimSpace(string(out))
		}
		return branch, other
	}
	if ref, err := r.refs.Reference(plumbing.HEAD); err == nil && ref.Type() == plumbing.SymbolicReference {
		branch = strings.TrimPrefix(ref.Target().String(), "refs/heads/")
	}
	it, err := r.refs.IterReferences()
	if err != nil {
		return branch, ""
	}
	defer it.Close()
	for {
		ref, err := it.Next()
		if err != nil {
			return branch, other
		}
		if name := ref.Name(); name.IsBranch() && ref.Type() == plumbing.HashReference {
			if s := name.Short(); other == "" || s < other {
				other = s
			}
		}
	}
}
