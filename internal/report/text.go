package report

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/shell"
)

const maxListedDirs = 5

// Text writes the findings for people, errors first (docs/behaviour.md,
// "Text output"). Each starts with one line an editor's error parser reads,
//
//	path:line:col: severity RULE name: what
//
// (`path:line:` for a whole line, `path:` for a whole file), then indented
// lines: the rest of the message a clause a line, the source line with a
// caret under the column, how to fix it, and the directories it affects.
// A summary line ends the output. With Options.Width set, lines are
// wrapped between words to that width.
func Text(w io.Writer, r *lint.Result, o Options) error {
	return writeText(w, r, o, false)
}

// Line is the text format with each finding's message whole on its first
// line, `path:line:col: severity RULE name: message`, never wrapped and
// with no excerpt: for grep, an editor's error format, a log searched
// later.
func Line(w io.Writer, r *lint.Result, o Options) error {
	o.Width = 0
	return writeText(w, r, o, true)
}

func writeText(w io.Writer, r *lint.Result, o Options, oneLine bool) error {
	bw := bufio.NewWriter(w)
	// A line that fills the last column makes some terminals (Windows'
	// console, auto-margin terminals) move to the next line on their own,
	// showing a blank one: lines stay a column short of the width.
	tw := textWriter{w: bw, width: max(o.Width-1, 0), oneLine: oneLine}
	findings := slices.Clone(r.Findings)
	// Errors first, then warnings, then notices; the path order within.
	slices.SortStableFunc(findings, func(a, b lint.Finding) int { return cmp.Compare(b.Severity, a.Severity) })
	fixable, old := 0, 0
	for _, f := range findings {
		if f.Repair.Says() != "" && !f.User {
			fixable++
		}
		if f.Old() {
			old++
		}
		tw.finding(f, r.BaseLabel, o)
	}
	tw.drift(r.Drift)
	s := r.Summary()
	tw.line("", fmt.Sprintf("%s, %s, %s in %s", plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"),
		plural(s.Notices, "notice", "notices"), plural(s.Directories, "directory", "directories")))
	if old > 0 {
		// B6: how many the change did not bring.
		tw.line("", fmt.Sprintf("%s already in %s, %d new", plural(old, "finding", "findings"), safe(r.BaseLabel), len(findings)-old))
	}
	if fixable > 0 {
		// Issue #26: say what to do next, once.
		tw.line("", fmt.Sprintf("%d of %d can be fixed with `rivumi-lint fix` (`rivumi-lint fix --dry-run` shows the changes first)", fixable, len(findings)))
	}
	return bw.Flush()
}

// textWriter writes indented, word-wrapped lines.
type textWriter struct {
	w       *bufio.Writer
	width   int  // 0: no wrapping
	oneLine bool // the Line format
}

const indent = "    "

func (t textWriter) finding(f lint.Finding, base string, o Options) {
	loc := lineStart(safe(f.Path))
	if f.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, f.Line)
		if f.Column > 0 {
			loc = fmt.Sprintf("%s:%d", loc, f.Column)
		}
	}
	head := fmt.Sprintf("%s: %s %s %s: ", loc, paint(o, f.Severity), f.Rule, f.Name)
	if t.oneLine {
		t.w.WriteString(head + safe(f.Message) + "\n")
		if s := f.Repair.Says(); s != "" && !f.User {
			t.line(indent+"fix: ", safe(fmt.Sprintf("run `rivumi-lint fix %s`: it %s, where that is safe", shell.Path(f.Path), s)))
		}
		t.affects(f)
		t.old(f, base)
		return
	}
	what, fix := splitFix(f.Message)
	clauses := splitClauses(what)
	// The colour codes take no columns.
	t.wrapped(head, len(head)-len(paint(o, f.Severity))+len(f.Severity.String()), indent+"  ", safe(clauses[0]))
	for _, c := range clauses[1:] {
		t.wrapped(indent, len(indent), indent+"  ", safe(c))
	}
	if f.Line > 0 && f.Excerpt != "" {
		t.excerpt(f.Line, f.Column, f.Excerpt)
	}
	says := ""
	if s := f.Repair.Says(); s != "" && !f.User {
		says = fmt.Sprintf("or run `rivumi-lint fix %s`: it %s, where that is safe", shell.Path(f.Path), s)
	}
	switch {
	case fix != "":
		t.line(indent+"fix: ", safe(fix))
		if says != "" {
			t.line(indent+"     ", safe(says))
		}
	case says != "":
		t.line(indent+"fix: ", safe(strings.TrimPrefix(says, "or ")))
	}
	t.affects(f)
	t.old(f, base)
}

// old says that the change's base already has the finding (B6): the
// change did not bring it.
func (t textWriter) old(f lint.Finding, base string) {
	if f.Old() {
		t.line(indent, fmt.Sprintf("already in %s: not brought by this change", safe(base)))
	}
}

