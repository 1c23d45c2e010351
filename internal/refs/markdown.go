package refs

import (
	"bytes"
	"net/url"
	"path"
	"sort"
	"strings"
)

// MaxText is how much of a file Extract reads; the rest is ignored. An
// instruction layer is at most max_file_bytes (32 KiB unless configured),
// so the cap only bounds hostile input.
const MaxText = 1 << 20

// MaxRefs is how many references Extract returns at most; a real
// instruction file makes a few hundred.
const MaxRefs = 10000

// maxLinkTail bounds the "(destination title)" part of an inline link,
// so a paragraph of unclosed "[x](" costs linear time, not quadratic.
const maxLinkTail = 1024

// Extract returns the references text makes, in the order they appear.
// It never fails: what it cannot read as a reference is not one.
func Extract(text []byte) []Ref {
	if len(text) > MaxText {
		text = text[:MaxText]
	}
	x := &extractor{text: text}
	x.scan()
	sort.SliceStable(x.refs, func(i, j int) bool { return x.refs[i].Offset < x.refs[j].Offset })
	return x.refs
}

type span struct{ s, e int }

type fence struct {
	char   byte
	n      int
	indent int
	quotes int
	shell  bool
	lines  []span
}

type extractor struct {
	text      []byte
	refs      []Ref
	lineStart []int // offsets where lines start, for Line and Col
	inComment bool
}

func (x *extractor) add(r Ref) {
	if len(x.refs) >= MaxRefs {
		return
	}
	line := sort.Search(len(x.lineStart), func(i int) bool { return x.lineStart[i] > r.Offset })
	r.Line = line
	r.Col = r.Offset - x.lineStart[line-1] + 1
	x.refs = append(x.refs, r)
}

func (x *extractor) scan() {
	t := x.text
	x.lineStart = append(x.lineStart, 0)
	for i, c := range t {
		if c == '\n' {
			x.lineStart = append(x.lineStart, i+1)
		}
	}
	var f *fence
	para := span{-1, -1}
	flush := func() {
		if para.s >= 0 {
			x.block(para.s, para.e)
		}
		para = span{-1, -1}
	}
	for _, ls := range x.lineStart {
		if ls == len(t) && ls > 0 {
			break
		}
		le := ls + bytes.IndexByte(t[ls:], '\n')
		if le < ls {
			le = len(t)
		}
		s := ls
		if x.inComment {
			i := bytes.Index(t[s:le], []byte("-->"))
			if i < 0 {
				continue
			}
			x.inComment = false
			s += i + 3
		}
		body, quotes := stripQuotes(t, s, le)
		if f != nil {
			if f.quotes <= quotes && closesFence(t[body:le], f) {
				x.fenced(f)
				f = nil
				continue
			}
			f.lines = append(f.lines, span{body, trimCR(t, body, le)})
			continue
		}
		if nf := opensFence(t, body, le); nf != nil {
			flush()
			nf.quotes = quotes
			f = nf
			continue
		}
		if isBlank(t[body:le]) {
			flush()
			continue
		}
		if para.s < 0 {
			para.s = s
		}
		para.e = le
	}
	flush()
	if f != nil {
		x.fenced(f) // an unclosed fence runs to the end of the file
	}
}

func trimCR(t []byte, s, e int) int {
	if e > s && t[e-1] == '\r' {
		return e - 1
	}
	return e
}

func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// stripQuotes skips blockquote markers (">" with an optional space) and
// returns where the line's content starts and how many markers it had.
func stripQuotes(t []byte, s, e int) (int, int) {
	n := 0
	for {
		i := s
		for i < e && i-s < 4 && t[i] == ' ' {
			i++
		}
		if i < e && t[i] == '>' {
			i++
			if i < e && t[i] == ' ' {
				i++
			}
			s = i
			n++
			continue
		}
		return s, n
	}
}

