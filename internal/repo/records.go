package repo

import "github.com/rivumi/rivumi-lint/internal/resolve"

// Recorded reports, for each slash path below the worktree top, whether
// Git has a record of it: an entry (or a directory of entries) in the
// index Git reads, or in HEAD's tree. A command-line PATH that is gone
// from the disk but recorded was deleted; one with no record is a typo
// (F9).
func (r *Repo) Recorded(paths []string) ([]bool, error) {
	out := make([]bool, len(paths))
	x, err := r.Index()
	if err != nil {
		return nil, err
	}
	left := 0
	for i, p := range paths {
		e, err := x.Lstat(p)
		if err != nil {
			return nil, err
		}
		if out[i] = e.Kind != resolve.Missing; !out[i] {
			left++
		}
	}
	if left == 0 {
		return out, nil
	}
	c, born, err := r.Head()
	if err != nil || !born {
		return out, err
	}
	root, err := r.CommitTree(c)
	if err != nil {
		return nil, err
	}
	t := r.Tree(root, "HEAD")
	for i, p := range paths {
		if out[i] {
			continue
		}
		e, err := t.Lstat(p)
		if err != nil {
			return nil, err
		}
		out[i] = e.Kind != resolve.Missing
	}
	return out, nil
}
