package marked

import (
	"unicode"

	"github.com/rivumi/rivumi-lint/internal/agent/claude/jsstring"
)

// The inline half of Claude Code's Markdown lexer (see lexer.go):
// which parts of a paragraph, heading or list item are text tokens, the
// only ones the import scan reads. Emphasis keeps the original's pruning
// notes, which decide what it tries.

// mdNotes is the original's vl: what one inlineTokens call has learnt.
type mdNotes struct {
	afterMarks int
	closers    map[int]*mdCloserNote
	// absent and ahead are the original's memos of searches over the
	// call's text (every rest is a suffix of it): absent, from how much of
	// the text left a search found nothing; ahead, how much is left at the
	// last ">" or ")". Without them a line of unclosed tags is quadratic.
	absent map[string]int
	ahead  map[uint16]int
}

type mdCloserNote struct{ last, marks int }

func newMdNotes() *mdNotes {
	return &mdNotes{afterMarks: jsstring.Inf, closers: map[int]*mdCloserNote{}}
}

// isAhead is vl.isAhead for /[^]*c/y: whether a c is at or after r.
func (n *mdNotes) isAhead(e jsstring.String, c uint16, r int) bool {
	if n.ahead == nil {
		n.ahead = map[uint16]int{}
	}
	h, ok := n.ahead[c]
	if !ok {
		h = jsstring.Inf
		if g := jsstring.LastIndexOfUnit(e, c, len(e)-1); g >= 0 {
			h = len(e) - g
		}
		n.ahead[c] = h
	}
	return len(e)-r >= h
}

// past is vl.past for a search of s from r: the end of the match, -1.
func (n *mdNotes) past(e jsstring.String, key, s string, r int) int {
	if n.absent == nil {
		n.absent = map[string]int{}
	}
	if a, ok := n.absent[key]; ok && len(e)-r <= a {
		return -1
	}
	if i := jsstring.IndexOf(e, s, r); i >= 0 {
		return i + len(s)
	}
	n.absent[key] = len(e) - r
	return -1
}

// inlineTokens is Wze.inlineTokens.
func (lx *mdLexer) inlineTokens(e jsstring.String, tokens []*mdToken) []*mdToken {
	toks := tokens
	f := lx.frame(e, &toks, false)
	var tok *mdToken
	for lx.inlineStep(f, tok) {
		tok = lx.emStrong(f.rest, f.mask, f.before)
	}
	lx.notes = f.outerNotes
	return *f.tokens
}

// inlineStep is Wze.#o; it returns to the caller for emphasis.
func (lx *mdLexer) inlineStep(f *mdFrame, o *mdToken) bool {
	y, k, before, p := f.rest, f.tried, f.before, f.last
	d := o
	method := ""
	for {
		if d != nil {
			isText := method == "inlineText"
			if p != nil && p.typ == "text" && (isText || method == "reflink" && d.typ == "text") {
				p.addText(d.text)
				p.addRaw(d.raw)
			} else {
				*f.tokens = append(*f.tokens, d)
				p = d
			}
			if len(d.raw) == 0 {
				return false // only guards the port: no tokenizer makes an empty token
			}
			if !isText || d.raw[len(d.raw)-1] != '_' {
				if isText {
					before = d.raw[len(d.raw)-1:]
				} else {
					before = nil
				}
			}
			y = y[min(len(d.raw), len(y)):]
			k = 0
		}
		if len(y) == 0 {
			return false
		}
		d, method = nil, ""
		methods := mdInlineMethods(int(y[0]))
		for d == nil {
			if k >= len(methods) {
				panic(errMdStoppedShort)
			}
			method = methods[k]
			k++
			if method == "emStrong" {
				if !f.maskSet {
					f.mask, f.maskSet = mdMask(f.text, lx.links), true
				}
				f.rest, f.tried, f.before, f.last = y, k, before, p
				return true
			}
			d = lx.inlineTokenizer(method, y)
		}
	}
}

