package scope

import (
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/gitattr"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Affected returns the directories a change reaches (R7), sorted, as slash
// paths ("" for the root):
//
//   - the directory of every changed path; changed lists both sides of a
//     change (a rename is its old path and its new path);
//   - for every changed instruction candidate in directory P, P itself and
//     every directory below P that holds a candidate at the checked
//     revision, found with snap's CandidateDirsBelow (the directories of
//     the revision at or below P that may hold one of e's candidates,
//     sorted: all of them will do, the Git sources give those with an
//     entry of a candidate's name) and e, the engine over that revision,
//     which decides. A path such as
//     P/AGENTS.md/x counts as a change of the candidate entry P/AGENTS.md: a
//     directory with that name is the layer of P (R2). A changed
//     P/.gitattributes expands P the same way (F5).
//
// Directories that do not exist at the checked revision are kept here; the
// engine reports them as fs.ErrNotExist and project.Resolve skips them. The
// engine memoises every directory, so each chain is resolved once.
func Affected(e *resolve.Engine, snap resolve.Snapshot, changed []string) ([]string, error) {
	set := map[string]bool{}
	var expand []string
	for _, p := range changed {
		p = strings.Trim(p, "/")
		if p == "" {
			continue
		}
		set[resolve.ParentDir(p)] = true
		dir := ""
		comps := strings.Split(p, "/")
		for i, c := range comps {
			// F5: a changed .gitattributes may convert the instruction
			// files at or below its directory.
			if e.IsName(c) || (i == len(comps)-1 && c == gitattr.FileName) {
				expand = append(expand, dir)
			}
			if dir == "" {
				dir = c
			} else {
				dir += "/" + c
			}
		}
	}
	sort.Strings(expand)
	var done []string
	for _, p := range expand {
		// P itself is always resolved: an ancestor's expansion finds only
		// the directories that hold a candidate at the checked revision,
		// and P may have lost its last one (x/AGENTS.md/notes.txt deleted
		// empties the directory x/AGENTS.md, x's layer).
		set[p] = true
		if covered(done, p) {
			continue
		}
		done = append(done, p)
		dirs, err := snap.CandidateDirsBelow(p, e.Names())
		if err != nil {
			return nil, err
		}
		for _, d := range Below(e, dirs, p) {
			set[d] = true
		}
	}
	return sorted(set), nil
}

// covered reports whether p is at or below one of the directories in done.
func covered(done []string, p string) bool {
	for _, d := range done {
		if d == "" || p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}