// affects names the directories whose chain the finding affects.
func (t textWriter) affects(f lint.Finding) {
	if n := len(f.Directories); n > 0 {
		shown := f.Directories[:min(n, maxListedDirs)]
		more := ""
		if n > maxListedDirs {
			more = fmt.Sprintf(" (and %d more)", n-maxListedDirs)
		}
		t.line(indent+"affects: ", safe(strings.Join(shown, ", "))+more)
	}
}

// drift names each group of directories whose chain the change alters.
func (t textWriter) drift(drift []lint.Drift) {
	for _, d := range drift {
		n := len(d.Directories)
		shown := d.Directories[:min(n, maxListedDirs)]
		more := ""
		if n > maxListedDirs {
			more = fmt.Sprintf(" (and %d more)", n-maxListedDirs)
		}
		t.line("", fmt.Sprintf("drift: what Rivumi will load changes in %s%s:", safe(strings.Join(shown, ", ")), more))
		for _, c := range d.Changes {
			line := c.Change + ": " + safe(c.Path)
			if c.Detail != "" {
				line += " (" + safe(c.Detail) + ")"
			}
			t.line(indent, line)
		}
	}
}

// line writes prefix and text, wrapped with continuation lines indented
// to the prefix's width.
func (t textWriter) line(prefix, text string) {
	t.wrapped(prefix, len(prefix), strings.Repeat(" ", len(prefix)), text)
}

// wrapped writes prefix (taking cols columns) then text, breaking text
// between words so that no line exceeds the width; a word longer than a
// line is written whole. A code span holding a space (a command to paste,
// such as `cp A B && mv B A`) is never broken (#33.7): a newline inside it
// makes the pasted command fail. One that does not fit on the current line
// gets a line of its own, even past the width, and the text after it goes
// on the next. Continuation lines start with cont. Each line is checked
// whole before it is written: a run of spaces in text can leave "::"
// first on a line however the words fall.
func (t textWriter) wrapped(prefix string, cols int, cont, text string) {
	var cur strings.Builder
	cur.WriteString(prefix)
	col := cols
	breakLine := func() {
		t.w.WriteString(lineStartText(cur.String()) + "\n")
		cur.Reset()
		cur.WriteString(cont)
		col = len(cont)
	}
	ownLine := false // the last word was a span on a line of its own
	for i, w := range atoms(strings.Split(text, " ")) {
		wl := displayWidth(w)
		if i > 0 {
			fits := t.width == 0 || col+1+wl <= t.width
			span := t.width > 0 && strings.Contains(w, " ")
			switch {
			case ownLine && col > len(cont), !fits && col > len(cont):
				breakLine()
			default:
				cur.WriteByte(' ')
				col++
			}
			ownLine = span && !fits
		}
		cur.WriteString(w)
		col += wl
	}
	t.w.WriteString(lineStartText(cur.String()) + "\n")
}

// atoms joins the words of each code span that holds a space back into one
// word, so that wrapped never breaks it: a span runs from a word with an
// odd number of backticks to the next such word. A backtick left open to
// the end of the text starts no span (a name may hold one).
func atoms(words []string) []string {
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		if strings.Count(words[i], "`")%2 == 0 {
			out = append(out, words[i])
			continue
		}
		end := -1
		for k := i + 1; k < len(words); k++ {
			if strings.Count(words[k], "`")%2 == 1 {
				end = k
				break
			}
		}
		if end < 0 {
			out = append(out, words[i])
			continue
		}
		out = append(out, strings.Join(words[i:end+1], " "))
		i = end
	}
	return out
}

// excerpt writes the source line and a caret under the column (a whole-line
// finding gets no caret). Tabs become spaces to the next multiple of 8;
// control and format characters are shown as escapes, so the caret points
// at the escape of a hidden character. A line too long for the width is cut
// around the column.
func (t textWriter) excerpt(line, column int, src string) {
	if strings.Count(src, "\x00")*4 > len(src) {
		return // UTF-16 or binary: the message names the encoding
	}
	col := column - 1
	if col < 0 || col > len(src) {
		col = -1
	}
	var before, after string
	if col >= 0 {
		before, after = excerptText(src[:col], 0), src[col:]
		after = excerptText(after, displayWidth(before))
	} else {
		before = excerptText(src, 0)
	}
	num := fmt.Sprintf("%s%d | ", indent, line)
	gutter := strings.Repeat(" ", len(num)-2) + "| "
	room := 1 << 30
	if t.width > 0 {
		room = max(t.width-len(num), 20)
	}
	// Cut the start so the caret stays in view, then the end.
	if w := displayWidth(before); w > room-10 {
		before = "…" + trimLeftCols(before, w-(room-10)+1)
	}
	text := before + after
	if displayWidth(text) > room {
		text = trimRightCols(text, room-1) + "…"
	}
	t.w.WriteString(num + text + "\n")
	if col >= 0 {
		t.w.WriteString(gutter + strings.Repeat(" ", displayWidth(before)) + "^\n")
	}
}