// mdInlineMethods is NS (gfm off: url and del never make a token, and
// are left out).
func mdInlineMethods(c int) []string {
	switch c {
	case '\\':
		return []string{"escape", "br", "inlineText"}
	case ' ':
		return []string{"br", "inlineText"}
	case '<':
		return []string{"tag", "autolink", "inlineText"}
	case '!', '[':
		return []string{"link", "reflink", "inlineText"}
	case '*', '_':
		return []string{"emStrong", "inlineText"}
	case '`':
		return []string{"codespan", "inlineText"}
	}
	return []string{"inlineText"}
}

func (lx *mdLexer) inlineTokenizer(m string, e jsstring.String) *mdToken {
	switch m {
	case "escape":
		if jsstring.At(e, 0) == '\\' {
			if c := jsstring.At(e, 1); c >= '!' && c <= '~' && !jsstring.IsASCIILetter(c) && !jsstring.IsASCIIDigit(c) {
				return &mdToken{typ: "escape", raw: e[:2], text: e[1:2]}
			}
		}
	case "br":
		if n := mdBreak(e); n != -1 {
			return &mdToken{typ: "br", raw: e[:n]}
		}
	case "inlineText":
		n := mdTextEnd(e)
		return &mdToken{typ: "text", raw: e[:n], text: e[:n]}
	case "tag":
		if n := mdTag(e, lx.notes); n > 0 {
			return &mdToken{typ: "html", raw: e[:n], text: e[:n]}
		}
	case "autolink":
		return mdAutolink(e)
	case "link":
		return lx.link(e)
	case "reflink":
		return lx.reflink(e)
	case "codespan":
		if n := mdCodespan(e, lx.notes); n > 0 {
			return &mdToken{typ: "codespan", raw: e[:n]}
		}
	}
	return nil
}

// mdTrailingSpace is the length of e's trailing whitespace (hS's
// endSpace, which the original keeps from the call's first rest: the same
// for every later rest, a suffix of it).
func mdTrailingSpace(e jsstring.String) int {
	j := len(e)
	for j > 0 && jsstring.IsSpace(int(e[j-1])) {
		j--
	}
	return len(e) - j
}

// mdBreak is mS (kI: /(?:\\|  +)\n/y, then something after it).
func mdBreak(e jsstring.String) int {
	r := -1
	if jsstring.At(e, 0) == '\\' && jsstring.At(e, 1) == '\n' {
		r = 2
	} else if n := skipUnit(e, 0, ' '); n >= 2 && jsstring.At(e, n) == '\n' {
		r = n + 1
	}
	if r != -1 && len(e)-r > mdTrailingSpace(e) {
		return r
	}
	return -1
}

// mdTextEnd is SS (gfm off): where a text token ends.
func mdTextEnd(e jsstring.String) int {
	h := 1
	if e[0] == '`' {
		h = skipUnit(e, 0, '`')
	}
	// Kt(xI): the next of !*<[\_` or the "\n" of "  \n".
	for i := h; i < len(e); i++ {
		switch e[i] {
		case '!', '*', '<', '[', '\\', '_', '`':
			return i
		case ' ':
			if jsstring.At(e, i+1) == ' ' && jsstring.At(e, i+2) == '\n' {
				y := i + 2
				if len(e)-y <= mdTrailingSpace(e) {
					return len(e)
				}
				k := y
				for k > h && e[k-1] == ' ' {
					k--
				}
				return k
			}
		}
	}
	return len(e)
}

