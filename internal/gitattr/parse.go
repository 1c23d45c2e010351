// Package gitattr reads .gitattributes files with Git's own semantics
// (attr.c in Git 2.39) and predicts what a checkout of a file holds (F5):
// diff and staged modes read instruction files from Git objects, while the
// runtime reads a checkout, which Git converts on the way out.
//
// Only the attribute files a commit or the index carries, plus the
// repository's info/attributes, are read: the system file and
// core.attributesFile belong to one machine, and a check of a commit must
// give the same answer on every machine (docs/behaviour.md, "Checkout
// conversions").
package gitattr

import (
	"fmt"
	"strings"
)

// FileName is the name of a per-directory attributes file.
const FileName = ".gitattributes"

// MaxFileBytes caps an attributes file. Git ignores files of 100 MiB and
// more; a file between this cap and that is an error (exit 2), since
// reading it would cost more than it could be worth and skipping it would
// not be what Git does.
const MaxFileBytes = 1 << 20

// maxLineBytes is Git's ATTR_MAX_LINE_LENGTH: longer lines are ignored.
const maxLineBytes = 2048

// State is how a line sets an attribute.
type State int

const (
	// Unspecified is `!attr`: as if no line mentioned the attribute.
	Unspecified State = iota
	// Set is `attr`.
	Set
	// Unset is `-attr`.
	Unset
	// String is `attr=value`.
	String
)

// Value is an attribute's value for one path, and the line it came from.
type Value struct {
	State State
	Text  string // the value of a String
	From  Origin
}

// String is the value as `git check-attr` prints it.
func (v Value) String() string {
	switch v.State {
	case Set:
		return "set"
	case Unset:
		return "unset"
	case String:
		return v.Text
	}
	return "unspecified"
}

// Origin is the line that gave a path an attribute.
type Origin struct {
	File string // ".gitattributes", "a/.gitattributes", "info/attributes" or "[builtin]"
	Line int
	// Macro is the macro whose expansion set the attribute, "" when the
	// line names the attribute itself.
	Macro string
}

func (o Origin) String() string {
	s := fmt.Sprintf("%s:%d", o.File, o.Line)
	if o.Macro != "" {
		s += " through the macro " + o.Macro
	}
	return s
}

type assign struct {
	name  string
	state State
	text  string
}

type line struct {
	macro   string // the macro a `[attr]NAME` line defines
	pattern string // without a trailing '/'
	mustDir bool   // the pattern ended in '/': it never matches a file
	noDir   bool   // the pattern has no '/': it matches the basename
	states  []assign
	num     int
}

// File is one parsed attributes file.
type File struct {
	Name  string // as shown in Origin.File
	Dir   string // the directory patterns are relative to ("" for the root)
	lines []line
}

// Parse parses an attributes file. macros says whether `[attr]` lines are
// allowed (the root .gitattributes and info/attributes; Git ignores them
// elsewhere). Lines Git rejects (negative patterns, invalid attribute
// names, lines of 2048 bytes or more) are skipped as Git skips them.
func Parse(name, dir string, data []byte, macros bool) *File {
	f := &File{Name: name, Dir: dir}
	// Git reads the blob as a C string: a NUL ends it.
	if i := strings.IndexByte(string(data), 0); i >= 0 {
		data = data[:i]
	}
	text := string(data)
	for n := 1; text != ""; n++ {
		l := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			l, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if ln, ok := parseLine(l, macros); ok {
			ln.num = n
			f.lines = append(f.lines, ln)
		}
	}
	return f
}

const blank = " \t\r\n"

func skipBlank(s string) string { return strings.TrimLeft(s, blank) }

func tokenLen(s string) int {
	if i := strings.IndexAny(s, blank); i >= 0 {
		return i
	}
	return len(s)
}

// parseLine is attr.c's parse_attr_line.
func parseLine(raw string, macros bool) (line, bool) {
	cp := skipBlank(raw)
	if cp == "" || cp[0] == '#' {
		return line{}, false
	}
	if len(raw) >= maxLineBytes {
		return line{}, false
	}
	var name, states string
	if q, rest, ok := unquoteC(cp); cp[0] == '"' && ok {
		name, states = q, rest
	} else {
		n := tokenLen(cp)
		name, states = cp[:n], cp[n:]
	}
	var l line
	const prefix = "[attr]"
	if len(name) > len(prefix) && strings.HasPrefix(name, prefix) {
		if !macros {
			return line{}, false
		}
		m := skipBlank(name[len(prefix):])
		m = m[:tokenLen(m)]
		if !validName(m) {
			return line{}, false
		}
		l.macro = m
	} else {
		p := name
		if strings.HasPrefix(p, "!") {
			return line{}, false // Git: negative patterns are ignored
		}
		if strings.HasSuffix(p, "/") {
			p, l.mustDir = p[:len(p)-1], true
		}
		l.noDir = !strings.Contains(p, "/")
		l.pattern = p
	}
	for s := skipBlank(states); s != ""; {
		a, rest, ok := parseAssign(s)
		if !ok {
			return line{}, false // an invalid name drops the whole line
		}
		l.states = append(l.states, a)
		s = rest
	}
	return l, true
}

// parseAssign is attr.c's parse_attr: one `attr`, `-attr`, `!attr` or
// `attr=value`.
func parseAssign(s string) (assign, string, bool) {
	ep := tokenLen(s)
	tok, rest := s[:ep], skipBlank(s[ep:])
	var a assign
	n, eq := tok, -1
	if i := strings.IndexByte(tok, '='); i >= 0 {
		n, eq = tok[:i], i
	}
	switch {
	case strings.HasPrefix(n, "-"):
		a.state, n = Unset, n[1:]
	case strings.HasPrefix(n, "!"):
		a.state, n = Unspecified, n[1:]
	case eq < 0:
		a.state = Set
	default:
		a.state, a.text = String, tok[eq+1:]
	}
	if !validName(n) {
		return assign{}, "", false
	}
	a.name = n
	return a, rest, true
}

// validName is attr.c's attr_name_valid: [-A-Za-z0-9_.], not starting
// with '-'.
func validName(s string) bool {
	if s == "" || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '-' || c == '.' || c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// unquoteC is Git's unquote_c_style for a string starting with '"': it
// returns the unquoted text and what follows the closing quote.
func unquoteC(s string) (string, string, bool) {
	if s == "" || s[0] != '"' {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); {
		c := s[i]
		switch c {
		case '"':
			return b.String(), s[i+1:], true
		case '\\':
			i++
			if i >= len(s) {
				return "", "", false
			}
			c = s[i]
			switch c {
			case '"', '\\':
				b.WriteByte(c)
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'v':
				b.WriteByte('\v')
			case '0', '1', '2', '3':
				if i+2 >= len(s) || !isOctal(s[i+1]) || !isOctal(s[i+2]) {
					return "", "", false
				}
				b.WriteByte((c-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
				i += 2
			default:
				return "", "", false
			}
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", "", false
}

func isOctal(c byte) bool { return '0' <= c && c <= '7' }
