// Package gitignore decides which untracked paths Git ignores (F4): it
// parses .gitignore, info/exclude and core.excludesFile the way Git's dir.c
// does and matches with Git's own wildmatch, so that the worktree walk skips
// exactly what `git check-ignore` and `git status` skip.
package gitignore

import (
	"bytes"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/wildmatch"
)

// Pattern is one line of an ignore file, as dir.c's parse_path_pattern
// leaves it.
type Pattern struct {
	// Text is the pattern without a leading '!' and a trailing '/'.
	Text string
	// Line is the 1-based line number in its file.
	Line int
	// Negative: the line started with '!' (it re-includes).
	Negative bool
	// MustBeDir: the line ended with '/' (it matches directories only).
	MustBeDir bool
	// NoDir: no '/' in Text, so it matches the basename at any depth.
	NoDir bool
	// endsWith: "*literal", compared as a suffix (Git's
	// PATTERN_FLAG_ENDSWITH).
	endsWith bool
	// noWild is the length of Text's leading part without a special byte
	// (Git's nowildcardlen): compared literally before wildmatch runs on the
	// rest. This is not only a speed-up: it changes what a "**" right after
	// that part means, and Git's answers are the contract.
	noWild int
}

// String gives the line back as Git would show it in `check-ignore -v`
// (leading '!' and trailing '/' restored).
func (p *Pattern) String() string {
	s := p.Text
	if p.Negative {
		s = "!" + s
	}
	if p.MustBeDir {
		s += "/"
	}
	return s
}

// List is the patterns of one file.
type List struct {
	// Source names the file, for messages.
	Source string
	// Base is the slash path of the directory the file applies to, relative
	// to the worktree top ("" for the top, info/exclude and
	// core.excludesFile).
	Base     string
	Patterns []Pattern
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Parse reads the lines of an ignore file as add_patterns_from_buffer does:
// a UTF-8 byte-order mark at the start is skipped; lines end at '\n' and
// lose one '\r' before it; a line that is empty or starts with '#' is a
// comment; a NUL ends the line's pattern (Git keeps C strings); trailing
// spaces go unless escaped with '\' (leading spaces stay).
func Parse(data []byte, source, base string) *List {
	l := &List{Source: source, Base: base}
	data = bytes.TrimPrefix(data, utf8BOM)
	lineno := 0
	for len(data) > 0 {
		lineno++
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
		p := ParseLine(trimTrailingSpaces(string(line)))
		p.Line = lineno
		l.Patterns = append(l.Patterns, p)
	}
	return l
}

// trimTrailingSpaces is dir.c's trim_trailing_spaces: only ' ' counts, and
// a backslash protects the byte after it.
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// simpleLength is the length of s's leading part without a glob special
// byte.
func simpleLength(s string) int {
	i := strings.IndexAny(s, "*?[\\")
	if i < 0 {
		return len(s)
	}
	return i
}

// ParseLine parses one pattern line (already without comment, line end and
// trailing spaces) as parse_path_pattern does.
func ParseLine(s string) Pattern {
	var p Pattern
	if strings.HasPrefix(s, "!") {
		p.Negative = true
		s = s[1:]
	}
	n := len(s)
	if n > 0 && s[n-1] == '/' {
		n--
		p.MustBeDir = true
	}
	p.NoDir = strings.IndexByte(s[:n], '/') < 0
	p.noWild = min(simpleLength(s), n)
	// Git tests the rest of the line after the star, trailing slash
	// included; a slash is not special, so the trimmed text says the same.
	p.endsWith = n > 0 && s[0] == '*' && simpleLength(s[1:]) == len(s)-1
	p.Text = s[:n]
	return p
}

func flags(fold bool) wildmatch.Flags {
	if fold {
		return wildmatch.CaseFold
	}
	return 0
}

// equal is Git's fspathncmp over equal lengths: ASCII case folded when
// core.ignoreCase is set.
func equal(a, b string, fold bool) bool {
	if fold {
		return len(a) == len(b) && asciiEqualFold(a, b)
	}
	return a == b
}

func asciiEqualFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// Matches reports whether p matches path (a slash path relative to the
// worktree top, never empty) for a pattern read from a file applying to
// base; isDir says whether path is a directory (a symbolic link is not).
// This is last_matching_pattern_from_list's test for one pattern.
func (p *Pattern) Matches(path, base string, isDir, fold bool) bool {
	if p.MustBeDir && !isDir {
		return false
	}
	if p.NoDir {
		name := path[strings.LastIndexByte(path, '/')+1:]
		return p.matchBasename(name, fold)
	}
	return p.matchPathname(path, base, fold)
}

// matchBasename is dir.c's match_basename. Git matches basenames without
// WM_PATHNAME; a basename has no slash, so only "**" could tell, and it
// then means what '*' means.
func (p *Pattern) matchBasename(name string, fold bool) bool {
	pat := p.Text
	switch {
	case p.noWild == len(pat):
		return equal(pat, name, fold)
	case p.endsWith:
		lit := pat[1:]
		return len(lit) <= len(name) && equal(lit, name[len(name)-len(lit):], fold)
	}
	return wildmatch.Match(pat, name, flags(fold))
}

// matchPathname is dir.c's match_pathname: the pattern is anchored at base
// and matched with WM_PATHNAME after its literal prefix.
func (p *Pattern) matchPathname(path, base string, fold bool) bool {
	pat, prefix := p.Text, p.noWild
	if strings.HasPrefix(pat, "/") {
		pat = pat[1:]
		prefix--
	}
	if len(path) < len(base)+1 || len(base) > 0 && path[len(base)] != '/' || !equal(path[:len(base)], base, fold) {
		return false
	}
	name := path
	if base != "" {
		name = path[len(base)+1:]
	}
	if prefix > 0 {
		if prefix > len(name) || !equal(pat[:prefix], name[:prefix], fold) {
			return false
		}
		pat, name = pat[prefix:], name[prefix:]
		if pat == "" && name == "" {
			return true
		}
	}
	return wildmatch.Match(pat, name, wildmatch.Pathname|flags(fold))
}

// last returns the last pattern of l that matches path, or nil.
func (l *List) last(path string, isDir, fold bool) *Pattern {
	for i := len(l.Patterns) - 1; i >= 0; i-- {
		if p := &l.Patterns[i]; p.Matches(path, l.Base, isDir, fold) {
			return p
		}
	}
	return nil
}