// opensFence reads a fence's opening line. Any indentation is accepted:
// fences inside list items are indented by the item's margin.
func opensFence(t []byte, s, e int) *fence {
	i := s
	for i < e && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	if i >= e || (t[i] != '`' && t[i] != '~') {
		return nil
	}
	c := t[i]
	j := i
	for j < e && t[j] == c {
		j++
	}
	if j-i < 3 {
		return nil
	}
	info := strings.TrimSpace(string(t[j:trimCR(t, j, e)]))
	if c == '`' && strings.ContainsRune(info, '`') {
		return nil
	}
	return &fence{char: c, n: j - i, indent: i - s, shell: shellInfo(info)}
}

func closesFence(line []byte, f *fence) bool {
	l := bytes.TrimLeft(line, " \t")
	n := 0
	for n < len(l) && l[n] == f.char {
		n++
	}
	return n >= f.n && isBlank(l[n:])
}

// shellLanguages are the info strings of fences whose lines are read as
// commands, with the unlabelled fence; every other language (go, yaml,
// makefile, json, text, …) is not.
var shellLanguages = map[string]bool{
	"sh": true, "bash": true, "shell": true, "zsh": true, "fish": true, "ksh": true,
	"console": true, "terminal": true, "shell-session": true, "shellsession": true,
	"sh-session": true, "bash-session": true, "session": true,
	"powershell": true, "pwsh": true, "ps1": true, "ps": true, "cmd": true, "bat": true, "batch": true,
}

func shellInfo(info string) bool {
	if info == "" {
		return true
	}
	lang := info
	if i := strings.IndexAny(lang, " \t{,"); i >= 0 {
		lang = lang[:i]
	}
	lang = strings.TrimPrefix(strings.TrimSuffix(lang, "}"), "{")
	lang = strings.TrimPrefix(lang, ".")
	if lang == "" {
		return true
	}
	return shellLanguages[strings.ToLower(lang)]
}

func (x *extractor) fenced(f *fence) {
	if !f.shell {
		return
	}
	x.shell(f.lines, false)
}

// block reads one paragraph-like run of non-blank lines: reference
// definitions line by line, then links and code spans inline.
func (x *extractor) block(s, e int) {
	t := x.text
	from := s
	for ls := s; ls < e; {
		le := ls + bytes.IndexByte(t[ls:e], '\n')
		if le < ls {
			le = e
		}
		if x.definition(ls, le) {
			if from < ls {
				if !x.inline(from, ls) {
					return
				}
			}
			from = le + 1
		}
		ls = le + 1
	}
	if from < e {
		x.inline(from, e)
	}
}

// definition reads a link reference definition "[label]: destination"
// (up to three spaces of indent; not a footnote "[^1]:").
func (x *extractor) definition(s, e int) bool {
	t := x.text
	body, _ := stripQuotes(t, s, e)
	i := body
	for i < e && i-body < 3 && t[i] == ' ' {
		i++
	}
	if i >= e || t[i] != '[' || (i+1 < e && t[i+1] == '^') {
		return false
	}
	j := i + 1
	for j < e && t[j] != ']' {
		if t[j] == '[' {
			return false
		}
		if t[j] == '\\' {
			j++
		}
		j++
	}
	if j >= e || j == i+1 || j+1 >= e || t[j+1] != ':' {
		return false
	}
	k := j + 2
	for k < e && (t[k] == ' ' || t[k] == '\t') {
		k++
	}
	if k >= e {
		return false
	}
	ds, de, end, ok := destination(t, k, e)
	if !ok {
		return false
	}
	rest := bytes.TrimSpace(t[end:trimCR(t, end, e)])
	if len(rest) > 0 && rest[0] != '"' && rest[0] != '\'' && rest[0] != '(' {
		return false
	}
	x.link(ds, de)
	return true
}

