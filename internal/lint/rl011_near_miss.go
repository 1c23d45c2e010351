package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

func init() {
	register(Rule{ID: "RL011", Name: "near-miss-name", Default: Warning,
		Category: "loading", Precision: "high",
		Summary: "A file name close to an instruction file name that Rivumi will not load.",
		Doc:     "Candidate names are matched exactly and case-sensitively (R2). A file name is a near miss when it equals a candidate name ignoring case but not exactly (agents.md, AGENTS.MD, Agents.override.md: not loaded on Linux, but loaded on a case-insensitive disk such as macOS's or Windows', so the agent behaves differently per machine), or when it is one edit (a character inserted, deleted, replaced, or two adjacent ones swapped) from a candidate name compared case-sensitively (AGENT.md, AGENTS.mdd, RIVUMI.overide.md). Anything further is not reported: a lowercase agent.md (a documentation page about an agent) is neither. Fix: rename the file to the exact candidate name, or to a name not close to one.",
		run:     checkNearMiss})
}

func checkNearMiss(p *pass) {
	for _, d := range p.res.Dirs {
		for _, nm := range d.NearMisses {
			name := nm.Path[strings.LastIndexByte(nm.Path, '/')+1:]
			if strings.EqualFold(name, nm.Like) {
				p.emit(Finding{Path: nm.Path, Repair: Repair{Kind: RepairRename, Name: nm.Like},
					Message: fmt.Sprintf("%s. Fix: rename it to exactly %s, or to a name not close to an instruction file name if it is not one", caseMessage(d, name, nm.Like), nm.Like)})
				continue
			}
			// One edit away: the rename is the user's to make (Name "").
			p.emit(Finding{Path: nm.Path, Repair: Repair{Kind: RepairRename},
				Message: fmt.Sprintf("Rivumi will not load this file: its name is close to %s but not it. Fix: rename it to %s, or to a name not close to an instruction file name if it is not one", nm.Like, nm.Like)})
		}
	}
}

// caseMessage is RL011's message for a candidate name in another case: what
// Linux and FreeBSD (case-sensitive) load, and what a checkout on macOS or
// Windows (case-insensitive by default) loads instead (D1). It is the same
// wherever the check runs.
func caseMessage(d *resolve.DirInfo, name, like string) string {
	const head = "Rivumi will not load this file: names are matched case-sensitively and this is not %s, so on Linux and FreeBSD it is never read; "
	msg := fmt.Sprintf(head, like)
	cf := d.CaseFold
	switch {
	case cf != nil && cf.Loads() == name:
		return msg + fmt.Sprintf("on macOS and Windows (case-insensitive disks by default) opening %s gets this file, and it is the layer of %s there", cf.As, resolve.DisplayDir(d.Path))
	case cf != nil && slices.Contains(cf.Names, name):
		others := slices.DeleteFunc(slices.Clone(cf.Names), func(n string) bool { return n == name })
		return msg + fmt.Sprintf("its name differs from %s only in case, so a checkout on macOS or Windows (case-insensitive disks by default) holds only one of these files and which text Rivumi loads there depends on the checkout", strings.Join(others, " and "))
	case cf != nil:
		return msg + fmt.Sprintf("on macOS and Windows (case-insensitive disks by default) it would be opened as %s, but %s comes first there", like, strings.Join(cf.Names, " and "))
	case len(d.Files) > 0:
		return msg + fmt.Sprintf("on macOS and Windows (case-insensitive disks by default) it would be opened as %s, but %s comes first there too", like, d.Files[0].Name)
	}
	return msg + "a case-insensitive disk (macOS, Windows) would load it"
}
