package project

import (
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
	"github.com/rivumi/rivumi-lint/internal/shell"
)

// An uninitialised submodule — a gitlink the index records where the
// checkout holds a directory with no repository in it (after `git
// submodule deinit`, in a clone without --recursive, in a linked
// worktree) — is no repository: git takes the directory as the
// superproject's (`git -C sub rev-parse --show-toplevel` names the outer
// top, with the prefix sub/), and so does a runtime started there, which
// loads the chain from the root down to it as the disk holds it (R1,
// #38.8). A target there (a PATH of check, the DIR of preview) is resolved
// as that ordinary directory; without this the engine took the gitlink
// for a submodule it never enters, and the run checked no directory and
// passed. The whole-worktree walk still passes it over, as `git status`
// lists nothing there ("in unpopulated submodule").

// wayDirs are the directories a run's targets lie on the way to (slash
// paths below the root): every ancestor of each target, and the target
// itself unless its name is an instruction candidate (a gitlink named
// AGENTS.md stays a candidate the engine rejects, C2). dirs are below the
// root already (preview's), paths as given on the command line; those
// outside the root are left to the scope's own messages.
func (p *Project) wayDirs(dirs, paths []string, candidates []string) map[string]bool {
	rels := slices.Clone(dirs)
	for _, a := range paths {
		if rel, err := p.Rel(a); err == nil {
			rels = append(rels, rel)
		}
	}
	way := map[string]bool{}
	for _, rel := range rels {
		if rel == "" {
			continue
		}
		d := rel
		if slices.Contains(candidates, path.Base(rel)) {
			d = resolve.ParentDir(rel)
		}
		for ; d != "" && !way[d]; d = resolve.ParentDir(d) {
			way[d] = true
		}
	}
	return way
}

// unpopulated returns kinds (what the index records below the root)
// without the gitlinks of p.way whose directory on disk holds no
// repository, each named in a note with the command that checks it out.
// kinds is not changed.
func (p *Project) unpopulated(kinds map[string]resolve.Kind) map[string]resolve.Kind {
	var drop []string
	for d := range p.way {
		if kinds[d] != resolve.Submodule {
			continue
		}
		abs := filepath.Join(p.Root, filepath.FromSlash(d))
		if fi, err := os.Lstat(abs); err != nil || !fi.IsDir() || repo.IsRepository(abs) {
			continue
		}
		drop = append(drop, d)
	}
	if len(drop) == 0 {
		return kinds
	}
	sort.Strings(drop)
	out := maps.Clone(kinds)
	for _, d := range drop {
		delete(out, d)
		shown, _ := p.fromWD(filepath.Join(p.Root, filepath.FromSlash(d)))
		p.Notes = appendNew(p.Notes, []Note{repo.Info("%s is an uninitialised submodule (Git records a commit there; the directory holds no repository): Git and a runtime started there take it as a directory of this repository, and so does this run; `git submodule update --init %s` checks the submodule out",
			strconv.Quote(shown), shell.Quote(shown))})
	}
	return out
}