// mdTag is pS: an inline HTML tag, comment, declaration or processing
// instruction; its length or -1.
func mdTag(e jsstring.String, notes *mdNotes) int {
	if jsstring.At(e, 0) != '<' {
		return -1
	}
	switch jsstring.At(e, 1) {
	case '?':
		return notes.past(e, "?>", "?>", 2)
	case '!':
		if jsstring.StartsWith(e, "--", 2) {
			return notes.past(e, "-->", "-->", 2)
		}
		if jsstring.StartsWith(e, "[CDATA[", 2) {
			return notes.past(e, "]]>", "]]>", 9)
		}
		// mI: /[A-Z]+\s/iy
		i := 2
		for jsstring.IsASCIILetter(jsstring.At(e, i)) {
			i++
		}
		if i == 2 || i >= len(e) || !jsstring.IsSpace(int(e[i])) {
			return -1
		}
		return notes.past(e, ">", ">", i+1)
	case '/':
		// hI: /[A-Z][-:\w]*\s*>/iy
		i := 2
		if !jsstring.IsASCIILetter(jsstring.At(e, i)) {
			return -1
		}
		i++
		for c := jsstring.At(e, i); c == '-' || c == ':' || jsstring.IsWordUnit(c); c = jsstring.At(e, i) {
			i++
		}
		i = skipJSSpace(e, i)
		if jsstring.At(e, i) != '>' {
			return -1
		}
		return i + 1
	}
	r := tagNameEnd(e, 1)
	if r == 1 || !notes.isAhead(e, '>', r) {
		return -1
	}
	return mdAttrsEnd(e, r)
}

// mdAttrsEnd is P_: attributes (wP), then \s*\/?>; the tag's end or -1.
func mdAttrsEnd(e jsstring.String, o int) int {
	for {
		n := mdAttr(e, o)
		if n <= o {
			break
		}
		o = n
	}
	o = skipJSSpace(e, o)
	if jsstring.At(e, o) == '/' {
		o++
	}
	if jsstring.At(e, o) != '>' {
		return -1
	}
	return o + 1
}

// mdAttr is wP: /\s+[:A-Z_][-.:\w]*(?:\s*=\s*(?:[^\s"'<=>`]+|'[^']*'|"[^"]*"))?/iy.
func mdAttr(e jsstring.String, o int) int {
	i := skipJSSpace(e, o)
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
	j := skipJSSpace(e, i)
	if jsstring.At(e, j) != '=' {
		return i
	}
	j = skipJSSpace(e, j+1)
	switch c := jsstring.At(e, j); {
	case c == '\'' || c == '"':
		if k := jsstring.IndexOfUnit(e, uint16(c), j+1); k >= 0 {
			return k + 1
		}
		return i
	case c != -1 && mdUnquoted(c):
		k := j
		for k < len(e) && mdUnquoted(int(e[k])) {
			k++
		}
		return k
	}
	return i
}

// mdAutolink is the autolink tokenizer: <scheme:…> or <address@host>.
func mdAutolink(e jsstring.String) *mdToken {
	// FI: /<[A-Z][-+.\dA-Z]{1,31}:[!-;=?-\uffff]*>/iy
	if jsstring.At(e, 0) == '<' && jsstring.IsASCIILetter(jsstring.At(e, 1)) {
		i := 2
		for c := jsstring.At(e, i); c == '-' || c == '+' || c == '.' || jsstring.IsASCIIDigit(c) || jsstring.IsASCIILetter(c); c = jsstring.At(e, i) {
			i++
		}
		// ":" is not in the run's class: the run itself must be 1 to 31 long
		if n := i - 2; n >= 1 && jsstring.At(e, i) == ':' && n <= 31 {
			j := i + 1
			for c := jsstring.At(e, j); c >= '!' && c != '<' && c != '>'; c = jsstring.At(e, j) {
				j++
			}
			if jsstring.At(e, j) == '>' {
				s := e[:j+1]
				space := false
				for _, u := range s {
					if jsstring.IsSpace(int(u)) {
						space = true
						break
					}
				}
				if !space {
					return mdLinkText(s, s[1:len(s)-1])
				}
			}
		}
	}
	// BI: /<[-!#-'*+./=?\w`{-~]+@/y
	if jsstring.At(e, 0) != '<' {
		return nil
	}
	i := 1
	for i < len(e) && mdAddressUnit(int(e[i])) {
		i++
	}
	if i == 1 || jsstring.At(e, i) != '@' {
		return nil
	}
	r := i + 1
	h := r
	for {
		n := mdDomainLabel(e, h, '.')
		if n <= h {
			break
		}
		h = n
	}
	if h <= r {
		return nil
	}
	g := mdDomainLabel(e, h, '>')
	if g == -1 {
		return nil
	}
	return mdLinkText(e[:g], e[1:g-1])
}

