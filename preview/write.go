package preview

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/lint"
)

// WriteOptions are what a writer may need beyond the preview.
type WriteOptions struct {
	Color bool // ANSI colour in the text format
}

// Format is one output format of the preview: a writer for a whole preview
// and one for a watch event (P6).
type Format struct {
	Name  string
	Write func(w io.Writer, p *Preview, o WriteOptions) error
	Event func(w io.Writer, e Event, o WriteOptions) error
}

var formats = []Format{
	{"text", Text, textEvent},
	{"json", JSON, jsonEvent},
	{"markdown", Markdown, markdownEvent},
}

// Lookup returns the named format.
func Lookup(name string) (Format, bool) {
	for _, f := range formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// FormatNames lists the formats.
func FormatNames() []string {
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = f.Name
	}
	return out
}

// JSON writes the preview as one indented JSON document (docs/preview.md).
// Field names are a public interface: added, never renamed.
func JSON(w io.Writer, p *Preview, _ WriteOptions) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}

// Text writes the preview for a terminal: the section list, every rendered
// section, then the diagnostics (layers, fingerprint, skills, memory,
// budget, findings, notes). Control characters other than tab and LF in
// rendered text and names are shown as \xNN, so file content cannot move
// the cursor or forge lines; the exact bytes are what --section prints.
func Text(w io.Writer, p *Preview, o WriteOptions) error {
	bw := bufio.NewWriter(w)
	c := painter(o.Color)
	fmt.Fprintf(bw, "%s %s\n\n", c.bold("Prompt preview of"), safe(p.Directory))

	fmt.Fprintln(bw, c.bold("Sections (P1):"))
	for i, s := range p.Sections {
		var what string
		switch {
		case s.Kind != KindDynamic:
			what = s.Kind + ", " + s.Note
		case s.Included:
			what = plural(s.Bytes, "byte", "bytes")
		default:
			what = c.dim(s.Note)
		}
		fmt.Fprintf(bw, "  %d. %-13s %s\n", i+1, s.Name, what)
	}

	for _, s := range p.Sections {
		if s.Kind != KindDynamic || !s.Included {
			continue
		}
		fmt.Fprintf(bw, "\n%s\n", c.bold("== "+s.Name+" ("+plural(s.Bytes, "byte", "bytes")+")"))
		bw.WriteString(safeText(s.Text))
	}

	fmt.Fprintf(bw, "\n%s\n", c.bold("Layers (R5):"))
	if len(p.Layers) == 0 {
		fmt.Fprintln(bw, "  none: no instruction file in the chain")
	}
	pw := 0
	for _, l := range p.Layers {
		pw = max(pw, utf8.RuneCountInString(safe(l.Path)))
	}
	for _, l := range p.Layers {
		line := fmt.Sprintf("  %-7s  %-*s  %s", l.Scope, pw, safe(l.Path), c.state(l.State))
		switch l.State {
		case "suppressed":
			line += " by " + safe(l.Reason)
		case "shadowed":
			line += " by " + safe(l.Reason)
		case "rejected":
			line += " (" + l.Reason + ")"
		}
		if l.Bytes > 0 {
			line += ", " + plural(int(l.Bytes), "byte", "bytes")
		}
		fmt.Fprintln(bw, line)
	}
	fmt.Fprintf(bw, "%s %s\n", c.bold("Fingerprint (R8):"), p.Fingerprint)

	if len(p.Skills) > 0 {
		fmt.Fprintf(bw, "\n%s\n", c.bold("Skills (P4b):"))
		nw := 0
		for _, s := range p.Skills {
			nw = max(nw, utf8.RuneCountInString(safe(s.Name)))
		}
		for _, s := range p.Skills {
			line := fmt.Sprintf("  %-*s  %s", nw, safe(s.Name), c.state(s.State))
			if s.Reason != "" {
				line += " (" + s.Reason + ")"
			}
			if s.Problem != "" {
				line += ": " + safe(s.Problem)
			}
			fmt.Fprintln(bw, line)
		}
	}

	fmt.Fprintf(bw, "\n%s ", c.bold("Memory (P4):"))
	if p.Memory.Path == "" {
		fmt.Fprintln(bw, safe(p.Memory.Note))
	} else {
		fmt.Fprintf(bw, "%s, project %q: %s, %d selected, %d rendered, %s\n", safe(p.Memory.Path), p.Memory.Project,
			plural(p.Memory.Lines, "line", "lines"), p.Memory.Selected, p.Memory.Rendered,
			plural(p.Memory.Corrupt, "corrupt line", "corrupt lines"))
	}

	b := p.Budget
	fmt.Fprintf(bw, "\n%s\n", c.bold("Budget (P3):"))
	for _, it := range b.Sections {
		fmt.Fprintf(bw, "  %-13s %7d\n", it.Name, it.Bytes)
	}
	fmt.Fprintf(bw, "  %-13s %7d of %d (limits.max_dynamic_bytes), ", "total", b.Total, b.Limit)
	switch b.Status {
	case "over":
		fmt.Fprintln(bw, c.sev(lint.Error, fmt.Sprintf("over by %d", -b.Remaining)))
	case "warning":
		fmt.Fprintln(bw, c.sev(lint.Warning, fmt.Sprintf("%d remaining, above the warning threshold %d", b.Remaining, b.Warn)))
	default:
		fmt.Fprintf(bw, "%d remaining\n", b.Remaining)
	}

	if len(p.Findings) > 0 {
		fmt.Fprintf(bw, "\n%s\n", c.bold("Findings:"))
		for _, f := range p.Findings {
			fmt.Fprintf(bw, "  %s: %s: %s [%s]\n", safe(location(f)), c.sev(f.Severity, f.Severity.String()), safe(f.Message), f.Rule)
		}
	}
	if len(p.Notes) > 0 {
		fmt.Fprintf(bw, "\n%s\n", c.bold("Notes:"))
		for _, n := range p.Notes {
			fmt.Fprintf(bw, "  %s\n", safe(n))
		}
	}
	s := p.Summary
	fmt.Fprintf(bw, "\n%s, %s, %s\n", plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"), plural(s.Notices, "notice", "notices"))
	return bw.Flush()
}

// Markdown writes the preview for a pull-request comment or a document.
// Rendered sections are fenced code blocks (the fence is longer than any
// backtick run inside); every other value is escaped.
func Markdown(w io.Writer, p *Preview, _ WriteOptions) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Prompt preview of %s\n\n", mdCode(p.Directory))
	fmt.Fprintf(bw, "Fingerprint (R8): %s\n\n", mdCode(p.Fingerprint))
	bw.WriteString("## Sections\n\n| # | section | kind | bytes | note |\n|---:|---|---|---:|---|\n")
	for i, s := range p.Sections {
		bytes := ""
		if s.Kind == KindDynamic {
			bytes = fmt.Sprint(s.Bytes)
		}
		fmt.Fprintf(bw, "| %d | %s | %s | %s | %s |\n", i+1, s.Name, s.Kind, bytes, mdEscape(s.Note))
	}
	for _, s := range p.Sections {
		if s.Kind != KindDynamic || !s.Included {
			continue
		}
		fence := strings.Repeat("`", max(3, longestRun(s.Text, '`')+1))
		fmt.Fprintf(bw, "\n### %s\n\n%stext\n%s%s\n", s.Name, fence, s.Text, fence)
	}
	bw.WriteString("\n## Layers\n\n")
	if len(p.Layers) == 0 {
		bw.WriteString("No instruction file in the chain.\n")
	} else {
		bw.WriteString("| scope | path | state | reason | bytes |\n|---|---|---|---|---:|\n")
		for _, l := range p.Layers {
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %d |\n", l.Scope, mdEscape(l.Path), l.State, mdEscape(l.Reason), l.Bytes)
		}
	}
	if len(p.Skills) > 0 {
		bw.WriteString("\n## Skills\n\n| skill | state | reason | description | problem |\n|---|---|---|---|---|\n")
		for _, s := range p.Skills {
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %s |\n", mdEscape(s.Name), s.State, s.Reason, mdEscape(s.Description), mdEscape(s.Problem))
		}
	}
	bw.WriteString("\n## Memory\n\n")
	if p.Memory.Path == "" {
		fmt.Fprintf(bw, "%s\n", mdEscape(p.Memory.Note))
	} else {
		fmt.Fprintf(bw, "%s, project %s: %d lines, %d selected, %d rendered, %d corrupt.\n", mdEscape(p.Memory.Path),
			mdEscape(p.Memory.Project), p.Memory.Lines, p.Memory.Selected, p.Memory.Rendered, p.Memory.Corrupt)
	}
	b := p.Budget
	bw.WriteString("\n## Budget\n\n| section | bytes |\n|---|---:|\n")
	for _, it := range b.Sections {
		fmt.Fprintf(bw, "| %s | %d |\n", it.Name, it.Bytes)
	}
	fmt.Fprintf(bw, "| **total** | **%d** |\n\nLimit %d (limits.max_dynamic_bytes), remaining %d: %s.\n", b.Total, b.Limit, b.Remaining, b.Status)
	if len(p.Findings) > 0 {
		bw.WriteString("\n## Findings\n\n| severity | rule | location | message |\n|---|---|---|---|\n")
		for _, f := range p.Findings {
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", f.Severity, f.Rule, mdEscape(location(f)), mdEscape(f.Message))
		}
	}
	if len(p.Notes) > 0 {
		bw.WriteString("\n## Notes\n\n")
		for _, n := range p.Notes {
			fmt.Fprintf(bw, "- %s\n", mdEscape(n))
		}
	}
	s := p.Summary
	fmt.Fprintf(bw, "\n%s, %s, %s.\n", plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"), plural(s.Notices, "notice", "notices"))
	return bw.Flush()
}

// location is path, path:line or path:line:col.
func location(f lint.Finding) string {
	switch {
	case f.Line <= 0:
		return f.Path
	case f.Column <= 0:
		return fmt.Sprintf("%s:%d", f.Path, f.Line)
	}
	return fmt.Sprintf("%s:%d:%d", f.Path, f.Line, f.Column)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// safe keeps a terminal line one line: control characters become \xNN.
func safe(s string) string { return escapeControls(s, false) }

// safeText is safe for multi-line text: tab and LF are kept.
func safeText(s string) string { return escapeControls(s, true) }

func escapeControls(s string, keepLines bool) string {
	bad := func(r rune) bool {
		if keepLines && (r == '\n' || r == '\t') {
			return false
		}
		return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)
	}
	if !strings.ContainsFunc(s, bad) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if bad(r) {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdEscape makes s inert in a Markdown table cell or paragraph.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\r' || r == '\n' || r == '\t':
			b.WriteByte(' ')
		case strings.ContainsRune("\\`*_[]!~|$#", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '@':
			b.WriteString("@&#8203;")
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, "&lt;U+%04X&gt;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdCode puts s in a code span whose delimiter is longer than any backtick
// run inside it (names and fingerprints here hold no line breaks).
func mdCode(s string) string {
	s = strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
	d := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return d + " " + s + " " + d
	}
	return d + s + d
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

type paint bool

func painter(on bool) paint { return paint(on) }

func (p paint) wrap(code, s string) string {
	if !p {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p paint) bold(s string) string { return p.wrap("1", s) }
func (p paint) dim(s string) string  { return p.wrap("2", s) }

func (p paint) state(s string) string {
	switch s {
	case "active":
		return p.wrap("32", s)
	case "suppressed", "shadowed":
		return p.wrap("33", s)
	case "rejected":
		return p.wrap("1;31", s)
	}
	return s
}

func (p paint) sev(s lint.Severity, text string) string {
	switch s {
	case lint.Error:
		return p.wrap("1;31", text)
	case lint.Warning:
		return p.wrap("33", text)
	}
	return p.wrap("36", text)
}
