package resolve

import (
	"encoding/binary"
	"strings"
	"unicode/utf8"
)

// NearMissOf reports whether name resembles one of the candidate names
// closely enough that its author meant it to be one (RL011), and returns
// that candidate. A name is a near miss when
//
//	(a) it equals a candidate ignoring case but not exactly (agents.md,
//	    AGENTS.MD: a case-insensitive disk loads these), or
//	(b) it is one edit (insert, delete, replace, or swap of two adjacent
//	    characters) from a candidate compared case-sensitively (AGENT.md,
//	    AGENTS.mdd, RIVUMI.overide.md).
//
// Anything looser fired on real repositories: a lowercase agent.md (a
// documentation page beside docs/AGENTS.md) is neither, and is silent.
func NearMissOf(name string, candidates []string) (string, bool) {
	return nearMissKeyed(name, candidates, nil)
}

// candidateKeys is kept for the engine's signature; the rule needs no
// per-candidate precomputation.
func candidateKeys(candidates []string) []string { return nil }

// nearMissKeyed is NearMissOf. It runs on every file of a whole-worktree
// walk, so it allocates nothing for an ASCII name and rejects most names on
// their length alone.
func nearMissKeyed(name string, candidates, _ []string) (string, bool) {
	for _, c := range candidates {
		if c == name {
			return "", false
		}
	}
	// (a) before (b): a name in another case is the more telling mistake,
	// and RL011's message explains what a case-insensitive disk does.
	for _, c := range candidates {
		if strings.EqualFold(c, name) {
			return c, true
		}
	}
	for _, c := range candidates {
		if oneEdit(name, c) {
			return c, true
		}
	}
	return "", false
}

// oneEdit reports whether a and b, which differ, are one insertion,
// deletion, replacement or adjacent swap apart (the optimal string
// alignment distance is 1), comparing characters exactly.
func oneEdit(a, b string) bool {
	if d := len(a) - len(b); d > 4 || d < -4 {
		return false // a rune is at most 4 bytes: never one edit
	}
	if !asciiOnly(a) || !asciiOnly(b) {
		return oneEditRunes([]rune(a), []rune(b))
	}
	return oneEditSeq(len(a), len(b), func(i, j int) bool { return a[i] == b[j] })
}

func oneEditRunes(a, b []rune) bool {
	return oneEditSeq(len(a), len(b), func(i, j int) bool { return a[i] == b[j] })
}

// oneEditSeq is oneEdit over two sequences of lengths n and m whose
// elements eq compares.
func oneEditSeq(n, m int, eq func(i, j int) bool) bool {
	switch n - m {
	case 0:
		i := 0
		for i < n && eq(i, i) {
			i++
		}
		if i == n {
			return false // equal: zero edits
		}
		rest := func(from int) bool {
			for k := from; k < n; k++ {
				if !eq(k, k) {
					return false
				}
			}
			return true
		}
		if rest(i + 1) {
			return true // replace
		}
		return i+1 < n && eq(i, i+1) && eq(i+1, i) && rest(i+2) // swap
	case 1, -1:
		// Walk the common prefix, then the longer side skips one element.
		short := m
		at := func(i, j int) bool { return eq(i, j) } // at(index in the longer, index in the shorter)
		if m > n {
			short = n
			at = func(i, j int) bool { return eq(j, i) }
		}
		i := 0
		for i < short && at(i, i) {
			i++
		}
		for k := i; k < short; k++ {
			if !at(k+1, k) {
				return false
			}
		}
		return true
	}
	return false
}

func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// noteExts are the extensions of names that may be instruction files or
// skills; Worktree.relevant keeps them in listings.
var noteExts = []string{".md", ".markdown", ".mdx", ".txt"}

// hasNoteExt reports, without allocating, whether name ends in one of
// noteExts in any case and has a stem. A name with non-ASCII bytes is
// always kept: lower-casing may change its length (the Kelvin sign
// becomes "k").
func hasNoteExt(name []byte) bool {
	if !asciiBytes(name) {
		return true
	}
	if len(name) == 0 {
		return false
	}
	// Every extension of noteExts ends in d, n, x or t, in either case:
	// most names are rejected on their last byte.
	switch name[len(name)-1] | 0x20 {
	case 'd', 'n', 'x', 't':
	default:
		return false
	}
	for _, e := range noteExts {
		if len(name) > len(e) && strings.EqualFold(string(name[len(name)-len(e):]), e) {
			return true
		}
	}
	return false
}

// asciiBytes is asciiOnly eight bytes at a time: hasNoteExt asks it of
// every file name of a whole-worktree walk.
func asciiBytes(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	var or byte
	for _, c := range b {
		or |= c
	}
	return or&0x80 == 0
}