func mdAddressUnit(c int) bool {
	switch {
	case c == '-' || c == '!' || c >= '#' && c <= '\'' || c == '*' || c == '+' || c == '.' || c == '/' || c == '=' || c == '?':
		return true
	case jsstring.IsWordUnit(c) || c == '`' || c >= '{' && c <= '~':
		return true
	}
	return false
}

// mdDomainLabel is UI (end '.') and $I (end '>'): a label of letters,
// digits and "-", not starting with "-" nor 64 long, ending in a letter or
// digit, then end; the position after end, -1 for none.
func mdDomainLabel(e jsstring.String, o int, end uint16) int {
	if jsstring.At(e, o) == '-' {
		return -1
	}
	j := o
	for c := jsstring.At(e, j); c == '-' || jsstring.IsASCIIDigit(c) || jsstring.IsASCIILetter(c); c = jsstring.At(e, j) {
		j++
	}
	if j-o >= 64 {
		return -1
	}
	if j == o || jsstring.At(e, j-1) == '-' || jsstring.At(e, j) != int(end) {
		return -1
	}
	return j + 1
}

func mdLinkText(raw, text jsstring.String) *mdToken {
	return &mdToken{typ: "link", raw: raw, text: text, tokens: []*mdToken{{typ: "text", raw: text, text: text}}}
}

// mdCodespan is the codespan tokenizer (Zu, fS): a closing run as long as
// the opening one.
func mdCodespan(e jsstring.String, notes *mdNotes) int {
	o := skipUnit(e, 0, '`')
	if o == 0 {
		return -1
	}
	if notes.absent == nil {
		notes.absent = map[string]int{}
	}
	key := "`" + itoa(o)
	if a, ok := notes.absent[key]; ok && len(e)-o <= a {
		return -1
	}
	for g := jsstring.IndexOfUnit(e, '`', o); g != -1; {
		y := skipUnit(e, g, '`')
		if y-g == o {
			return y
		}
		g = jsstring.IndexOfUnit(e, '`', y)
	}
	notes.absent[key] = len(e) - o
	return -1
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// link is the link tokenizer: [text](destination "title").
func (lx *mdLexer) link(e jsstring.String) *mdToken {
	o := 0
	if jsstring.At(e, 0) == '!' {
		o = 1
	}
	if jsstring.At(e, o) != '[' {
		return nil
	}
	r := mdBracketEnd(e, o+1)
	if r == -1 || jsstring.At(e, r+1) != '(' {
		return nil
	}
	end := mdDestination(e, r+1, lx.notes)
	if end == -1 {
		return nil
	}
	return lx.linkToken(e[:end], e[o+1:r])
}

// linkToken is OS: an image has no tokens; a link's text is lexed.
func (lx *mdLexer) linkToken(raw, text jsstring.String) *mdToken {
	var k jsstring.String
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' && i+1 < len(text) && (text[i+1] == '[' || text[i+1] == ']') {
			k = append(k, text[i+1])
			i++
			continue
		}
		k = append(k, text[i])
	}
	if raw[0] == '!' {
		return &mdToken{typ: "image", raw: raw, text: k}
	}
	lx.inLink = true
	toks := lx.inlineTokens(k, nil)
	lx.inLink = false
	return &mdToken{typ: "link", raw: raw, text: k, tokens: toks}
}

