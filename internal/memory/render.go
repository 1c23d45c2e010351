package memory

import "strings"

// header is the first line of the rendered memory.
const header = "Known context:\n"

// Render returns the text of the memory section for entries (P4):
//
//	Known context:
//	- [user preference] TEXT
//	- [project fact] TEXT
//	- [project preference] TEXT
//
// one line per entry in the given order, each ending in LF. Every newline
// inside TEXT (LF, CR or CRLF) becomes one space; nothing else in TEXT is
// changed. Render returns nil for no entries (the section is left out).
func Render(entries []Entry) []byte {
	if len(entries) == 0 {
		return nil
	}
	n := len(header)
	for i := range entries {
		n += len("- [] \n") + len(label(entries[i].Type)) + len(entries[i].Text)
	}
	out := make([]byte, 0, n)
	out = append(out, header...)
	for i := range entries {
		out = append(out, "- ["...)
		out = append(out, label(entries[i].Type)...)
		out = append(out, "] "...)
		t := entries[i].Text
		for j := 0; j < len(t); j++ {
			switch c := t[j]; c {
			case '\r':
				if j+1 < len(t) && t[j+1] == '\n' {
					j++
				}
				out = append(out, ' ')
			case '\n':
				out = append(out, ' ')
			default:
				out = append(out, c)
			}
		}
		out = append(out, '\n')
	}
	return out
}

// label is the bracketed name of an entry type: user_preference is
// "user preference". A type Select never returns is shown with its
// underscores turned into spaces.
func label(typ string) string {
	if i := lookupType(typ); i >= 0 {
		return typeLabels[i]
	}
	return strings.ReplaceAll(typ, "_", " ")
}
