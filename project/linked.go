package project

import "github.com/rivumi/rivumi-lint/resolve"

// dropBehindLinks removes from dirs every directory that does not exist as
// a directory at the checked revision because it, or a directory above
// it, is a symbolic link there (R7: "directories that no longer exist at
// the checked revision are skipped"; Git never follows a link in a tree or
// the index). A deleted a/x/f whose a became a link leaves a/x behind such
// a link. A directory that is itself a link to a directory stays: the
// candidates behind it are reported on the link (C1), as the whole-worktree
// walk does; keep holds those known already.
func dropBehindLinks(src resolve.Source, dirLink func(string) (bool, error), dirs []string, keep map[string]bool) ([]string, error) {
	kinds := map[string]resolve.Kind{} // what each prefix is at the revision
	kindOf := func(p string) (resolve.Kind, error) {
		if k, ok := kinds[p]; ok {
			return k, nil
		}
		e, err := src.Lstat(p)
		if err != nil {
			return 0, err
		}
		kinds[p] = e.Kind
		return e.Kind, nil
	}
	out := dirs[:0]
next:
	for _, d := range dirs {
		if d == "" || keep[d] {
			out = append(out, d)
			continue
		}
		// From the top down, stopping at the first entry that is not a
		// directory: nothing is ever looked up through a link.
		for i := 0; i <= len(d); i++ {
			if i < len(d) && d[i] != '/' {
				continue
			}
			k, err := kindOf(d[:i])
			if err != nil {
				return nil, err
			}
			if k == resolve.Symlink {
				if i == len(d) {
					// d is itself a link: resolved when it links to a
					// directory, as the whole-worktree walk lists one.
					ok, err := dirLink(d)
					if err != nil {
						return nil, err
					}
					if ok {
						out = append(out, d)
					}
				}
				continue next
			}
			if k != resolve.Dir {
				break // missing here: the engine reports it as not existing
			}
		}
		out = append(out, d)
	}
	return out, nil
}
