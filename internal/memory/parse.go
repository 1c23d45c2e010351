package memory

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Entry is one valid memory line.
type Entry struct {
	Line      int    // 1-based line number in the file; 0 from ParseLine
	Type      string // user_preference, project_fact or project_preference
	Text      string // as written (escapes decoded); newlines are kept
	Project   string // "" when absent (only possible for user_preference)
	CreatedAt string // "" when absent
}

// Problem is one corrupt line that the runtime skips (rule RL013).
type Problem struct {
	Line   int
	Reason string
}

// MaxLineBytes is the longest valid line, without its LF and a CR before it.
const MaxLineBytes = 1 << 20

// maxDepth is encoding/json's nesting limit: 10000 nested arrays or objects
// are accepted, 10001 are not.
const maxDepth = 10000

// maxQuoted is how many bytes of an offending value a reason quotes.
const maxQuoted = 64

// The three entry types, in the order of typeNames and typeLabels.
const (
	typeUser = iota
	typeProjectFact
	typeProjectPref
	numTypes
)

var (
	typeNames  = [numTypes]string{"user_preference", "project_fact", "project_preference"}
	typeLabels = [numTypes]string{"user preference", "project fact", "project preference"}
)

func lookupType(s string) int {
	for i, n := range typeNames {
		if s == n {
			return i
		}
	}
	return -1
}

// The known fields of a line.
const (
	fType = iota
	fText
	fProject
	fCreatedAt
	numFields
)

var fieldNames = [numFields]string{"type", "text", "project", "created_at"}

// Kinds of JSON values.
const (
	kString = 's'
	kNumber = 'n'
	kBool   = 'b'
	kNull   = 'z'
	kObject = 'o'
	kArray  = 'a'
)

func kindName(k byte) string {
	switch k {
	case kString:
		return "a string"
	case kNumber:
		return "a number"
	case kBool:
		return "a boolean"
	case kNull:
		return "null"
	case kObject:
		return "an object"
	case kArray:
		return "an array"
	}
	return "a value"
}

// Reason codes. A reason is formatted only when it is reported, so a file of
// a million corrupt lines costs no string per line beyond MaxProblems.
type code uint8

const (
	okLine          code = iota
	errBlank             // nothing but white space (ParseLine only; Select skips it)
	errTooLong           // n bytes
	errUTF8              // invalid byte at col
	errEOF               // line ends inside a value
	errChar              // unexpected character at col
	errCtl               // control character inside a string at col
	errEscape            // invalid escape at col
	errDepth             // nested deeper than maxDepth at col
	errAfter             // something after the top-level value at col
	errNotObject         // top-level value of kind
	errSurrogate         // unpaired surrogate escape at col
	errMissing           // field missing
	errMissingProj       // project missing for typ
	errWrongType         // field has kind
	errUnknownType       // type value not known
	errEmptyText         // text is ""
	errBadCreatedAt      // created_at not RFC 3339
)

// reason describes why a line is corrupt. Spans refer to the line's bytes,
// so a reason must be formatted before the line buffer is reused.
type reason struct {
	code  code
	col   int  // 1-based byte column
	n     int  // line length (errTooLong)
	field int  // errMissing, errWrongType
	kind  byte // errNotObject, errWrongType
	count int  // occurrences of the field (errWrongType)
	typ   int  // errMissingProj
	start int  // raw string contents (errUnknownType, errBadCreatedAt)
	end   int
}

