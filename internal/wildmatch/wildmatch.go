// Package wildmatch matches paths against Git's glob patterns exactly as
// Git's wildmatch.c does: the one matcher behind .gitignore (F4) and
// .gitattributes (F5). Matching is byte-wise (a '?' matches one byte, not
// one rune), character classes are ASCII, and "**" spans directories only
// when it stands between slashes or at the ends of a pattern.
package wildmatch

// Flags change how a pattern matches.
type Flags uint8

const (
	// Pathname makes '*', '?' and bracket expressions stop at '/', so that
	// only "**" crosses directories (Git's WM_PATHNAME).
	Pathname Flags = 1 << iota
	// CaseFold compares ASCII letters without case (core.ignoreCase).
	CaseFold
)

type result int

const (
	match result = iota
	noMatch
	abortAll
	abortToStarStar
)

// Match reports whether text matches pattern.
func Match(pattern, text string, flags Flags) bool {
	return dowild(pattern, 0, text, 0, flags) == match
}

// at returns s[i], or 0 past the end: Git's strings end in NUL and its
// matcher reads that NUL as "the end".
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return isUpper(c) || isLower(c) }

func toLower(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}

func toUpper(c byte) byte {
	if isLower(c) {
		return c - ('a' - 'A')
	}
	return c
}

// isSpace is Git's sane isspace: no \v or \f.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isPunct(c byte) bool {
	switch {
	case c >= '!' && c <= '/', c >= ':' && c <= '@', c >= '[' && c <= '`', c >= '{' && c <= '~':
		return true
	}
	return false
}

func isGlobSpecial(c byte) bool { return c == '*' || c == '?' || c == '[' || c == '\\' }

