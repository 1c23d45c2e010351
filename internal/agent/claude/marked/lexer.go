// Package marked is the Markdown lexer Claude Code 2.1.328 runs over an instruction file that
// holds "<!--" (to drop its block-level HTML comments) or "@" (to find its
// imports): a marked-compatible lexer of its own (gfm off), with a patch
// that tries setext headings only where an underline can be reached. What
// the comment pass keeps and which texts the import scan reads depend on
// exactly where this lexer puts token boundaries, including its quirks
// (a link reference definition is dropped, a lazy blockquote line is lexed
// again), so it is ported function by function, on UTF-16 code units; the
// original's names are given where a function ports one, for the next pin
// move. inline.go holds the inline half.
package marked

import (
	"slices"
	"unicode"

	"github.com/rivumi/rivumi-lint/internal/agent/claude/jsstring"
)

type mdToken struct {
	typ    string
	raw    jsstring.String
	text   jsstring.String
	tokens []*mdToken
	items  []*mdToken
	tag    string // def: the normalised label
	// ownRaw and ownText say raw and text are buffers of the token's own,
	// which a merge may grow in place: JavaScript's += is cheap, a copy
	// per merged line made a long list item quadratic.
	ownRaw, ownText bool
}

func (t *mdToken) addRaw(parts ...jsstring.String) {
	t.raw = grow(t.raw, &t.ownRaw, parts)
}

func (t *mdToken) addText(parts ...jsstring.String) {
	t.text = grow(t.text, &t.ownText, parts)
}