// mdBracketEnd is Xu: the "]" that ends link text starting at o.
func mdBracketEnd(e jsstring.String, o int) int {
	inner := false
	next := func(from int) int {
		for i := max(from, 0); i < len(e); i++ {
			switch e[i] {
			case '[', '\\', ']', '`':
				return i
			}
		}
		return len(e)
	}
	for h := next(o); h < len(e); h = next(h + 1) {
		switch e[h] {
		case '\\':
			h++
			if h == len(e) || jsstring.IsLineEnd(int(e[h])) {
				return -1
			}
		case '`':
			if !inner {
				h = jsstring.IndexOfUnit(e, '`', h+1)
				if h == -1 {
					return -1
				}
			}
		case '[':
			if inner {
				return -1
			}
			inner = true
		case ']':
			if !inner {
				return h
			}
			inner = false
		}
	}
	return -1
}

func mdDestUnit(c int) bool {
	return c >= '!' && c <= '~' && c != '(' && c != ')' && c != '<' && c != '\\'
}

// mdDestination is eS: the end of "(destination title)" at o, -1 for
// none.
func mdDestination(e jsstring.String, o int, notes *mdNotes) int {
	// JP: /\([!-'*-;=-[\]-~]+\)/y
	if jsstring.At(e, o) == '(' {
		j := o + 1
		for j < len(e) && mdDestUnit(int(e[j])) {
			j++
		}
		if j > o+1 && jsstring.At(e, j) == ')' {
			return j + 1
		}
	}
	if !notes.isAhead(e, ')', o) {
		return -1
	}
	g := skipJSSpace(e, o+1)
	angle := jsstring.At(e, g) == '<'
	if angle && !notes.isAhead(e, '>', g) {
		return -1
	}
	// qP: /[^!-\uffff]|\s/g
	k := g
	for k < len(e) && !(e[k] < '!' || jsstring.IsSpace(int(e[k]))) {
		k++
	}
	var res *mdDest
	n := 1
	if angle {
		n = 0
	}
	for ; res == nil && n < 3; n++ {
		w, z := g, k
		switch n {
		case 0:
			// QP: /[^\n<>\\]+|\\./y repeated, then ">"
			z = g + 1
			for {
				c := jsstring.At(e, z)
				if c == -1 {
					break
				}
				if c == '\\' {
					if z+1 < len(e) && !jsstring.IsLineEnd(int(e[z+1])) {
						z += 2
						continue
					}
					break
				}
				if c == '\n' || c == '<' || c == '>' {
					break
				}
				z++
			}
			if z > g+1 && jsstring.At(e, z) == '>' {
				z++
			} else {
				z = -1
			}
		case 2:
			z = jsstring.LastIndexOfUnit(e, ')', k-1)
			if z < g {
				w, z = o+1, o+1
			}
		}
		res = mdDestTitle(e, w, z)
	}
	if res == nil {
		return -1
	}
	p := res.dest
	if !angle {
		if n := mdUnbalanced(p); n != -1 {
			return len(jsstring.TrimEnd(e[:min(o+n+2, len(e))]))
		}
		return res.end
	}
	d := len(p) - 1
	for jsstring.At(p, d-1) == '\\' {
		d--
	}
	if len(p) == 0 || p[len(p)-1] != '>' || (len(p)-1-d)%2 == 1 {
		return -1
	}
	return res.end
}

type mdDest struct {
	end  int
	dest jsstring.String
}

// mdDestTitle is ZP.
func mdDestTitle(e jsstring.String, o, r int) *mdDest {
	if r == -1 {
		return nil
	}
	h := skipJSSpace(e, r)
	g := jsstring.At(e, h)
	if g == ')' {
		return &mdDest{end: h + 1, dest: e[o:r]}
	}
	if h == r || g == -1 || g != '"' && g != '\'' && g != '(' {
		return nil
	}
	q := uint16(g)
	if g == '(' {
		q = ')'
	}
	k := mdClosingQuote(e, h, q, mdCloseParen)
	if k == -1 {
		return nil
	}
	return &mdDest{end: mdCloseParen(e, k+1), dest: e[o:r]}
}

// mdCloseParen is Z_: whitespace then ")".
func mdCloseParen(e jsstring.String, o int) int {
	r := skipJSSpace(e, o)
	if jsstring.At(e, r) == ')' {
		return r + 1
	}
	return -1
}