// format returns the reason text for the line b.
func (r *reason) format(b []byte) string {
	switch r.code {
	case errBlank:
		return "blank line"
	case errTooLong:
		return fmt.Sprintf("line is %d bytes, over the 1 MiB limit", r.n)
	case errUTF8:
		return fmt.Sprintf("not valid UTF-8: byte 0x%02X at column %d", b[r.col-1], r.col)
	case errEOF:
		return fmt.Sprintf("invalid JSON at column %d: unexpected end of line (truncated?)", r.col)
	case errChar:
		return fmt.Sprintf("invalid JSON at column %d: unexpected %s", r.col, describeAt(b, r.col-1))
	case errCtl:
		return fmt.Sprintf("invalid JSON at column %d: control character 0x%02X inside a string", r.col, b[r.col-1])
	case errEscape:
		return fmt.Sprintf("invalid JSON at column %d: invalid escape in a string", r.col)
	case errDepth:
		return fmt.Sprintf("invalid JSON at column %d: nested deeper than %d", r.col, maxDepth)
	case errAfter:
		return fmt.Sprintf("invalid JSON at column %d: unexpected %s after the object", r.col, describeAt(b, r.col-1))
	case errNotObject:
		return "not a JSON object: the line is " + kindName(r.kind)
	case errSurrogate:
		return fmt.Sprintf("unpaired UTF-16 surrogate escape %s at column %d: the string is not valid Unicode", b[r.col-1:r.col+5], r.col)
	case errMissing:
		return fmt.Sprintf("missing %q", fieldNames[r.field])
	case errMissingProj:
		return fmt.Sprintf("missing \"project\" (required for %s)", typeNames[r.typ])
	case errWrongType:
		s := fmt.Sprintf("%q is %s, want a string", fieldNames[r.field], kindName(r.kind))
		if r.count > 1 {
			s += fmt.Sprintf(" (the key occurs %d times; every occurrence must be a string)", r.count)
		}
		return s
	case errUnknownType:
		return fmt.Sprintf("unknown type %s (want user_preference, project_fact or project_preference)", quoteRaw(b[r.start:r.end]))
	case errEmptyText:
		return `"text" is empty`
	case errBadCreatedAt:
		return fmt.Sprintf("\"created_at\" is not an RFC 3339 time such as \"2006-01-02T15:04:05Z\": %s", quoteRaw(b[r.start:r.end]))
	}
	return "corrupt line"
}

// quoteRaw quotes the decoded value of raw JSON string contents, cut to
// maxQuoted bytes at a rune boundary.
func quoteRaw(raw []byte) string {
	// Decode only a prefix that is sure to give more than maxQuoted bytes
	// (an escape of 6 bytes gives at least 1), never splitting an escape or
	// a surrogate pair, so that a 1 MiB value costs no 1 MiB copy.
	i := 0
	for i < len(raw) && i < 6*(maxQuoted+1) {
		switch {
		case raw[i] != '\\':
			i++
		case raw[i+1] != 'u':
			i += 2
		default:
			r := unhex4(raw[i+2:])
			i += 6
			if 0xD800 <= r && r < 0xDC00 && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
				if r2 := unhex4(raw[i+2:]); 0xDC00 <= r2 && r2 < 0xE000 {
					i += 6
				}
			}
		}
	}
	v := appendUnescaped(nil, raw[:i])
	if len(v) <= maxQuoted {
		return strconv.Quote(string(v))
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return strconv.Quote(string(v[:cut])) + "…"
}

// describeAt names the character at b[i] (b is valid UTF-8).
func describeAt(b []byte, i int) string {
	if i >= len(b) {
		return "end of line"
	}
	r, _ := utf8.DecodeRune(b[i:])
	switch {
	case r == '\uFEFF':
		return "byte-order mark U+FEFF"
	case r < 0x20 || r == 0x7F:
		return fmt.Sprintf("control character 0x%02X", r)
	case r < 0x80:
		return "character " + strconv.QuoteRune(r)
	case unicode.IsPrint(r):
		return fmt.Sprintf("character %s (U+%04X)", strconv.QuoteRune(r), r)
	}
	return fmt.Sprintf("character U+%04X", r)
}

// field records the occurrences of one known key in the top-level object.
type field struct {
	n          int  // occurrences
	bad        byte // kind of the first occurrence that is not a string, or 0
	start, end int  // raw contents of the last string occurrence
	esc        bool // those contents contain a backslash escape
}

// parser checks one line in place. It is reused from line to line, so
// checking a valid line allocates nothing.
type parser struct {
	b     []byte
	i     int
	depth int
	f     [numFields]field
	surr  int  // 1-based column of the first unpaired surrogate escape, or 0
	esc   bool // the last string value checked contains an escape
	r     reason
	tmp   []byte // scratch for unescaped keys and values
}

const (
	ones        = 0x0101010101010101
	highs       = 0x8080808080808080
	quotes      = '"' * ones
	backslashes = '\\' * ones
)