func grow(b jsstring.String, own *bool, parts []jsstring.String) jsstring.String {
	if !*own {
		n := len(b)
		for _, p := range parts {
			n += len(p)
		}
		c := make(jsstring.String, len(b), 2*n+16)
		copy(c, b)
		b, *own = c, true
	}
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// mdLexer is one lex of one file (the original's Wze with CFn and AFn).
type mdLexer struct {
	links map[string]bool
	// inLink is the state a link's text is lexed in; with gfm off nothing
	// reads it (bare URLs are gfm), it is kept as the original keeps it.
	inLink        bool
	top           bool
	noSetextUntil int
	queue         []mdInline
	notes         *mdNotes
	lexed         []mdLexed
}

type mdInline struct {
	text  jsstring.String
	owner *mdToken
}

// mdLexed is one blockTokens text and the positions (as lengths of what
// is left) from which a setext underline can be reached (AFn).
type mdLexed struct {
	text    jsstring.String
	inReach map[int]bool
}

// mdFrame is one blockTokens or inlineTokens call in progress (#r).
type mdFrame struct {
	text            jsstring.String
	rest            jsstring.String
	tokens          *[]*mdToken
	last            *mdToken
	tried           int
	method          string
	isParagraphOpen bool
	before          jsstring.String
	mask            jsstring.String
	maskSet         bool
	outerNotes      *mdNotes
	outerNoSetext   int
}

// mdLex lexes src as Ydt does: line ends normalised, block tokens, then
// the inline tokens of every text they queued.
func mdLex(src jsstring.String) []*mdToken {
	lx := &mdLexer{links: map[string]bool{}, top: true, noSetextUntil: jsstring.Inf, notes: newMdNotes()}
	norm := make(jsstring.String, 0, len(src))
	for i := 0; i < len(src); i++ {
		if src[i] == '\r' {
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			norm = append(norm, '\n')
			continue
		}
		norm = append(norm, src[i])
	}
	var toks []*mdToken
	lx.blockTokens(norm, &toks, false)
	for i := 0; i < len(lx.queue); i++ {
		q := lx.queue[i]
		q.owner.tokens = lx.inlineTokens(q.text, nil)
	}
	lx.queue = nil
	return toks
}

func (lx *mdLexer) frame(text jsstring.String, tokens *[]*mdToken, paragraphOpen bool) *mdFrame {
	f := &mdFrame{text: text, rest: text, tokens: tokens, tried: 0, method: "text", isParagraphOpen: paragraphOpen,
		outerNotes: lx.notes, outerNoSetext: lx.noSetextUntil}
	if n := len(*tokens); n > 0 {
		f.last = (*tokens)[n-1]
	}
	lx.notes = newMdNotes()
	lx.noSetextUntil = jsstring.Inf
	return f
}

// blockTokens is AFn.blockTokens (the reach of setext underlines) around
// Wze.blockTokens.
func (lx *mdLexer) blockTokens(e jsstring.String, tokens *[]*mdToken, paragraphOpen bool) []*mdToken {
	reach := map[int]bool{}
	h := -1
	if mdHasUnderlineLine(e) {
		h = len(e)
	}
	y := false
	for h >= 0 {
		k := 0
		if h != 0 {
			k = jsstring.LastIndexOfUnit(e, '\n', h-1) + 1
		}
		line := e[k:h]
		if y {
			reach[len(e)-k] = true
		}
		y = mdUnderlineLine(line) || y && !mdNoLazy(line)
		h = k - 1
	}
	lx.lexed = append(lx.lexed, mdLexed{text: e, inReach: reach})
	defer func() { lx.lexed = lx.lexed[:len(lx.lexed)-1] }()

	f := lx.frame(e, tokens, paragraphOpen)
	var tok *mdToken
	for lx.blockStep(f, tok) {
		switch f.method {
		case "blockquote":
			tok = lx.blockquote(f.rest)
		case "list":
			tok = lx.list(f.rest)
		}
	}
	lx.noSetextUntil = f.outerNoSetext
	lx.top = true
	return *f.tokens
}

// mdUnderlineLine is OJr: /^ {0,3}(?:=+|-+) *$/ on one line.
func mdUnderlineLine(l jsstring.String) bool {
	i := 0
	for i < 3 && jsstring.At(l, i) == ' ' {
		i++
	}
	c := jsstring.At(l, i)
	if c != '=' && c != '-' {
		return false
	}
	for jsstring.At(l, i) == c {
		i++
	}
	for jsstring.At(l, i) == ' ' {
		i++
	}
	return i == len(l)
}

// mdHasUnderlineLine is DJr: OJr with the m flag, on every line (its ^
// and $ also meet U+2028, U+2029 and CR).
func mdHasUnderlineLine(e jsstring.String) bool {
	start := 0
	for i := 0; i <= len(e); i++ {
		if i == len(e) || jsstring.IsLineEnd(int(e[i])) {
			if mdUnderlineLine(e[start:i]) {
				return true
			}
			start = i + 1
		}
	}
	return false
}

// mdNoLazy is LJr: a line that cannot continue a paragraph.
func mdNoLazy(l jsstring.String) bool {
	// \s*$
	i := 0
	for i < len(l) && jsstring.IsSpace(int(l[i])) {
		i++
	}
	if i == len(l) {
		return true
	}
	// (?:[*+-]|\d{1,9}[.)]) followed by a space
	if c := jsstring.At(l, 0); (c == '*' || c == '+' || c == '-') && jsstring.At(l, 1) == ' ' {
		return true
	}
	if n := digitRun(l, 0); n >= 1 && n <= 9 && (jsstring.At(l, n) == '.' || jsstring.At(l, n) == ')') && jsstring.At(l, n+1) == ' ' {
		return true
	}
	// (?: {4}| {0,3}\t)
	sp := 0
	for sp < len(l) && l[sp] == ' ' {
		sp++
	}
	if sp >= 4 || jsstring.At(l, sp) == '\t' {
		return true
	}
	s3 := min(sp, 3)
	if sp <= 3 {
		// {0,3}(?:`{3,}|~{3,}) | {0,3}> | {0,3}#{1,6}
		c := jsstring.At(l, s3)
		if (c == '`' || c == '~') && jsstring.At(l, s3+1) == c && jsstring.At(l, s3+2) == c {
			return true
		}
		if c == '>' || c == '#' {
			return true
		}
		// {0,3}<[^\n>]+>$
		if c == '<' && len(l) > s3+2 && l[len(l)-1] == '>' {
			ok := true
			for _, u := range l[s3+1 : len(l)-1] {
				if u == '\n' || u == '>' {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
	}
	// .*[\u2028\u2029]
	for _, u := range l {
		if u == '\n' || u == '\r' {
			break
		}
		if u == 0x2028 || u == 0x2029 {
			return true
		}
	}
	return false
}

func digitRun(e jsstring.String, i int) int {
	n := 0
	for jsstring.IsASCIIDigit(jsstring.At(e, i+n)) {
		n++
	}
	return n
}

// blockStep is Wze.#i: it takes the token the last tokenizer made (merged
// or pushed), then tries the tokenizers for what follows until one makes a
// token; a blockquote or a list is left to the caller (whose tokenizer
// lexes blocks inside it). It reports whether the caller has one to make.
func (lx *mdLexer) blockStep(f *mdFrame, k *mdToken) bool {
	r, h, g, y := f.rest, f.tried, f.method, f.last
	for {
		if k != nil {
			d := ""
			if y != nil {
				d = y.typ
			}
			switch {
			case g == "space" && y != nil && len(k.raw) == 1:
				y.addRaw(nl)
			case (g == "code" || g == "def") && (d == "paragraph" || d == "text"),
				g != "code" && g != "def" && g == d && (g == "text" || g == "paragraph" && f.isParagraphOpen):
				t := k.text
				if t == nil {
					t = k.raw
				}
				lx.merge(y, k.raw, t)
			case g != "def":
				*f.tokens = append(*f.tokens, k)
				y = k
			default:
				lx.links[k.tag] = true
			}
			f.isParagraphOpen = f.isParagraphOpen && g != "paragraph"
			if len(k.raw) == 0 {
				// The original would loop for ever; no tokenizer makes an
				// empty token, this only guards the port.
				return false
			}
			r = r[min(len(k.raw), len(r)):]
			h = 0
		}
		if len(r) == 0 {
			return false
		}
		methods := mdBlockMethods(jsstring.At(r, skip3(r, 0)))
		k = nil
		for k == nil {
			if h >= len(methods) {
				panic(errMdStoppedShort)
			}
			g = methods[h]
			h++
			if g == "blockquote" || g == "list" {
				f.rest, f.tried, f.method, f.last = r, h, g, y
				return true
			}
			if g != "paragraph" || lx.top {
				k = lx.blockTokenizer(g, r)
			}
		}
	}
}

// errMdStoppedShort is the original's "Markdown lexing stopped short":
// Claude Code then reads the file as failed and skips it.
var nl = jsstring.String{'\n'}

var errMdStoppedShort = mdError("Markdown lexing stopped short")

type mdError string

func (e mdError) Error() string { return string(e) }

// mdBlockMethods is LS: the tokenizers tried by the first character after
// up to three spaces (-1 at the end).
func mdBlockMethods(c int) []string {
	switch c {
	case -1, '\n':
		return []string{"space", "table", "lheading", "paragraph", "text"}
	case ' ', '\t':
		return []string{"space", "code", "table", "lheading", "paragraph", "text"}
	case '`', '~':
		return []string{"fences", "table", "lheading", "paragraph", "text"}
	case '#':
		return []string{"heading", "table", "lheading", "paragraph", "text"}
	case '_':
		return []string{"hr", "table", "lheading", "paragraph", "text"}
	case '-', '*':
		return []string{"hr", "list", "table", "lheading", "paragraph", "text"}
	case '+', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return []string{"list", "table", "lheading", "paragraph", "text"}
	case '>':
		return []string{"blockquote", "table", "lheading", "paragraph", "text"}
	case '<':
		return []string{"html", "table", "lheading", "paragraph", "text"}
	case '[':
		return []string{"def", "table", "lheading", "paragraph", "text"}
	}
	return []string{"table", "lheading", "paragraph", "text"}
}

func (lx *mdLexer) blockTokenizer(g string, e jsstring.String) *mdToken {
	switch g {
	case "space":
		if n := mdSpace(e); n > 0 {
			return &mdToken{typ: "space", raw: e[:n]}
		}
	case "code":
		if n := mdIndented(e); n > 0 {
			return mdCodeToken(e[:n])
		}
	case "fences":
		if n := mdFences(e); n > 0 {
			return &mdToken{typ: "code", raw: e[:n]}
		}
	case "heading":
		if n := mdHeading(e); n > 0 {
			return lx.headingToken(e[:n])
		}
	case "hr":
		if n := mdHR(e, 0); n > 0 {
			raw := e[:n]
			for len(raw) > 0 && raw[len(raw)-1] == '\n' {
				raw = raw[:len(raw)-1]
			}
			return &mdToken{typ: "hr", raw: raw}
		}
	case "html":
		if n := mdHTMLBlock(e); n > 0 {
			return &mdToken{typ: "html", raw: e[:n], text: e[:n]}
		}
	case "def":
		return mdDef(e)
	case "table":
		return nil // gfm only
	case "lheading":
		return lx.lheading(e)
	case "paragraph":
		if n := mdParagraphEnd(e, 0); n > 0 {
			t := &mdToken{typ: "paragraph", raw: e[:n], text: e[:n]}
			lx.inline(t.text, t)
			return t
		}
	case "text":
		n := 0
		for n < len(e) && e[n] != '\n' {
			n++
		}
		if n > 0 {
			t := &mdToken{typ: "text", raw: e[:n], text: e[:n]}
			lx.inline(t.text, t)
			return t
		}
	}
	return nil
}

// inline queues text's inline lexing for after the blocks (Wze.inline).
func (lx *mdLexer) inline(text jsstring.String, owner *mdToken) {
	lx.queue = append(lx.queue, mdInline{text: text, owner: owner})
}

// merge is Wze.#l: a token continues the last one.
func (lx *mdLexer) merge(y *mdToken, raw, text jsstring.String) {
	y.addRaw(nl, raw)
	y.addText(nl, text)
	for i := len(lx.queue) - 1; i >= 0; i-- {
		if lx.queue[i].owner == y {
			lx.queue = lx.queue[:i+1]
			lx.queue[i].text = y.text
			break
		}
	}
}

func skip3(e jsstring.String, o int) int {
	n := o
	for n-o < 3 && jsstring.At(e, n) == ' ' {
		n++
	}
	return n
}

func skipTabSpace(e jsstring.String, o int) int {
	for jsstring.At(e, o) == ' ' || jsstring.At(e, o) == '\t' {
		o++
	}
	return o
}

func skipJSSpace(e jsstring.String, o int) int {
	for o < len(e) && jsstring.IsSpace(int(e[o])) {
		o++
	}
	return o
}

// lineEnd is ln: the next "\n" at or after o, or the end.
func lineEnd(e jsstring.String, o int) int {
	if i := jsstring.IndexOfUnit(e, '\n', o); i >= 0 {
		return i
	}
	return len(e)
}

// termEnd is tr: the next line terminator (\n, \r, U+2028, U+2029).
func termEnd(e jsstring.String, o int) int {
	if o < 0 {
		o = 0
	}
	for i := o; i < len(e); i++ {
		if jsstring.IsLineEnd(int(e[i])) {
			return i
		}
	}
	return len(e)
}

// atLineEnd is nr.
func atLineEnd(e jsstring.String, o int) bool { return o >= len(e) || e[o] == '\n' }

func skipUnit(e jsstring.String, o int, c uint16) int {
	for o < len(e) && e[o] == c {
		o++
	}
	return o
}

// mdSpace is yl: /^(?:[\t\n ]*$|[\t ]*\n(?:[\t\n ]*\n)?)/.
func mdSpace(e jsstring.String) int {
	i := 0
	for i < len(e) && (e[i] == '\t' || e[i] == '\n' || e[i] == ' ') {
		i++
	}
	if i == len(e) {
		return i
	}
	j := 0
	for j < len(e) && (e[j] == '\t' || e[j] == ' ') {
		j++
	}
	if jsstring.At(e, j) != '\n' {
		return 0
	}
	j++
	// (?:[\t\n ]*\n)? takes up to the last "\n" of the whitespace run.
	last := -1
	for k := j; k < len(e) && (e[k] == '\t' || e[k] == '\n' || e[k] == ' '); k++ {
		if e[k] == '\n' {
			last = k
		}
	}
	if last >= 0 {
		return last + 1
	}
	return j
}

// mdIndentedLine is B_: / {0,3}\t| {4}/y at r, its end or -1.
func mdIndentedLine(e jsstring.String, r int) int {
	n := 0
	for n < 3 && jsstring.At(e, r+n) == ' ' {
		n++
	}
	if jsstring.At(e, r+n) == '\t' {
		return r + n + 1
	}
	if n == 3 && jsstring.At(e, r+3) == ' ' {
		return r + 4
	}
	return -1
}

// mdBlankRun is WP: /[\t\n ]*$|[\t\n ]*\n|/y at o.
func mdBlankRun(e jsstring.String, o int) int {
	i := o
	last := -1
	for i < len(e) && (e[i] == '\t' || e[i] == '\n' || e[i] == ' ') {
		if e[i] == '\n' {
			last = i
		}
		i++
	}
	if i == len(e) {
		return i
	}
	if last >= 0 {
		return last + 1
	}
	return o
}

// mdIndented is Sl: the length of an indented code block, -1 for none.
func mdIndented(e jsstring.String) int {
	o := -1
	for r := 0; ; r = o {
		h := mdIndentedLine(e, r)
		if h == -1 || atLineEnd(e, h) {
			return o
		}
		g := lineEnd(e, h)
		if g < len(e) {
			o = mdBlankRun(e, g+1)
		} else {
			o = g
		}
	}
}

func mdCodeToken(raw jsstring.String) *mdToken {
	// rD: the text is the lines without their indentation.
	var text jsstring.String
	for r := 0; r < len(raw); {
		h := termEnd(raw, r) + 1
		g := skip3(raw, r)
		y := false
		if g-r == 3 {
			y = jsstring.At(raw, g) == ' '
		} else if g == r {
			y = jsstring.At(raw, g) == '\t'
		}
		from := g
		if y {
			from = g + 1
		}
		text = append(text, raw[min(from, len(raw)):min(h, len(raw))]...)
		r = h
	}
	for len(text) > 0 && text[len(text)-1] == '\n' {
		text = text[:len(text)-1]
	}
	return &mdToken{typ: "code", raw: raw, text: text}
}

// mdFenceOpen is Gu (OP): / {0,3}(?:`{3,}(?![^\n`]*`)|~{3,})/y at 0, the
// end of the fence characters or -1.
func mdFenceOpen(e jsstring.String) int {
	i := skip3(e, 0)
	c := jsstring.At(e, i)
	if c != '`' && c != '~' {
		return -1
	}
	j := skipUnit(e, i, uint16(c))
	if j-i < 3 {
		return -1
	}
	if c == '`' {
		for k := j; k < len(e) && e[k] != '\n'; k++ {
			if e[k] == '`' {
				return -1
			}
		}
	}
	return j
}

// mdFenceClose is zu: the start of the closing fence's line, or -1.
func mdFenceClose(e jsstring.String, o int) int {
	r := jsstring.TrimStart(e[:o])
	h := o
	for {
		// PP: /\n {0,3}(?=[`~])/g from h.
		next := -1
		for i := jsstring.IndexOfUnit(e, '\n', h); i >= 0; i = jsstring.IndexOfUnit(e, '\n', i+1) {
			j := skip3(e, i+1)
			if c := jsstring.At(e, j); c == '`' || c == '~' {
				next = j
				break
			}
		}
		if next == -1 {
			return -1
		}
		h = next
		if jsstring.StartsWithString(e, r, h) {
			// IP: /[`~]* *(?![^\n])/y
			k := h + len(r)
			for jsstring.At(e, k) == '`' || jsstring.At(e, k) == '~' {
				k++
			}
			for jsstring.At(e, k) == ' ' {
				k++
			}
			if atLineEnd(e, k) {
				return jsstring.LastIndexOfUnit(e, '\n', h) + 1
			}
		}
	}
}

// mdFences is wl.
func mdFences(e jsstring.String) int {
	o := mdFenceOpen(e)
	if o == -1 {
		return -1
	}
	r := mdFenceClose(e, o)
	if r == -1 {
		return len(e)
	}
	return lineEnd(e, r)
}

// mdHeading is L_: /^ {0,3}#{1,6}(?!\S).*(?![^\n])\n*/.
func mdHeading(e jsstring.String) int {
	i := skip3(e, 0)
	j := skipUnit(e, i, '#')
	if j == i || j-i > 6 {
		return -1
	}
	if j < len(e) && !jsstring.IsSpace(int(e[j])) {
		return -1
	}
	for j < len(e) && !jsstring.IsLineEnd(int(e[j])) {
		j++
	}
	if j < len(e) && e[j] != '\n' {
		return -1
	}
	return skipUnit(e, j, '\n')
}

func (lx *mdLexer) headingToken(raw jsstring.String) *mdToken {
	// nD: the text after the #s, trimmed, a closing run of #s dropped.
	r := jsstring.IndexOfUnit(raw, '#', 0)
	h := skipUnit(raw, r, '#')
	g := jsstring.Trim(raw[h:])
	// GI: /(?:^| )#+$/
	if n := len(g); n > 0 && g[n-1] == '#' {
		k := n
		for k > 0 && g[k-1] == '#' {
			k--
		}
		switch {
		case k == 0:
			g = g[:0]
		case g[k-1] == ' ':
			g = g[:k-1]
		}
	}
	g = jsstring.Trim(g)
	t := &mdToken{typ: "heading", raw: raw, text: g}
	lx.inline(g, t)
	return t
}

// mdHR is ju at o: / {0,3}(?:-[\t ]*-[\t ]*-[-\t ]*|_…|\*…)(?![^\n])\n*/,
// its end or -1.
func mdHR(e jsstring.String, o int) int {
	i := skip3(e, o)
	c := jsstring.At(e, i)
	if c != '-' && c != '_' && c != '*' {
		return -1
	}
	n := 0
	for n < 3 {
		if jsstring.At(e, i) != c {
			return -1
		}
		i++
		n++
		if n < 3 {
			i = skipTabSpace(e, i)
		}
	}
	for jsstring.At(e, i) == c || jsstring.At(e, i) == '\t' || jsstring.At(e, i) == ' ' {
		i++
	}
	if !atLineEnd(e, i) {
		return -1
	}
	return skipUnit(e, i, '\n')
}

// mdInterrupts is F_: whether the line at o starts a block that ends a
// paragraph.
func mdInterrupts(e jsstring.String, o int) bool {
	i := skip3(e, o)
	switch c := jsstring.At(e, i); c {
	case '>':
		return true
	case '-', '+', '*':
		if jsstring.At(e, i+1) == ' ' {
			return true
		}
	case '1':
		if (jsstring.At(e, i+1) == ')' || jsstring.At(e, i+1) == '.') && jsstring.At(e, i+2) == ' ' {
			return true
		}
	case '#':
		j := skipUnit(e, i, '#')
		if j-i <= 6 && (j >= len(e) || jsstring.IsSpace(int(e[j]))) {
			return true
		}
	case '`':
		j := skipUnit(e, i, '`')
		if j-i >= 3 {
			for ; j < len(e) && e[j] != '\n' && e[j] != '`'; j++ {
			}
			if jsstring.At(e, j) == '\n' {
				return true
			}
		}
	case '~':
		if jsstring.At(e, i+1) == '~' && jsstring.At(e, i+2) == '~' {
			if j := jsstring.IndexOfUnit(e, '\n', i+3); j >= 0 {
				return true
			}
		}
	}
	if c := jsstring.At(e, i); (c == '-' || c == '_' || c == '*') && mdHRLine(e, i) {
		return true
	}
	// " *\n"
	j := o
	for jsstring.At(e, j) == ' ' {
		j++
	}
	if jsstring.At(e, j) == '\n' {
		return true
	}
	return mdHTMLStart(e, o)
}

// mdHRLine is I_ at i (after the spaces): a thematic break up to the end
// of the line, without the trailing newlines.
func mdHRLine(e jsstring.String, i int) bool {
	c := jsstring.At(e, i)
	n := 0
	for n < 3 {
		if jsstring.At(e, i) != c {
			return false
		}
		i++
		n++
		if n < 3 {
			i = skipTabSpace(e, i)
		}
	}
	for jsstring.At(e, i) == c || jsstring.At(e, i) == '\t' || jsstring.At(e, i) == ' ' {
		i++
	}
	return atLineEnd(e, i)
}

var (
	mdRawTags   = []string{"script", "pre", "style", "textarea"}
	mdBlockTags = " address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem meta nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul "
)

// mdHTMLStart is M_ (case-sensitive, as F_ uses it) at o.
func mdHTMLStart(e jsstring.String, o int) bool {
	if jsstring.At(e, o) != '<' {
		return false
	}
	if jsstring.StartsWith(e, "!--", o+1) {
		return true
	}
	for _, t := range mdRawTags {
		if jsstring.StartsWith(e, t, o+1) {
			return true
		}
	}
	i := o + 1
	if jsstring.At(e, i) == '/' {
		i++
	}
	// the alternation takes the first name that fits and is followed by
	// [\n >] or "/>"
	for _, name := range mdBlockTagList {
		if jsstring.StartsWith(e, name, i) {
			j := i + len(name)
			if c := jsstring.At(e, j); c == '\n' || c == ' ' || c == '>' || c == '/' && jsstring.At(e, j+1) == '>' {
				return true
			}
		}
	}
	return false
}

var mdBlockTagList = splitFields(mdBlockTags)

func splitFields(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

// mdParagraphEnd is $_ (gfm off): the end of the paragraph starting at o,
// its last line's end.
func mdParagraphEnd(e jsstring.String, o int) int {
	h := lineEnd(e, o)
	if h == o {
		return h
	}
	for h+1 < len(e) {
		g := lineEnd(e, h+1)
		if mdInterrupts(e, h+1) {
			break
		}
		h = g
	}
	return h
}

// mdSetext is Ku: the length of a setext heading, -1 for none.
func mdSetext(e jsstring.String) int {
	o := mdSetextReach(e)
	if o < 0 {
		return -1
	}
	return mdUnderline(e, o)
}

// mdSetextReach is Vu: where the underline is, or ^ of how far it looked.
func mdSetextReach(e jsstring.String) int {
	o := 0
	for {
		r := mdLazyLine(e, o)
		if r == -1 {
			break
		}
		o = r
		if o > 1 && mdUnderline(e, o) != -1 {
			return o
		}
		if mdBlankLine(e, o) {
			break
		}
	}
	return ^o
}

// mdLazyLine is $P at o: a line (with its "\n") that starts no list item,
// indented code, quote, heading, fence or HTML line; its end or -1.
func mdLazyLine(e jsstring.String, o int) int {
	c := jsstring.At(e, o)
	if (c == '-' || c == '+' || c == '*') && jsstring.At(e, o+1) == ' ' {
		return -1
	}
	if n := digitRun(e, o); n >= 1 && n <= 9 && (jsstring.At(e, o+n) == ')' || jsstring.At(e, o+n) == '.') && jsstring.At(e, o+n+1) == ' ' {
		return -1
	}
	i := skip3(e, o)
	switch c := jsstring.At(e, i); c {
	case '\t', '#', '>':
		return -1
	case '`', '~':
		if jsstring.At(e, i+1) == c && jsstring.At(e, i+2) == c {
			return -1
		}
	case '<':
		// <[^\n>]+>\n
		j := i + 1
		for j < len(e) && e[j] != '\n' && e[j] != '>' {
			j++
		}
		if j > i+1 && jsstring.At(e, j) == '>' && jsstring.At(e, j+1) == '\n' {
			return -1
		}
	}
	if jsstring.At(e, o) == ' ' && jsstring.At(e, o+1) == ' ' && jsstring.At(e, o+2) == ' ' && jsstring.At(e, o+3) == ' ' {
		return -1
	}
	j := o
	for j < len(e) && !jsstring.IsLineEnd(int(e[j])) {
		j++
	}
	if jsstring.At(e, j) != '\n' {
		return -1
	}
	return j + 1
}

// mdBlankLine is NP: /[^\S\n]*\n/y.
func mdBlankLine(e jsstring.String, o int) bool {
	for o < len(e) && e[o] != '\n' && jsstring.IsSpace(int(e[o])) {
		o++
	}
	return jsstring.At(e, o) == '\n'
}

// mdUnderline is Rl (LP): / {0,3}(?:-+|=+) *(?![^\n])\n*/y at o.
func mdUnderline(e jsstring.String, o int) int {
	i := skip3(e, o)
	c := jsstring.At(e, i)
	if c != '-' && c != '=' {
		return -1
	}
	i = skipUnit(e, i, uint16(c))
	i = skipUnit(e, i, ' ')
	if !atLineEnd(e, i) {
		return -1
	}
	return skipUnit(e, i, '\n')
}

// lheading is CFn.lheading (tried only where an underline is within
// reach) around Hxe.lheading.
func (lx *mdLexer) lheading(e jsstring.String) *mdToken {
	if n := len(lx.lexed); n > 0 {
		o := lx.lexed[n-1]
		before := '\n'
		if i := len(o.text) - len(e) - 1; i >= 0 {
			before = rune(o.text[i])
		}
		if !o.inReach[len(e)] && before == '\n' {
			return nil
		}
	}
	if len(e) > lx.noSetextUntil {
		return nil
	}
	if n := mdSetext(e); n > 0 {
		return lx.setextToken(e[:n])
	}
	if !lx.top {
		lx.noSetextUntil = len(e) - ^mdSetextReach(e)
	}
	return nil
}

func (lx *mdLexer) setextToken(raw jsstring.String) *mdToken {
	// mD
	r := raw
	for len(r) > 0 && r[len(r)-1] == '\n' {
		r = r[:len(r)-1]
	}
	h := jsstring.LastIndexOfUnit(r, '\n', len(r)-1) + 1
	text := r[:max(0, h-1)]
	t := &mdToken{typ: "heading", raw: raw, text: text}
	lx.inline(text, t)
	return t
}

// hlEnd is hl: the end of the next s at or after r, or the end of e.
func hlEnd(e jsstring.String, s string, r int) int {
	if i := jsstring.IndexOf(e, s, r); i >= 0 {
		return i + len(s)
	}
	return len(e)
}

// tagNameEnd is gl (TP: /[A-Z][-\w]*/iy).
func tagNameEnd(e jsstring.String, o int) int {
	if !jsstring.IsASCIILetter(jsstring.At(e, o)) {
		return o
	}
	o++
	for c := jsstring.At(e, o); c == '-' || jsstring.IsWordUnit(c); c = jsstring.At(e, o) {
		o++
	}
	return o
}

// mdHTMLBlock is O_: the length of an HTML block, -1 for none.
func mdHTMLBlock(e jsstring.String) int {
	o := skip3(e, 0)
	if jsstring.At(e, o) != '<' {
		return -1
	}
	r := o + 1
	h := jsstring.At(e, r)
	if h == '?' {
		return skipUnit(e, hlEnd(e, "?>", r+1), '\n')
	}
	if h == '!' {
		if jsstring.StartsWith(e, "--", r+1) {
			return skipUnit(e, lineEnd(e, hlEnd(e, "-->", r+1)), '\n')
		}
		if tagNameEnd(e, r+1) > r+1 {
			return skipUnit(e, hlEnd(e, ">", r), '\n')
		}
		if jsstring.Eq(jsstring.UpperASCII(e[min(r+1, len(e)):min(r+8, len(e))]), "[CDATA[") {
			return skipUnit(e, hlEnd(e, "]]>", r+8), '\n')
		}
		return -1
	}
	closing := h == '/'
	y := r
	if closing {
		y = r + 1
	}
	k := tagNameEnd(e, y)
	name := string(utf16Runes(jsstring.Lower(e[y:k])))
	p := jsstring.At(e, k)
	for _, t := range mdRawTags {
		if len(name) >= len(t) && name[:len(t)] == t {
			if !closing && name == t && (p == '>' || p != -1 && mdClass(p) == 0) {
				return mdRawEnd(e, name, k)
			}
			return -1
		}
	}
	if name != "" && slices.Contains(mdBlockTagList, name) {
		if c := jsstring.At(e, k); c == '\n' || c == ' ' || c == '>' || c == '/' && jsstring.At(e, k+1) == '>' {
			return mdBlankLineEnd(e, k+1)
		}
	}
	if name == "" {
		return -1
	}
	var d int
	if closing {
		d = skipJSSpace(e, k)
		if jsstring.At(e, d) == '>' {
			d++
		} else {
			d = -1
		}
	} else {
		d = mdAttrsStrict(e, k)
		d = skipUnit(e, d, ' ')
		if jsstring.At(e, d) == '/' {
			d++
		}
		if jsstring.At(e, d) == '>' {
			d++
		} else {
			d = -1
		}
	}
	if d != -1 && atLineEnd(e, skipTabSpace(e, d)) {
		return mdBlankLineEnd(e, d)
	}
	return -1
}

func utf16Runes(u jsstring.String) []rune {
	out := make([]rune, len(u))
	for i, c := range u {
		out[i] = rune(c)
	}
	return out
}

// mdRawEnd is MP: up to the line holding </name>, any case.
func mdRawEnd(e jsstring.String, name string, r int) int {
	h := "</" + name + ">"
	for g := jsstring.IndexOf(e, "</", r); g != -1; g = jsstring.IndexOf(e, "</", g+2) {
		if jsstring.Eq(jsstring.Lower(e[g:min(g+len(h), len(e))]), h) {
			return skipUnit(e, lineEnd(e, g), '\n')
		}
	}
	return len(e)
}

// mdBlankLineEnd is A_ (CP: /\n[\t\n ]*\n/g): past the next blank line.
func mdBlankLineEnd(e jsstring.String, o int) int {
	for i := jsstring.IndexOfUnit(e, '\n', o); i >= 0; i = jsstring.IndexOfUnit(e, '\n', i+1) {
		last := -1
		for j := i + 1; j < len(e) && (e[j] == '\t' || e[j] == '\n' || e[j] == ' '); j++ {
			if e[j] == '\n' {
				last = j
			}
		}
		if last >= 0 {
			return last + 1
		}
	}
	return len(e)
}

// mdAttrsStrict is Gn(bP): the attributes of an HTML block's opening tag
// (spaces only, values on one line).
func mdAttrsStrict(e jsstring.String, o int) int {
	for {
		n := mdAttrStrict(e, o)
		if n <= o {
			return o
		}
		o = n
	}
}

func mdAttrStrict(e jsstring.String, o int) int {
	i := skipUnit(e, o, ' ')
	if i == o {
		return -1
	}
	c := jsstring.At(e, i)
	if !(c == ':' || c == '_' || jsstring.IsASCIILetter(c)) {
		return -1
	}
	i++
	for c := jsstring.At(e, i); c == '-' || c == '.' || c == ':' || jsstring.IsWordUnit(c); c = jsstring.At(e, i) {
		i++
	}
	// (?: *= *(?:[^\s"'<=>`]+|'[^\n']*'|"[^\n"]*"))?
	j := skipUnit(e, i, ' ')
	if jsstring.At(e, j) != '=' {
		return i
	}
	j = skipUnit(e, j+1, ' ')
	switch c := jsstring.At(e, j); {
	case c == '\'' || c == '"':
		for k := j + 1; k < len(e); k++ {
			if e[k] == '\n' {
				break
			}
			if int(e[k]) == c {
				return k + 1
			}
		}
		return i
	case c != -1 && !jsstring.IsSpace(c) && c != '<' && c != '=' && c != '>' && c != '`':
		k := j
		for k < len(e) && mdUnquoted(int(e[k])) {
			k++
		}
		return k
	}
	return i
}

func mdUnquoted(c int) bool {
	return !jsstring.IsSpace(c) && c != '"' && c != '\'' && c != '<' && c != '=' && c != '>' && c != '`'
}

// mdClass is fl: 0 whitespace, 1 punctuation or symbol, 2 anything else.
func mdClass(c int) int {
	if c < 128 {
		return int(mdASCIIClass[c] - '0')
	}
	if jsstring.IsSpace(c) {
		return 0
	}
	if c >= 0xd800 && c <= 0xdfff {
		return 2
	}
	if unicode.In(rune(c), unicode.P, unicode.S) {
		return 1
	}
	return 2
}

const mdASCIIClass = "22222222200000222222222222222222011111111111111122222222221111111222222222222222222222222221111112222222222222222222222222211112"

// mdDef is the def tokenizer (lS): a link reference definition.
func mdDef(e jsstring.String) *mdToken {
	o := skip3(e, 0)
	if jsstring.At(e, o) != '[' {
		return nil
	}
	r := mdLabelEnd(e, o+1)
	if r <= o+1 || jsstring.At(e, r+1) != ':' {
		return nil
	}
	label := e[o+1 : r]
	g := mdDefSpace(e, r+2)
	var n int
	if jsstring.At(e, g) != '<' {
		k := g
		for k < len(e) && !jsstring.IsSpace(int(e[k])) {
			k++
		}
		if k == g {
			return nil
		}
		n = mdDefRest(e, k)
	} else {
		n = -1
		y := termEnd(e, g)
		for k := jsstring.IndexOfUnit(e, '>', g); k != -1 && k < y; k = jsstring.IndexOfUnit(e, '>', k+1) {
			if n = mdDefRest(e, k+1); n != -1 {
				break
			}
		}
	}
	if n == -1 {
		return nil
	}
	return &mdToken{typ: "def", raw: e[:n], tag: mdNormLabel(label)}
}

// mdLabelEnd is Tl: the "]" ending a label started at o, -1 for none.
func mdLabelEnd(e jsstring.String, o int) int {
	r := o
	for {
		switch c := jsstring.At(e, r); {
		case c == -1:
		case c == '\\':
			if r+1 < len(e) && !jsstring.IsLineEnd(int(e[r+1])) {
				r += 2
				continue
			}
		case c != '[' && c != ']':
			r++
			continue
		}
		break
	}
	if jsstring.At(e, r) == ']' && skipJSSpace(e, o) < r {
		return r
	}
	return -1
}

// mdDefSpace is dS: spaces, and one line end with its indentation.
func mdDefSpace(e jsstring.String, o int) int {
	r := skipUnit(e, o, ' ')
	if jsstring.At(e, r) == '\n' {
		return skipTabSpace(e, r+1)
	}
	return r
}

// mdDefEnd is Qu: spaces up to a line end, then the "\n"s; -1 otherwise.
func mdDefEnd(e jsstring.String, o int) int {
	r := skipUnit(e, o, ' ')
	if atLineEnd(e, r) {
		return skipUnit(e, r, '\n')
	}
	return -1
}

// mdDefRest is aS: the optional title and the end of a definition whose
// destination ends at h; its length, -1 for none.
func mdDefRest(e jsstring.String, h int) int {
	g := mdDefSpace(e, h)
	y := -1
	if g > h {
		switch jsstring.At(e, g) {
		case '"':
			y = mdClosingQuote(e, g, '"', mdDefEnd)
		case '\'':
			y = jsstring.IndexOfUnit(e, '\'', g+1)
			if y > g && jsstring.IndexOf(e[g:y], "\n\n", 0) >= 0 {
				y = -1
			}
		case '(':
			y = g + 1
			for y < len(e) && e[y] != '(' && e[y] != ')' {
				y++
			}
			if jsstring.At(e, y) != ')' {
				y = -1
			}
		}
	}
	if y != -1 {
		if k := mdDefEnd(e, y+1); k != -1 {
			return k
		}
	}
	return mdDefEnd(e, h)
}

// mdClosingQuote is Ju: the quote closing the one at o that ok accepts
// what follows of, -1 for none.
func mdClosingQuote(e jsstring.String, o int, q uint16, ok func(jsstring.String, int) int) int {
	g := jsstring.IndexOfUnit(e, q, o+1)
	y := -1
	for g != -1 {
		y = g
		if g == o+1 || e[g-1] != '\\' {
			break
		}
		g = jsstring.IndexOfUnit(e, q, g+1)
	}
	for y > o && ok(e, y+1) == -1 {
		y = jsstring.LastIndexOfUnit(e, q, y-1)
	}
	if y > o {
		return y
	}
	return -1
}

// mdNormLabel is AS: runs of whitespace as one space, lower-cased.
func mdNormLabel(l jsstring.String) string {
	var out jsstring.String
	for i := 0; i < len(l); {
		if jsstring.IsSpace(int(l[i])) {
			for i < len(l) && jsstring.IsSpace(int(l[i])) {
				i++
			}
			out = append(out, ' ')
			continue
		}
		out = append(out, l[i])
		i++
	}
	return jsKey(jsstring.Lower(out))
}

// jsKey is a lossless map key for a code unit string.
func jsKey(u jsstring.String) string {
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c>>8), byte(c)
	}
	return string(b)
}

// blockquote is the blockquote tokenizer (dD, cD, uD).
func (lx *mdLexer) blockquote(e jsstring.String) *mdToken {
	o := mdQuoteEnd(e)
	if o == -1 {
		return nil
	}
	q := &mdToken{typ: "blockquote"}
	rest := e[:o]
	for len(rest) > 0 && rest[len(rest)-1] == '\n' {
		rest = rest[:len(rest)-1]
	}
	has := true
	for has {
		var r jsstring.String
		r, rest, has = lx.quoteSegment(q, rest)
		top := lx.top
		lx.top = true
		lx.blockTokens(r, &q.tokens, true)
		lx.top = top
		if has {
			rest, has = lx.quoteLazy(q, rest)
		}
	}
	return q
}

// mdQuoteEnd is U_: the end of the lines a quote takes, -1 for none.
func mdQuoteEnd(e jsstring.String) int {
	o := -1
	for r := 0; r < len(e); r = o {
		h := mdQuoteMarker(e, r)
		if h == -1 {
			break
		}
		o = min(mdParagraphEnd(e, h)+1, len(e))
	}
	return o
}

// mdQuoteMarker is DP: / {0,3}> ?/y, its end or -1.
func mdQuoteMarker(e jsstring.String, r int) int {
	i := skip3(e, r)
	if jsstring.At(e, i) != '>' {
		return -1
	}
	i++
	if jsstring.At(e, i) == ' ' {
		i++
	}
	return i
}

func mdQuoteLine(l jsstring.String) bool { return jsstring.At(l, skip3(l, 0)) == '>' }

// quoteSegment is cD: the quote's lines up to the first that does not
// start with ">" after one that does, without their markers.
func (lx *mdLexer) quoteSegment(q *mdToken, o jsstring.String) (text, rest jsstring.String, has bool) {
	h := -1
	var g jsstring.String
	y := false
	for h < len(o) {
		from := h + 1
		line := o[min(from, len(o)):lineEnd(o, from)]
		p := mdQuoteLine(line)
		if y && !p {
			break
		}
		y = p
		switch {
		case h == -1:
			g = mdStripMarkers(line)
		case mdUnderline(line, 0) == -1:
			g = append(append(g, '\n'), mdStripMarkers(line)...)
		default:
			g = append(append(g, jsstring.Lit("\n    ")...), jsstring.TrimStart(line)...)
		}
		h += len(line) + 1
	}
	k := o[:min(max(h, 0), len(o))]
	if len(q.raw) > 0 {
		q.addRaw(nl, k)
	} else {
		q.raw, q.ownRaw = k, false
	}
	if len(q.text) > 0 {
		q.addText(nl, g)
	} else {
		q.text, q.ownText = g, false
	}
	if h < len(o) {
		return g, o[h+1:], true
	}
	return g, nil, false
}

// mdStripMarkers is MS: each line (split at any line terminator) without
// its " {0,3}>[\t ]?".
func mdStripMarkers(e jsstring.String) jsstring.String {
	var o jsstring.String
	for r := 0; r < len(e); {
		h := r
		i := skip3(e, r)
		if jsstring.At(e, i) == '>' {
			i++
			if c := jsstring.At(e, i); c == '\t' || c == ' ' {
				i++
			}
			h = i
		}
		r = termEnd(e, h) + 1
		o = append(o, e[h:min(r, len(e))]...)
	}
	return o
}

// quoteLazy is uD: what the quote does with the lines after a segment.
func (lx *mdLexer) quoteLazy(q *mdToken, o jsstring.String) (jsstring.String, bool) {
	var g *mdToken
	if n := len(q.tokens); n > 0 {
		g = q.tokens[n-1]
	}
	if g == nil || g.typ != "blockquote" && g.typ != "list" {
		if g != nil && g.typ == "code" {
			return nil, false
		}
		return o, true
	}
	y := jsstring.Cat(g.raw, jsstring.Lit("\n"), o)
	var k *mdToken
	if g.typ == "list" {
		k = lx.list(y)
	} else {
		k = lx.blockquote(y)
	}
	if k == nil {
		return nil, false
	}
	q.tokens[len(q.tokens)-1] = k
	q.raw, q.ownRaw = jsstring.Cat(q.raw[:max(0, len(q.raw)-len(g.raw))], k.raw), false
	if k.typ == "blockquote" {
		q.text, q.ownText = jsstring.Cat(q.text[:max(0, len(q.text)-len(g.text))], k.text), false
		return nil, false
	}
	q.text, q.ownText = jsstring.Cat(q.text[:max(0, len(q.text)-len(g.raw))], k.raw), false
	return y[min(len(k.raw), len(y)):], true
}

// mdListStart is H_: /^ {0,3}(?:\d{1,9}[).]|[-+*])(?:[\t ][^\n]+)?(?![^\n])\n?/.
func mdListStart(e jsstring.String) bool {
	i := skip3(e, 0)
	if n := digitRun(e, i); n >= 1 {
		if n > 9 || jsstring.At(e, i+n) != ')' && jsstring.At(e, i+n) != '.' {
			return false
		}
		i += n + 1
	} else if c := jsstring.At(e, i); c == '-' || c == '+' || c == '*' {
		i++
	} else {
		return false
	}
	if c := jsstring.At(e, i); (c == '\t' || c == ' ') && i+1 < len(e) && e[i+1] != '\n' {
		i = lineEnd(e, i+1)
	}
	return atLineEnd(e, i)
}

// mdItemMarker is CI: / {0,3}(?:\d{1,9}[).]|[-+*])(?![^\t\n ])/y at o.
func mdItemMarker(e jsstring.String, o int) int {
	i := skip3(e, o)
	if n := digitRun(e, i); n >= 1 {
		if n > 9 || jsstring.At(e, i+n) != ')' && jsstring.At(e, i+n) != '.' {
			return -1
		}
		i += n + 1
	} else if c := jsstring.At(e, i); c == '-' || c == '+' || c == '*' {
		i++
	} else {
		return -1
	}
	if c := jsstring.At(e, i); c != -1 && c != '\t' && c != '\n' && c != ' ' {
		return -1
	}
	return i
}

// list is the list tokenizer (fD, vS): its items lexed as blocks.
func (lx *mdLexer) list(e jsstring.String) *mdToken {
	if !mdListStart(e) {
		return nil
	}
	var bullet uint16
	var items []*mdToken
	k := 0
	for k < len(e) {
		d := mdItemMarker(e, k)
		var n uint16
		if d >= 1 {
			n = e[d-1]
		}
		if bullet == 0 {
			bullet = n
		}
		if d == -1 || n != bullet || mdHR(e, k) != -1 {
			break
		}
		end, content := mdItem(e, k, d)
		items = append(items, &mdToken{typ: "list_item", raw: e[k:end], text: content})
		k = end
	}
	if len(items) == 0 {
		return nil
	}
	last := items[len(items)-1]
	last.raw = jsstring.TrimEnd(last.raw)
	last.text = jsstring.TrimEnd(last.text)
	l := &mdToken{typ: "list", raw: jsstring.TrimEnd(e[:k]), items: items}
	for _, it := range items {
		lx.top = false
		lx.blockTokens(it.text, &it.tokens, false)
	}
	return l
}

func mdSpaces(n int) jsstring.String {
	out := make(jsstring.String, n)
	for i := range out {
		out[i] = ' '
	}
	return out
}

// mdFirstNonSpace is search(ef): the first character that is not " ".
func mdFirstNonSpace(e jsstring.String) int {
	for i, c := range e {
		if c != ' ' {
			return i
		}
	}
	return len(e)
}

// mdItem is vS: the end of the item whose marker (starting at o) ends at
// r, and its content.
func mdItem(e jsstring.String, o, r int) (int, jsstring.String) {
	h := lineEnd(e, r)
	g := r
	for jsstring.At(e, g) == '\t' {
		g++
	}
	y := e[g:h]
	if g > r {
		y = jsstring.Cat(mdSpaces(3*(g-r)), y)
	}
	blank := len(jsstring.Trim(y)) == 0
	width := r - o
	var p jsstring.String
	if blank {
		width++
	} else {
		sp := skipUnit(e, r, ' ') - r
		kk := sp
		if sp > 4 {
			kk = 1
		}
		p = append(jsstring.String(nil), y[min(kk, len(y)):]...)
		width += kk
	}
	if blank {
		// MI: /[\t ]*(?![^\n])\n?/y at the next line
		i := skipTabSpace(e, min(h+1, len(e)))
		if atLineEnd(e, i) {
			if jsstring.At(e, i) == '\n' {
				i++
			}
			return i, p
		}
	}
	last := jsstring.Lit("none")
	w := min(3, width-1)
	for hh := h + 1; hh < len(e); hh = h + 1 {
		kEnd := lineEnd(e, hh)
		z := e[hh:kEnd]
		q := mdFirstNonSpace(z)
		if q <= w && mdItemBreak(z, q) {
			break
		}
		ee := mdExpandTabs(z)
		ie := len(jsstring.Trim(z)) == 0
		me := ee[min(width, len(ee)):]
		switch {
		case ie || mdFirstNonSpace(ee) >= width:
			p = append(append(p, '\n'), me...)
		case blank || !mdLazyItemLine(y, w):
			return min(h+1, len(e)), p
		default:
			p = append(append(p, '\n'), z...)
		}
		blank = blank || ie
		last, y, h = z, me, kEnd
	}
	_ = last
	return min(h+1, len(e)), p
}

func mdExpandTabs(z jsstring.String) jsstring.String {
	var out jsstring.String
	for _, c := range z {
		if c == '\t' {
			out = append(out, ' ', ' ', ' ', ' ')
			continue
		}
		out = append(out, c)
	}
	return out
}

// mdItemBreak is AI (case-insensitive) at q: a line that starts another
// block and ends the item.
func mdItemBreak(z jsstring.String, q int) bool {
	if mdOpensBlock(z, q) {
		return true
	}
	if jsstring.StartsWith(z, "<!--", q) {
		return true
	}
	if jsstring.At(z, q) == '<' && jsstring.IsASCIILetter(jsstring.At(z, q+1)) {
		for j := q + 2; j < len(z); j++ {
			if jsstring.IsLineEnd(int(z[j])) {
				break
			}
			if z[j] == '>' {
				return true
			}
		}
	}
	i := q
	if n := digitRun(z, i); n >= 1 {
		if n > 9 || jsstring.At(z, i+n) != ')' && jsstring.At(z, i+n) != '.' {
			return false
		}
		i += n + 1
	} else if c := jsstring.At(z, i); c == '-' || c == '+' || c == '*' {
		i++
	} else {
		return false
	}
	c := jsstring.At(z, i)
	return c == -1 || c == '\t' || c == ' '
}

// mdOpensBlock is ES at q: "#", a fence, or a thematic break (spaces
// only) to the end of the text.
func mdOpensBlock(z jsstring.String, q int) bool {
	c := jsstring.At(z, q)
	switch c {
	case '#':
		return true
	case '`', '~':
		return jsstring.At(z, q+1) == c && jsstring.At(z, q+2) == c
	case '-', '_', '*':
		i := q
		for n := 0; n < 3; n++ {
			if jsstring.At(z, i) != c {
				return false
			}
			i++
			if n < 2 {
				i = skipUnit(z, i, ' ')
			}
		}
		for jsstring.At(z, i) == c || jsstring.At(z, i) == ' ' {
			i++
		}
		return i == len(z)
	}
	return false
}

// mdLazyItemLine is NI: whether the item's last line lets a line with
// less indentation continue it.
func mdLazyItemLine(e jsstring.String, o int) bool {
	r := mdFirstNonSpace(e)
	// LI: /^(?: {0,3}\t| {4})[\t ]*[^\t ]/
	sp := 0
	for sp < len(e) && e[sp] == ' ' {
		sp++
	}
	indented := false
	if jsstring.At(e, min(sp, 3)) == '\t' && sp <= 3 || sp >= 4 {
		i := skipTabSpace(e, 0)
		indented = i < len(e)
	}
	return !indented && (r > o || !mdOpensBlock(e, r))
}