// mdUnbalanced is eI: the first ")" outside parentheses, -1 for none.
func mdUnbalanced(e jsstring.String) int {
	o := 0
	next := func(from int) int {
		for i := from; i < len(e); i++ {
			if c := e[i]; c == '(' || c == ')' || c == '\\' {
				return i
			}
		}
		return len(e)
	}
	for r := next(0); r < len(e); {
		h := e[r]
		if h == ')' && o == 0 {
			return r
		}
		esc := h == '\\'
		switch {
		case esc:
		case h == '(':
			o++
		default:
			o--
		}
		if esc {
			r = next(r + 2)
		} else {
			r = next(r + 1)
		}
	}
	return -1
}

// mdRef is Al: a reference link's text and label.
type mdRef struct {
	end         int
	text, label jsstring.String
	short       bool
}

func mdRefAt(e jsstring.String, o int) *mdRef {
	if r := mdBracketEnd(e, o+1); r != -1 {
		k := r + 1
		if jsstring.At(e, k) == '[' {
			if rr := mdLabelEnd(e, k+1); rr != -1 {
				p := e[o+1 : r]
				d := e[k+1 : rr]
				if len(d) == 0 {
					d = p
				}
				return &mdRef{end: rr + 1, text: p, label: d}
			}
		}
	}
	h := mdLabelEnd(e, o+1)
	if h == -1 {
		return nil
	}
	g := e[o+1 : h]
	end := h + 1
	if jsstring.StartsWith(e, "[]", h+1) {
		end = h + 3
	}
	return &mdRef{end: end, text: g, label: g, short: true}
}

// reflink is the reflink tokenizer: a link through a definition, else
// its first character as text.
func (lx *mdLexer) reflink(e jsstring.String) *mdToken {
	r := 0
	if jsstring.At(e, 0) == '!' {
		r = 1
	}
	if jsstring.At(e, r) != '[' {
		return nil
	}
	h := mdRefAt(e, r)
	if h == nil {
		return nil
	}
	if !lx.links[mdNormLabel(h.label)] {
		return &mdToken{typ: "text", raw: e[:1], text: e[:1]}
	}
	return lx.linkToken(e[:h.end], h.text)
}

// emStrong is lD: emphasis or strong emphasis at a run of * or _.
func (lx *mdLexer) emStrong(o, mask, before jsstring.String) *mdToken {
	y := jsstring.At(o, 0)
	if y != '*' && y != '_' {
		return nil
	}
	k := lx.notes
	if len(o) <= k.afterMarks {
		k.afterMarks = len(o) - skipUnit(o, 1, uint16(y))
	}
	r := len(o) - k.afterMarks
	if r >= len(o) || r < 0 || mdClass(int(o[r])) == 0 {
		return nil
	}
	if !mdCanOpen(o, r, before) {
		return nil
	}
	d := mdCloser(mask, max(0, len(mask)-len(o)+r), y, r, k)
	if d == nil {
		return nil
	}
	n := min(r+d.start+d.size, len(o))
	raw := o[:n]
	w := 2 - (min(r, d.size) & 1)
	var text jsstring.String
	if len(raw) > 2*w {
		text = raw[w : len(raw)-w]
	}
	t := &mdToken{typ: "strong", raw: raw, text: text}
	if w == 1 {
		t.typ = "em"
	}
	t.tokens = lx.inlineTokens(text, nil)
	return t
}

// mdElClass is El with gfm off.
func mdElClass(c int) int {
	if c == -1 {
		return 0
	}
	return mdClass(c)
}

// mdCanOpen is V_: whether the run can open emphasis, given the
// character before it.
func mdCanOpen(e jsstring.String, o int, before jsstring.String) bool {
	g := jsstring.CodePointAt(before, 0)
	if g == -1 {
		return true
	}
	if mdElClass(jsstring.CodePointAt(e, o)) == 2 {
		return e[0] == '*' || !mdLetterOrNumber(before)
	}
	return g != '*' && g != '_' && mdElClass(g) != 2
}