// hasZeroByte is non-zero if a byte of x is zero.
func hasZeroByte(x uint64) uint64 { return (x - ones) &^ x & highs }

// hasLessThan20 is non-zero if a byte of x is below 0x20.
func hasLessThan20(x uint64) uint64 { return (x - 0x20*ones) &^ x & highs }

// strSafe[c] is true for bytes that need no attention inside a string.
var strSafe = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// parse checks the line b (no LF, no trailing CR, at most MaxLineBytes) and
// reports the entry type, or -1 with p.r set.
func (p *parser) parse(b []byte) int {
	*p = parser{b: b, tmp: p.tmp[:0]}
	if !utf8.Valid(b) {
		i := 0
		for i < len(b) {
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		return p.fail(errUTF8, i)
	}
	p.ws()
	if p.i == len(b) {
		return p.fail(errBlank, p.i)
	}
	var kind byte
	if b[p.i] == '{' {
		kind = kObject
		if !p.object(true) {
			return -1
		}
	} else {
		var ok bool
		if kind, ok = p.value(); !ok {
			return -1
		}
	}
	p.ws()
	if p.i < len(b) {
		return p.fail(errAfter, p.i)
	}
	if kind != kObject {
		p.r = reason{code: errNotObject, kind: kind}
		return -1
	}
	if p.surr > 0 {
		p.r = reason{code: errSurrogate, col: p.surr}
		return -1
	}
	return p.check()
}

// check applies P4's rules to the fields of a syntactically valid object.
func (p *parser) check() int {
	ft, fx := &p.f[fType], &p.f[fText]
	if r, bad := p.checkString(fType); bad {
		p.r = r
		return -1
	}
	typ := lookupType(string(p.value1(ft)))
	if typ < 0 {
		p.r = reason{code: errUnknownType, start: ft.start, end: ft.end}
		return -1
	}
	if r, bad := p.checkString(fText); bad {
		p.r = r
		return -1
	}
	if fx.start == fx.end {
		p.r = reason{code: errEmptyText}
		return -1
	}
	if f := &p.f[fProject]; f.bad != 0 {
		p.r = reason{code: errWrongType, field: fProject, kind: f.bad, count: f.n}
		return -1
	} else if f.n == 0 && typ != typeUser {
		p.r = reason{code: errMissingProj, typ: typ}
		return -1
	}
	if f := &p.f[fCreatedAt]; f.bad != 0 {
		p.r = reason{code: errWrongType, field: fCreatedAt, kind: f.bad, count: f.n}
		return -1
	} else if f.n > 0 && !validRFC3339(p.value1(f)) {
		p.r = reason{code: errBadCreatedAt, start: f.start, end: f.end}
		return -1
	}
	return typ
}

// checkString reports a required field that is missing or not a string.
func (p *parser) checkString(fi int) (reason, bool) {
	f := &p.f[fi]
	if f.n == 0 {
		return reason{code: errMissing, field: fi}, true
	}
	if f.bad != 0 {
		return reason{code: errWrongType, field: fi, kind: f.bad, count: f.n}, true
	}
	return reason{}, false
}

// value1 returns the decoded value of a string field, in place when it has
// no escapes, else in p.tmp (valid until the next call).
func (p *parser) value1(f *field) []byte {
	raw := p.b[f.start:f.end]
	if !f.esc {
		return raw
	}
	p.tmp = appendUnescaped(p.tmp[:0], raw)
	return p.tmp
}

func (p *parser) fail(c code, at int) int {
	p.r = reason{code: c, col: at + 1}
	return -1
}

// failb is fail for the recursive descent, which returns bool.
func (p *parser) failb(c code, at int) bool {
	if at >= len(p.b) {
		c = errEOF
		at = len(p.b)
	}
	p.fail(c, at)
	return false
}

func (p *parser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value checks one JSON value at p.i and returns its kind.
func (p *parser) value() (byte, bool) {
	if p.i >= len(p.b) {
		return 0, p.failb(errEOF, p.i)
	}
	switch c := p.b[p.i]; {
	case c == '"':
		var ok bool
		p.esc, ok = p.str()
		return kString, ok
	case c == '{':
		return kObject, p.object(false)
	case c == '[':
		return kArray, p.array()
	case c == 't':
		return kBool, p.lit("true")
	case c == 'f':
		return kBool, p.lit("false")
	case c == 'n':
		return kNull, p.lit("null")
	case c == '-' || '0' <= c && c <= '9':
		return kNumber, p.number()
	}
	return 0, p.failb(errChar, p.i)
}

// object checks an object at p.i; top records the known fields.
func (p *parser) object(top bool) bool {
	p.depth++
	if p.depth > maxDepth {
		return p.failb(errDepth, p.i)
	}
	p.i++ // {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		p.depth--
		return true
	}
	for {
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return p.failb(errChar, p.i)
		}
		ks := p.i + 1
		esc, ok := p.str()
		if !ok {
			return false
		}
		ke := p.i - 1
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return p.failb(errChar, p.i)
		}
		p.i++
		p.ws()
		fi := -1
		if top {
			fi = p.known(ks, ke, esc)
		}
		vs := p.i
		kind, ok := p.value()
		if !ok {
			return false
		}
		if fi >= 0 {
			f := &p.f[fi]
			f.n++
			if kind != kString {
				if f.bad == 0 {
					f.bad = kind
				}
			} else {
				f.start, f.end, f.esc = vs+1, p.i-1, p.esc
			}
		}
		p.ws()
		if p.i >= len(p.b) {
			return p.failb(errEOF, p.i)
		}
		switch p.b[p.i] {
		case ',':
			p.i++
			p.ws()
		case '}':
			p.i++
			p.depth--
			return true
		default:
			return p.failb(errChar, p.i)
		}
	}
}