// excerptText escapes a part of a source line for the terminal, expanding
// tabs as if the part started at column start.
func excerptText(s string, start int) string {
	var b strings.Builder
	col := start
	for _, part := range strings.SplitAfter(s, "\t") {
		tab := strings.HasSuffix(part, "\t")
		part = strings.TrimSuffix(part, "\t")
		e := escapeLine(part, escFormat|escRunnerV1)
		b.WriteString(e)
		col += displayWidth(e)
		if tab {
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		}
	}
	return b.String()
}

// trimLeftCols drops at least n columns from the start of s.
func trimLeftCols(s string, n int) string {
	for i, r := range s {
		if n <= 0 {
			return s[i:]
		}
		n -= runeWidth(r)
	}
	return ""
}

// trimRightCols keeps at most n columns of s.
func trimRightCols(s string, n int) string {
	for i, r := range s {
		if n -= runeWidth(r); n < 0 {
			return s[:i]
		}
	}
	return s
}

// splitFix parts a message at its "Fix:" sentence, which every rule ends
// with when it has advice.
func splitFix(msg string) (what, fix string) {
	if i := strings.LastIndex(msg, ". Fix: "); i >= 0 {
		return msg[:i], strings.TrimSuffix(msg[i+len(". Fix: "):], ".")
	}
	return strings.TrimSuffix(msg, "."), ""
}

// splitClauses parts what a message says into its first clause, up to the
// first ": ", "; " or ". " outside quotes, parentheses and code spans, and
// the following sentences and "; " clauses, one a line.
func splitClauses(s string) []string {
	var out []string
	depth, quote, first := 0, rune(0), true
	start := 0
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
			continue
		case r == '"' || r == '`':
			quote = r
			continue
		case r == '(' || r == '[':
			depth++
		case r == ')' || r == ']':
			depth = max(depth-1, 0)
		}
		if depth > 0 || i+1 >= len(s) || s[i+1] != ' ' {
			continue
		}
		if r == ';' || r == '.' && !abbreviation(s[:i]) || r == ':' && first {
			part := strings.Trim(s[start:i], " ")
			if part != "" {
				out = append(out, part)
			}
			start, first = i+2, false
		}
	}
	if rest := strings.Trim(s[start:], " "); rest != "" || len(out) == 0 {
		out = append(out, rest)
	}
	return out
}

// abbreviation reports whether the text before a ". " ends a word that is
// not a sentence's end: "e.g", "i.e", a version "0.171" is never followed
// by a space, so only these.
func abbreviation(before string) bool {
	return strings.HasSuffix(before, "e.g") || strings.HasSuffix(before, "i.e") || strings.HasSuffix(before, "etc")
}

// displayWidth is how many terminal columns s takes: East Asian wide
// characters and emoji two, everything else one (s is escaped: no
// controls are left).
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case r < 0x1100:
		return 1
	case r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf, r >= 0xac00 && r <= 0xd7a3, r >= 0xf900 && r <= 0xfaff,
		r >= 0xfe30 && r <= 0xfe4f, r >= 0xff00 && r <= 0xff60, r >= 0xffe0 && r <= 0xffe6,
		r >= 0x1f300 && r <= 0x1f64f, r >= 0x1f900 && r <= 0x1f9ff, r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}

// lineStart keeps a path that begins a line from being read as a workflow
// command: the runner takes a line whose text, after leading white space,
// starts with "::" as one (§10). Such a path is written as "./PATH", which
// names the same file.
func lineStart(p string) string {
	if strings.HasPrefix(strings.TrimLeftFunc(p, unicode.IsSpace), ":") {
		return "./" + p
	}
	return p
}

// termLines is SafeLine for multi-line text (a rendered section): tab and
// LF are kept, and a line that would start with "::" starts with \x3a.
// Format characters (bidi, zero-width) are kept: the section is the text
// the model reads, an emoji's zero-width joiners included, and RL010
// reports the ones that hide or reorder text.
func termLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		parts := strings.Split(l, "\t")
		for k, part := range parts {
			parts[k] = escapeLine(part, escRunnerV1)
		}
		lines[i] = lineStartText(strings.Join(parts, "\t"))
	}
	return strings.Join(lines, "\n")
}

// lineStartText keeps a value that begins a line from being read as a
// workflow command (the runner takes a line whose text, after leading
// white space, starts with "::"): its first colon is shown as \x3a.
func lineStartText(s string) string {
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	if strings.HasPrefix(t, "::") {
		return s[:len(s)-len(t)] + `\x3a` + t[1:]
	}
	return s
}

func paint(o Options, s lint.Severity) string {
	if !o.Color {
		return s.String()
	}
	code := "36" // notice: cyan
	switch s {
	case lint.Error:
		code = "1;31"
	case lint.Warning:
		code = "33"
	}
	return "\x1b[" + code + "m" + s.String() + "\x1b[0m"
}