// mdLetterOrNumber is zP: /^[\p{L}\p{N}]/u.
func mdLetterOrNumber(s jsstring.String) bool {
	c := jsstring.CodePointAt(s, 0)
	if c < 0 || c >= 0xd800 && c <= 0xdfff {
		return false
	}
	return unicode.IsLetter(rune(c)) || unicode.IsNumber(rune(c))
}

type mdClose struct{ start, size int }

// mdCloser is Y_: the run in the mask that closes the one ending at o.
func mdCloser(e jsstring.String, o, r, h int, k *mdNotes) *mdClose {
	star := r == '*'
	p := k.closers[r]
	if p != nil && len(e)-o < p.last && jsstring.At(e, o+1) != r {
		return nil
	}
	d := uint16(r)
	n, w := h, 0
	z := mdFlanking(e, o, r)
	hh := z - 1
	kk := 1
	for zz := jsstring.IndexOfUnit(e, d, z); zz != -1; {
		q := skipUnit(e, zz+1, d)
		if zz == o {
			zz = jsstring.IndexOfUnit(e, d, q)
			continue
		}
		if p != nil && zz > o+1 && len(e)-zz < p.last {
			return nil
		}
		ee := jsstring.At(e, zz-1)
		if ee >= 0xdc00 && ee <= 0xdfff && zz-2 >= o {
			if we := jsstring.CodePointAt(e, zz-2); we > 0xffff {
				ee = we
			}
		}
		ie := jsstring.CodePointAt(e, q)
		me, be := mdElClass(ee), mdElClass(ie)
		both := me == be && (me == 1 || star && me == 2)
		switch {
		case me < be && !both:
			n += q - zz
			marks := jsstring.Inf
			if p != nil {
				marks = p.marks
			}
			if n > marks {
				return nil
			}
		case me > be || both:
			hh = zz
			kk += q - zz
			if both && h%3 != 0 && (h+q-zz)%3 == 0 {
				w += q - zz
			} else {
				n -= q - zz
				if n <= 0 {
					return &mdClose{start: zz - o, size: q - zz + min(0, n+w)}
				}
			}
		}
		zz = jsstring.IndexOfUnit(e, d, q)
	}
	k.closers[r] = &mdCloserNote{last: len(e) - hh, marks: kk}
	return nil
}

// mdFlanking is KP: past "__…*…__" (for *) or "**…_…**" (for _) right
// after the run, whose inner mark cannot close it.
func mdFlanking(e jsstring.String, o, r int) int {
	i := o
	other := func(c int) bool { return c != '*' && c != '_' && c != -1 }
	for other(jsstring.At(e, i)) {
		i++
	}
	var a, b uint16 = '_', '*'
	if r != '*' {
		a, b = '*', '_'
	}
	if jsstring.At(e, i) != int(a) || jsstring.At(e, i+1) != int(a) {
		return o
	}
	i += 2
	for other(jsstring.At(e, i)) {
		i++
	}
	if jsstring.At(e, i) != int(b) {
		return o
	}
	i++
	for other(jsstring.At(e, i)) {
		i++
	}
	if jsstring.At(e, i) != int(a) || jsstring.At(e, i+1) != int(a) {
		return o
	}
	return max(o, i)
}

// mdMask is rS: the text with reference links, inline links, tags, code
// spans and escapes masked, where emphasis looks for closing runs.
func mdMask(e jsstring.String, links map[string]bool) jsstring.String {
	if len(links) > 0 {
		e = mdMaskRefs(e, links)
	}
	return mdMaskEscapes(mdMaskSpans(e))
}

func mdPlaceholder(n int) jsstring.String {
	out := make(jsstring.String, max(n, 2))
	out[0] = '['
	for i := 1; i < len(out)-1; i++ {
		out[i] = 'a'
	}
	out[len(out)-1] = ']'
	return out
}