// known maps a key's raw contents to a field index, or -1.
func (p *parser) known(ks, ke int, esc bool) int {
	k := p.b[ks:ke]
	if esc {
		p.tmp = appendUnescaped(p.tmp[:0], k)
		k = p.tmp
	}
	switch string(k) {
	case "type":
		return fType
	case "text":
		return fText
	case "project":
		return fProject
	case "created_at":
		return fCreatedAt
	}
	return -1
}

func (p *parser) array() bool {
	p.depth++
	if p.depth > maxDepth {
		return p.failb(errDepth, p.i)
	}
	p.i++ // [
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		p.depth--
		return true
	}
	for {
		if _, ok := p.value(); !ok {
			return false
		}
		p.ws()
		if p.i >= len(p.b) {
			return p.failb(errEOF, p.i)
		}
		switch p.b[p.i] {
		case ',':
			p.i++
			p.ws()
		case ']':
			p.i++
			p.depth--
			return true
		default:
			return p.failb(errChar, p.i)
		}
	}
}

func (p *parser) lit(s string) bool {
	for j := 0; j < len(s); j++ {
		if p.i+j >= len(p.b) || p.b[p.i+j] != s[j] {
			return p.failb(errChar, p.i+j)
		}
	}
	p.i += len(s)
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func (p *parser) number() bool {
	b, i := p.b, p.i
	if b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return p.failb(errEOF, i)
	case b[i] == '0':
		i++
	case '1' <= b[i] && b[i] <= '9':
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return p.failb(errChar, i)
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return p.failb(errChar, i)
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return p.failb(errChar, i)
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	p.i = i
	return true
}

// str checks a string at p.i (the opening quote) and reports whether it
// contains an escape. An unpaired surrogate escape is noted in p.surr, not
// failed, so that a later syntax error still wins.
func (p *parser) str() (esc, ok bool) {
	b := p.b
	p.i++
	for {
		// Eight bytes at a time while none of them is '"', '\\' or a
		// control character, then byte by byte.
		for p.i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[p.i:])
			if hasZeroByte(x^quotes)|hasZeroByte(x^backslashes)|hasLessThan20(x) != 0 {
				break
			}
			p.i += 8
		}
		for p.i < len(b) && strSafe[b[p.i]] {
			p.i++
		}
		if p.i >= len(b) {
			return esc, p.failb(errEOF, p.i)
		}
		switch c := b[p.i]; {
		case c == '"':
			p.i++
			return esc, true
		case c < 0x20:
			return esc, p.failb(errCtl, p.i)
		}
		// A backslash.
		esc = true
		if p.i+1 >= len(b) {
			return esc, p.failb(errEOF, p.i+1)
		}
		switch b[p.i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			p.i += 2
		case 'u':
			at := p.i
			r, ok := p.hex4(p.i + 2)
			if !ok {
				return esc, false
			}
			p.i += 6
			switch {
			case 0xD800 <= r && r < 0xDC00:
				if p.i+1 < len(b) && b[p.i] == '\\' && b[p.i+1] == 'u' {
					r2, ok := p.hex4(p.i + 2)
					if !ok {
						return esc, false
					}
					if 0xDC00 <= r2 && r2 < 0xE000 {
						p.i += 6
						continue
					}
				}
				p.surrogate(at)
			case 0xDC00 <= r && r < 0xE000:
				p.surrogate(at)
			}
		default:
			return esc, p.failb(errEscape, p.i+1)
		}
	}
}

