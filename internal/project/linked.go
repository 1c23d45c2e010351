package project

import (
	"errors"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// dropBehindLinks removes from dirs every directory that a checkout of the
// revision would not have because a directory above it is a symbolic link
// there (R7: "a directory absent from the checked revision is skipped"). A
// deleted a/x/f whose a became a link leaves a/x behind such a link. The
// source says so itself: listing a/x gives a *LinkedDirError naming a.
// Such a directory stays when the links on the way, followed by their
// target text as lstat(2) does, lead to a directory (a links to t, and t/x
// exists): the runtime resolves it, nothing behind the link is read (C1).
// A directory that is itself a link stays when it links to a directory:
// the candidates behind it are reported on the link (C1), as the
// whole-worktree walk does; keep holds those known already.
func dropBehindLinks(src resolve.Snapshot, dirs []string, keep map[string]bool) ([]string, error) {
	out := dirs[:0]
	for _, d := range dirs {
		_, err := src.List(d)
		var le *resolve.LinkedDirError
		switch {
		case d == "" || keep[d] || err == nil:
		case errors.As(err, &le) && le.Dir != d:
			// Behind a link: a checkout has d when the links on the way
			// lead to a directory, and the runtime, the worktree check and
			// the oracle then resolve it (R6), its candidates rejected
			// (C1).
			ent, err := src.Lstat(d)
			if err == nil && ent.Kind == resolve.Symlink {
				var ok bool
				ok, err = src.DirLink(d)
				if ok {
					ent.Kind = resolve.Dir
				}
			}
			if err != nil {
				return nil, err
			}
			if ent.Kind != resolve.Dir {
				continue
			}
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