// destination reads a link destination at i: "<...>" or a run without
// spaces or control characters whose parentheses balance. It returns the
// target's bytes (without the angle brackets) and where it ends.
func destination(t []byte, i, e int) (ds, de, end int, ok bool) {
	if i < e && t[i] == '<' {
		for j := i + 1; j < e && j-i < maxLinkTail; j++ {
			switch t[j] {
			case '\\':
				j++
			case '\n', '<':
				return 0, 0, 0, false
			case '>':
				return i + 1, j, j + 1, true
			}
		}
		return 0, 0, 0, false
	}
	depth := 0
	j := i
	for ; j < e && j-i < maxLinkTail; j++ {
		c := t[j]
		if c <= ' ' || c == 0x7f {
			break
		}
		if c == '\\' && j+1 < e && isPunct(t[j+1]) {
			j++
			continue
		}
		if c == '(' {
			depth++
			if depth > 32 {
				return 0, 0, 0, false
			}
		}
		if c == ')' {
			if depth == 0 {
				break
			}
			depth--
		}
	}
	if depth != 0 || j-i >= maxLinkTail {
		return 0, 0, 0, false
	}
	return i, j, j, true
}

func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// inlineLink reads "(destination "title")" after a link's "]"; it
// returns the destination's bytes and where the link ends.
func inlineLink(t []byte, i, e int) (ds, de, end int, ok bool) {
	limit := min(e, i+maxLinkTail)
	j := skipSpace(t, i+1, limit)
	if j < limit && t[j] == ')' {
		return j, j, j + 1, true
	}
	ds, de, j, ok = destination(t, j, limit)
	if !ok {
		return 0, 0, 0, false
	}
	j = skipSpace(t, j, limit)
	if j < limit && (t[j] == '"' || t[j] == '\'' || t[j] == '(') {
		closer := t[j]
		if closer == '(' {
			closer = ')'
		}
		j++
		for j < limit && t[j] != closer {
			if t[j] == '\\' {
				j++
			}
			j++
		}
		if j >= limit {
			return 0, 0, 0, false
		}
		j = skipSpace(t, j+1, limit)
	}
	if j >= limit || t[j] != ')' {
		return 0, 0, 0, false
	}
	return ds, de, j + 1, true
}

func skipSpace(t []byte, i, e int) int {
	for i < e && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r') {
		i++
	}
	return i
}

// inline reads the links and code spans of t[s:e]. It returns false when
// an HTML comment opens and does not close in the block: the lines up to
// its end are not read.
func (x *extractor) inline(s, e int) bool {
	t := x.text
	spans := codeSpans(t, s, e)
	match := brackets(t, s, e, spans)
	si := 0
	for i := s; i < e; {
		if si < len(spans) && i == spans[si].s {
			x.codeSpan(spans[si])
			i = spans[si].e
			si++
			continue
		}
		c := t[i]
		switch {
		case c == '\\' && i+1 < e && isPunct(t[i+1]):
			i += 2
			continue
		case c == '<' && bytes.HasPrefix(t[i:e], []byte("<!--")):
			j := bytes.Index(t[i+4:e], []byte("-->"))
			if j < 0 {
				x.inComment = true
				return false
			}
			i += 4 + j + 3
			for si < len(spans) && spans[si].s < i {
				si++
			}
			continue
		case c == '[':
			if m, ok := match[i]; ok && m+1 < e && t[m+1] == '(' {
				if ds, de, end, ok := inlineLink(t, m+1, e); ok {
					x.link(ds, de)
					i = end
					for si < len(spans) && spans[si].s < i {
						si++
					}
					continue
				}
			}
		}
		i++
	}
	return true
}