func (p *parser) surrogate(at int) {
	if p.surr == 0 {
		p.surr = at + 1
	}
}

// hex4 reads four hex digits at b[j:].
func (p *parser) hex4(j int) (rune, bool) {
	var r rune
	for k := j; k < j+4; k++ {
		if k >= len(p.b) {
			return 0, p.failb(errEOF, k)
		}
		c := p.b[k]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, p.failb(errEscape, k)
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func unhex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// appendUnescaped appends the decoded value of raw string contents that the
// parser has checked. An unpaired surrogate becomes U+FFFD, as in
// encoding/json (such lines are rejected anyway; quoteRaw may still see one).
func appendUnescaped(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			j := i + 1
			for j < len(raw) && raw[j] != '\\' {
				j++
			}
			dst = append(dst, raw[i:j]...)
			i = j
			continue
		}
		switch raw[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := unhex4(raw[i+2:])
			i += 6
			if 0xD800 <= r && r < 0xDC00 && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
				if r2 := unhex4(raw[i+2:]); 0xDC00 <= r2 && r2 < 0xE000 {
					r = (r-0xD800)<<10 | (r2 - 0xDC00) + 0x10000
					i += 6
				}
			}
			if 0xD800 <= r && r < 0xE000 {
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default: // " \ /
			dst = append(dst, raw[i+1])
		}
		i += 2
	}
	return dst
}

// validRFC3339 reports whether s is an RFC 3339 §5.6 date-time that Go's
// time.Parse(time.RFC3339, s) also accepts (see the package doc).
func validRFC3339(s []byte) bool {
	// 2006-01-02T15:04:05 is 19 bytes; the shortest offset is Z.
	if len(s) < 20 {
		return false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range s[i : i+n] {
			if !isDigit(c) {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	year, month, day := num(0, 4), num(5, 2), num(8, 2)
	hour, minute, sec := num(11, 2), num(14, 2), num(17, 2)
	if s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
		year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) ||
		hour < 0 || hour > 23 || minute < 0 || minute > 59 || sec < 0 || sec > 59 {
		return false
	}
	i := 19
	if s[i] == '.' {
		i++
		j := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == j {
			return false
		}
	}
	rest := s[i:]
	if len(rest) == 1 {
		return rest[0] == 'Z'
	}
	if len(rest) != 6 || rest[0] != '+' && rest[0] != '-' || rest[3] != ':' {
		return false
	}
	oh, om := num(i+1, 2), num(i+4, 2)
	return oh >= 0 && oh <= 23 && om >= 0 && om <= 59
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// ParseLine checks one line given without its newline (a trailing CR is
// dropped) and returns its entry. The error's text is the Problem reason; a
// blank line is an error here ("blank line") although Select skips it.
func ParseLine(b []byte) (Entry, error) {
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	if len(b) > MaxLineBytes {
		r := reason{code: errTooLong, n: len(b)}
		return Entry{}, errors.New(r.format(b))
	}
	var p parser
	typ := p.parse(b)
	if typ < 0 {
		return Entry{}, errors.New(p.r.format(b))
	}
	e := Entry{
		Type: typeNames[typ],
		Text: string(p.value1(&p.f[fText])),
	}
	if p.f[fProject].n > 0 {
		e.Project = string(p.value1(&p.f[fProject]))
	}
	if p.f[fCreatedAt].n > 0 {
		e.CreatedAt = string(p.value1(&p.f[fCreatedAt]))
	}
	return e, nil
}
