package odb

import "fmt"

// MissingObjectError is an object the repository does not hold. It is
// always an error (exit 2), never a shorter diff or a skipped file. The
// stores set Hash; the repo package adds what the object is (Path) and
// what explains its absence (a partial or shallow clone), which the
// message turns into the fix.
type MissingObjectError struct {
	Hash     Hash
	Path     string // what it is, when known
	Root     string
	Promisor string // partial clone
	Shallow  bool
}

func (e *MissingObjectError) Error() string {
	what := "object " + e.Hash.String()
	if e.Path != "" {
		what += " (" + e.Path + ")"
	}
	switch {
	case e.Promisor != "":
		return fmt.Sprintf("%s is missing: this is a partial clone (promisor remote %q) and rivumi-lint never fetches. "+
			"Fix: clone without --filter (actions/checkout: leave `filter` unset), or fetch the missing objects first: "+
			"`git -C %s fetch --refetch --no-filter %s` (all of them), or `git -C %s cat-file -e %s` (this one)", what, e.Promisor, e.Root, e.Promisor, e.Root, e.Hash)
	case e.Shallow:
		return fmt.Sprintf("%s is missing from this shallow clone. Fix: fetch the commits the check needs (`git fetch --depth=1 origin <sha>`), or the whole history (actions/checkout with `fetch-depth: 0`)", what)
	}
	return fmt.Sprintf("%s is missing: the repository is incomplete or corrupt. Fix: run `git fsck` and fetch or restore the missing objects", what)
}