// codeSpans finds the code spans of t[s:e]: a run of n backticks up to
// the next run of exactly n (CommonMark 6.1). The spans are the whole
// runs, backticks included; runs are indexed by length, so many unmatched
// runs cost linear time.
func codeSpans(t []byte, s, e int) []span {
	type run struct{ s, n int }
	var runs []run
	for i := s; i < e; {
		if t[i] == '\\' && i+1 < e {
			i += 2 // an escaped backtick opens nothing
			continue
		}
		if t[i] != '`' {
			i++
			continue
		}
		j := i
		for j < e && t[j] == '`' {
			j++
		}
		runs = append(runs, run{i, j - i})
		i = j
	}
	byLen := map[int][]int{}
	for k, r := range runs {
		byLen[r.n] = append(byLen[r.n], k)
	}
	next := map[int]int{} // per length, how far its list has been used
	var out []span
	for k := 0; k < len(runs); k++ {
		r := runs[k]
		list := byLen[r.n]
		p := next[r.n]
		for p < len(list) && list[p] <= k {
			p++
		}
		next[r.n] = p
		if p == len(list) {
			continue
		}
		closer := runs[list[p]]
		out = append(out, span{r.s, closer.s + closer.n})
		k = list[p]
	}
	return out
}

// brackets matches "[" with "]" outside code spans and escapes.
func brackets(t []byte, s, e int, spans []span) map[int]int {
	match := map[int]int{}
	var stack []int
	si := 0
	for i := s; i < e; i++ {
		if si < len(spans) && i == spans[si].s {
			i = spans[si].e - 1
			si++
			continue
		}
		switch t[i] {
		case '\\':
			i++
		case '[':
			stack = append(stack, i)
		case ']':
			if n := len(stack); n > 0 {
				match[stack[n-1]] = i
				stack = stack[:n-1]
			}
		}
	}
	return match
}

// codeSpan reads one code span: a path when it holds one path-like
// token, else the commands it holds.
func (x *extractor) codeSpan(sp span) {
	t := x.text
	n := 0
	for sp.s+n < sp.e && t[sp.s+n] == '`' {
		n++
	}
	cs, ce := sp.s+n, sp.e-n
	for cs < ce && isSpace(t[cs]) {
		cs++
	}
	for ce > cs && isSpace(t[ce-1]) {
		ce--
	}
	if cs >= ce {
		return
	}
	if !bytes.ContainsAny(t[cs:ce], " \t\r\n") {
		if n, ok := pathToken(string(t[cs:ce])); ok {
			x.add(Ref{Kind: Path, Target: string(t[cs : cs+n]), Offset: cs, End: cs + n})
		}
		return
	}
	x.shell([]span{{cs, ce}}, true)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// link reads a link destination: relative targets only (no scheme, not
// protocol-relative, not only an anchor), with the anchor and query cut
// and the rest URL-decoded.
func (x *extractor) link(ds, de int) {
	raw := string(x.text[ds:de])
	if i := strings.IndexAny(raw, "#?"); i >= 0 {
		raw = raw[:i]
		de = ds + i
	}
	if raw == "" || hasScheme(raw) || strings.HasPrefix(raw, "//") || strings.HasPrefix(raw, `\`) {
		return
	}
	target := unescapeMarkdown(raw)
	if dec, err := url.PathUnescape(target); err == nil {
		target = dec
	}
	if target == "" || strings.ContainsAny(target, "\x00\n\r<>") || strings.Contains(target, "{{") ||
		strings.Contains(target, "${") || strings.HasPrefix(target, "~") || strings.HasPrefix(target, "$") {
		return
	}
	if strings.HasPrefix(target, "/") && !strings.HasSuffix(target, "/") && !hasExtension(path.Base(target)) {
		return // "/production": a documentation site's route, not a file of the repository
	}
	x.add(Ref{Kind: Link, Target: target, Offset: ds, End: de})
}

// hasScheme reports a URI scheme ("https:", "mailto:", "vscode:"); one
// letter before the colon is a Windows drive, not relative either.
func hasScheme(s string) bool {
	for i := 0; i < len(s) && i < 33; i++ {
		c := s[i]
		switch {
		case c == ':':
			return i > 0
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'):
		default:
			return false
		}
	}
	return false
}

func unescapeMarkdown(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
