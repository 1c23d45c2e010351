package resolve

import (
	"slices"
	"strings"
)

// CaseFold is what a checkout on a case-insensitive file system (the
// default on macOS and Windows) gives a directory's layer where that
// differs from the case-sensitive answer of R2 (D1): the runtime opening
// AGENTS.md there gets agents.md. The resolution itself stays
// case-sensitive, so that it is the same on every platform (§11); this
// records how the other platforms differ.
type CaseFold struct {
	// As is the candidate a case-insensitive disk first finds an entry
	// for, in priority order: the name the runtime opens.
	As string
	// Names are the directory's entries equal to As in any case, sorted.
	// One name: that entry is the layer there. More: the names collide,
	// and a case-insensitive checkout holds only one of them (which one
	// depends on the order Git writes them).
	Names []string
}

// Loads is the entry a case-insensitive checkout opens as the layer, ""
// when colliding names leave it to the checkout.
func (c *CaseFold) Loads() string {
	if c == nil || len(c.Names) != 1 {
		return ""
	}
	return c.Names[0]
}

// caseFoldLayer answers R2 for a case-insensitive file system over a
// directory listing: for each candidate in priority order, the entries
// equal to it under Unicode simple case folding (what APFS and NTFS
// compare, for the ASCII candidate names; NTFS's upcase table and APFS's
// folding agree on them, the Kelvin sign and long s included); the first
// candidate with any gives the layer. It returns nil when that is the
// case-sensitive answer: the exact candidate, alone in its case, or no
// candidate at all.
func caseFoldLayer(ents []Entry, candidates []string) *CaseFold {
	for _, c := range candidates {
		var names []string
		for i := range ents {
			if strings.EqualFold(ents[i].Name, c) {
				names = append(names, ents[i].Name)
			}
		}
		if len(names) == 0 {
			continue
		}
		if len(names) == 1 && names[0] == c {
			return nil
		}
		slices.Sort(names)
		return &CaseFold{As: c, Names: names}
	}
	return nil
}
