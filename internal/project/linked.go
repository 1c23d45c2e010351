package project

import (
	"errors"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// dropBehindLinks removes from dirs every directory that does not exist as
// a directory at the checked revision because a directory above it is a
// symbolic link there (R7: "directories that no longer exist at the
// checked revision are skipped"; Git never follows a link in a tree or the
// index). A deleted a/x/f whose a became a link leaves a/x behind such a
// link. The source says so itself: listing a/x gives a *LinkedDirError
// naming a. A directory that is itself a link stays when it links to a
// directory: the candidates behind it are reported on the link (C1), as
// the whole-worktree walk does; keep holds those known already.
func dropBehindLinks(src resolve.Snapshot, dirs []string, keep map[string]bool) ([]string, error) {
	out := dirs[:0]
	for _, d := range dirs {
		_, err := src.List(d)
		var le *resolve.LinkedDirError
		switch {
		case d == "" || keep[d] || err == nil:
		case errors.As(err, &le) && le.Dir != d:
			continue // behind a link
		case errors.As(err, &le):
			ok, err := src.DirLink(d)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		case resolve.IsFatal(err):
			return nil, err
		}
		out = append(out, d) // a missing one is skipped by the engine
	}
	return out, nil
}