// class reports whether c is in the POSIX class name; ok is false for an
// unknown class (Git then aborts the whole match).
func class(name string, c byte, flags Flags) (in, ok bool) {
	switch name {
	case "alnum":
		return isAlpha(c) || isDigit(c), true
	case "alpha":
		return isAlpha(c), true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit(c), true
	case "graph":
		return c > 0x20 && c < 0x7f, true
	case "lower":
		return isLower(c), true
	case "print":
		return c >= 0x20 && c < 0x7f, true
	case "punct":
		return isPunct(c), true
	case "space":
		return isSpace(c), true
	case "upper":
		return isUpper(c) || (flags&CaseFold != 0 && isLower(c)), true
	case "xdigit":
		return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}

// dowild is a line-by-line port of Git's dowild (wildmatch.c), with
// indexes p into pattern and t into text in place of pointers.
func dowild(pat string, p int, text string, t int, flags Flags) result {
	fold := flags&CaseFold != 0
	for ; p < len(pat); t, p = t+1, p+1 {
		pch := pat[p]
		tch := at(text, t)
		if tch == 0 && pch != '*' {
			return abortAll
		}
		if fold {
			tch, pch = toLower(tch), toLower(pch)
		}
		switch pch {
		case '\\':
			// A literal match with the next character; at the end of the
			// pattern the next "character" is the NUL, which never matches.
			// Git compares the escaped character unfolded.
			p++
			pch = at(pat, p)
			if tch != pch {
				return noMatch
			}
			continue
		case '?':
			if flags&Pathname != 0 && tch == '/' {
				return noMatch
			}
			continue
		case '*':
			var matchSlash bool
			p++
			if at(pat, p) == '*' {
				prev := p - 2
				for p++; at(pat, p) == '*'; p++ {
				}
				if flags&Pathname == 0 {
					// Without Pathname every star crosses slashes.
					matchSlash = true
				} else if (prev < 0 || pat[prev] == '/') &&
					(at(pat, p) == 0 || at(pat, p) == '/' || (at(pat, p) == '\\' && at(pat, p+1) == '/')) {
					// "/**/" may match no directory at all: try the rest
					// of the pattern right here first.
					if at(pat, p) == '/' && dowild(pat, p+1, text, t, flags) == match {
						return match
					}
					matchSlash = true
				} else {
					matchSlash = false
				}
			} else {
				// Without Pathname a single '*' is "**".
				matchSlash = flags&Pathname == 0
			}
			if p >= len(pat) {
				// A trailing "**" matches everything; a trailing '*' only
				// when no slash follows.
				if !matchSlash {
					for i := t; i < len(text); i++ {
						if text[i] == '/' {
							return noMatch
						}
					}
				}
				return match
			} else if !matchSlash && pat[p] == '/' {
				// One '*' then a slash matches up to the next directory.
				i := t
				for i < len(text) && text[i] != '/' {
					i++
				}
				if i >= len(text) {
					return noMatch
				}
				t = i
				// The for loop's step consumes the slash in both strings.
				goto next
			}
			for {
				if tch == 0 {
					break
				}
				// A literal after the star: skip quickly to where it
				// occurs (never past a slash unless the star crosses them).
				if !isGlobSpecial(pat[p]) {
					pc := pat[p]
					if fold {
						pc = toLower(pc)
					}
					for {
						tch = at(text, t)
						if tch == 0 || (!matchSlash && tch == '/') {
							break
						}
						if fold {
							tch = toLower(tch)
						}
						if tch == pc {
							break
						}
						t++
					}
					if tch != pc {
						if tch == 0 {
							// The literal is nowhere in the rest of the
							// text: no later start of any star can match
							// either. Git returns WM_NOMATCH here, which
							// gives the same answers in exponential time.
							return abortAll
						}
						return noMatch
					}
				}
				if m := dowild(pat, p, text, t, flags); m != noMatch {
					if !matchSlash || m != abortToStarStar {
						return m
					}
				} else if !matchSlash && tch == '/' {
					return abortToStarStar
				}
				t++
				tch = at(text, t)
			}
			return abortAll
		case '[':
			p++
			pch = at(pat, p)
			if pch == '^' {
				pch = '!'
			}
			negated := pch == '!'
			if negated {
				p++
				pch = at(pat, p)
			}
			var prev byte
			matched := false
			for {
				if pch == 0 {
					return abortAll
				}
				switch {
				case pch == '\\':
					p++
					pch = at(pat, p)
					if pch == 0 {
						return abortAll
					}
					if tch == pch {
						matched = true
					}
				case pch == '-' && prev != 0 && at(pat, p+1) != 0 && at(pat, p+1) != ']':
					p++
					pch = at(pat, p)
					if pch == '\\' {
						p++
						pch = at(pat, p)
						if pch == 0 {
							return abortAll
						}
					}
					if tch <= pch && tch >= prev {
						matched = true
					} else if fold && isLower(tch) {
						if up := toUpper(tch); up <= pch && up >= prev {
							matched = true
						}
					}
					pch = 0 // so that prev becomes 0
				case pch == '[' && at(pat, p+1) == ':':
					p += 2
					s := p
					for at(pat, p) != 0 && at(pat, p) != ']' {
						p++
					}
					pch = at(pat, p)
					if pch == 0 {
						return abortAll
					}
					i := p - s - 1
					if i < 0 || pat[p-1] != ':' {
						// No ":]": a plain '[' in the set.
						p = s - 2
						pch = '['
						if tch == pch {
							matched = true
						}
						break
					}
					in, ok := class(pat[s:s+i], tch, flags)
					if !ok {
						return abortAll
					}
					if in {
						matched = true
					}
					pch = 0
				default:
					if tch == pch {
						matched = true
					}
				}
				prev = pch
				p++
				pch = at(pat, p)
				if pch == ']' {
					break
				}
			}
			if matched == negated || (flags&Pathname != 0 && tch == '/') {
				return noMatch
			}
			continue
		default:
			if tch != pch {
				return noMatch
			}
			continue
		}
	next:
	}
	if t < len(text) {
		return noMatch
	}
	return match
}