// mdMaskRefs is tI.
func mdMaskRefs(e jsstring.String, links map[string]bool) jsstring.String {
	var r jsstring.String
	h := 0
	g := jsstring.IndexOfUnit(e, '[', 0)
	for g != -1 {
		y := mdRefAt(e, g)
		k := -1
		if y != nil {
			k = y.end
			if y.short && jsstring.At(e, k) == '(' {
				if jsstring.At(e, k-2) == '[' && k-g == len(y.label)+4 {
					k -= 2
				} else {
					k = -1
				}
			}
		}
		if k == -1 {
			g = jsstring.IndexOfUnit(e, '[', g+1)
			continue
		}
		label := e[jsstring.LastIndexOfUnit(e, '[', k-1)+1 : max(k-1, jsstring.LastIndexOfUnit(e, '[', k-1)+1)]
		if links[jsKey(label)] {
			rr := g
			if g > h && e[g-1] == '!' {
				rr = g - 1
			}
			r = append(r, e[h:rr]...)
			r = append(r, mdPlaceholder(k-rr)...)
			h = k
		}
		g = jsstring.IndexOfUnit(e, '[', k)
	}
	if h == 0 {
		return e
	}
	return jsstring.Cat(r, e[h:])
}

// mdMaskSpans is nS (bi: /\[[^[\]]*]\(|<[^<>]*>|`[^`]*`/g).
func mdMaskSpans(e jsstring.String) jsstring.String {
	var o jsstring.String
	r := 0
	for last := 0; last <= len(e); {
		g, end := -1, -1
		for i := last; i < len(e) && g == -1; i++ {
			switch e[i] {
			case '[':
				j := i + 1
				for j < len(e) && e[j] != '[' && e[j] != ']' {
					j++
				}
				if jsstring.At(e, j) == ']' && jsstring.At(e, j+1) == '(' {
					g, end = i, j+2
				}
			case '<':
				j := i + 1
				for j < len(e) && e[j] != '<' && e[j] != '>' {
					j++
				}
				if jsstring.At(e, j) == '>' {
					g, end = i, j+1
				}
			case '`':
				if j := jsstring.IndexOfUnit(e, '`', i+1); j >= 0 {
					g, end = i, j+1
				}
			}
		}
		if g == -1 {
			break
		}
		y := end
		if e[g] == '[' {
			y = mdParenEnd(e, end)
		}
		if y != -1 {
			o = append(o, e[r:g]...)
			o = append(o, mdPlaceholder(y-g)...)
			r = y
		}
		last = max(y, g+1)
	}
	return jsstring.Cat(o, e[min(r, len(e)):])
}

// mdParenEnd is nI: the ")" closing a link's "(", nesting once.
func mdParenEnd(e jsstring.String, o int) int {
	r := 1
	for h := o; h < len(e); h++ {
		switch e[h] {
		case '\\':
			h++
			if h == len(e) || jsstring.IsLineEnd(int(e[h])) {
				return -1
			}
		case '(':
			r++
			if r > 2 {
				return -1
			}
		case ')':
			r--
			if r == 0 {
				return h + 1
			}
		}
	}
	return -1
}

// mdMaskEscapes is oS: a backslash and the punctuation it escapes become
// "++".
func mdMaskEscapes(e jsstring.String) jsstring.String {
	var o jsstring.String
	r := 0
	h := jsstring.IndexOfUnit(e, '\\', 0)
	for h != -1 {
		g := jsstring.CodePointAt(e, h+1)
		astral := g > 0xffff
		if g != -1 && mdClass(g) == 1 {
			o = append(o, e[r:h]...)
			o = append(o, jsstring.Lit("++")...)
			r = h + 2
			if astral {
				r = h + 3
			}
		}
		from := h + 1
		if r > h {
			from = r
			if astral {
				from++
			}
		}
		h = jsstring.IndexOfUnit(e, '\\', from)
	}
	return jsstring.Cat(o, e[min(r, len(e)):])
}
