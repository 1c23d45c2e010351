package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/preview/view"
)

// PreviewFormat is one output format of the preview: a writer for a whole
// preview and one for a watch event (P6).
type PreviewFormat struct {
	Name  string
	Write func(w io.Writer, p *view.Preview, o Options) error
	Event func(w io.Writer, e view.Event, o Options) error
}

var previewFormats = []PreviewFormat{
	{"text", PreviewText, previewTextEvent},
	{"json", PreviewJSON, previewJSONEvent},
	{"markdown", PreviewMarkdown, previewMarkdownEvent},
}

// LookupPreview returns the named preview format.
func LookupPreview(name string) (PreviewFormat, bool) {
	for _, f := range previewFormats {
		if f.Name == name {
			return f, true
		}
	}
	return PreviewFormat{}, false
}

// PreviewNames lists the preview formats.
func PreviewNames() []string {
	out := make([]string, len(previewFormats))
	for i, f := range previewFormats {
		out[i] = f.Name
	}
	return out
}

// PreviewJSON writes the preview as one indented JSON document
// (docs/preview.md), runner-safe as check's JSON. Field names are a public
// interface: added, never renamed.
func PreviewJSON(w io.Writer, p *view.Preview, _ Options) error {
	enc := json.NewEncoder(runnerSafeJSON(w))
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}

// PreviewText writes the preview for a terminal: the section list, every
// rendered section, then the diagnostics (layers, fingerprint, skills,
// memory, budget, findings, notes). Values go through SafeLine and
// rendered text through termLines: control characters other than tab and
// LF are shown as \xNN, so file content cannot move the cursor or forge
// lines; in values, characters a reader cannot see (format characters:
// bidi controls, zero-width characters) as \uXXXX; "##[" and a line starting
// with "::" cannot issue a workflow command in a GitHub Actions log. The
// exact bytes are what --section prints.
func PreviewText(w io.Writer, p *view.Preview, o Options) error {
	bw := bufio.NewWriter(w)
	c := previewPaint(o.Color)
	fmt.Fprintf(bw, "%s %s\n\n", c.bold("Prompt preview of"), safe(p.Directory))

	fmt.Fprintln(bw, c.bold("Sections:"))
	for i, s := range p.Sections {
		var what string
		switch {
		case s.Kind != view.KindDynamic:
			what = s.Kind + ", " + s.Note
		case s.Included:
			what = plural(s.Bytes, "byte", "bytes")
		default:
			what = c.dim(s.Note)
		}
		fmt.Fprintf(bw, "  %d. %-13s %s\n", i+1, s.Name, what)
	}

	for _, s := range p.Sections {
		if s.Kind != view.KindDynamic || !s.Included {
			continue
		}
		fmt.Fprintf(bw, "\n%s\n", c.bold("== "+s.Name+" ("+plural(s.Bytes, "byte", "bytes")+")"))
		bw.WriteString(termLines(s.Text))
	}

	fmt.Fprintf(bw, "\n%s\n", c.bold("Layers:"))
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
	fmt.Fprintf(bw, "%s %s\n", c.bold("Fingerprint:"), p.Fingerprint)
	for _, a := range p.Agents {
		previewAgentText(bw, c, a)
	}

	if len(p.Skills) > 0 {
		fmt.Fprintf(bw, "\n%s\n", c.bold("Skills:"))
		nw := 0
		for _, s := range p.Skills {
			nw = max(nw, utf8.RuneCountInString(safe(s.Name)))
		}
		for _, s := range p.Skills {
			line := fmt.Sprintf("  %-*s  %s", nw, lineStartText(safe(s.Name)), c.state(s.State))
			if s.Reason != "" {
				line += " (" + s.Reason + ")"
			}
			if s.Problem != "" {
				line += ": " + safe(s.Problem)
			}
			fmt.Fprintln(bw, line)
		}
	}

	fmt.Fprintf(bw, "\n%s ", c.bold("Memory:"))
	if p.Memory.Path == "" {
		fmt.Fprintln(bw, safe(p.Memory.Note))
	} else {
		fmt.Fprintf(bw, "%s, project %s: %s, %d selected, %d rendered, %s\n", safe(p.Memory.Path), safe(strconv.Quote(p.Memory.Project)),
			plural(p.Memory.Lines, "line", "lines"), p.Memory.Selected, p.Memory.Rendered,
			plural(p.Memory.Corrupt, "corrupt line", "corrupt lines"))
	}

	b := p.Budget
	fmt.Fprintf(bw, "\n%s\n", c.bold("Budget:"))
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
			fmt.Fprintf(bw, "  %s: %s %s %s: %s\n", lineStart(safe(findingLocation(f))), c.sev(f.Severity, f.Severity.String()), f.Rule, f.Name, safe(f.Message))
		}
	}
	if len(p.Notes) > 0 {
		fmt.Fprintf(bw, "\n%s\n", c.bold("Notes:"))
		for _, n := range p.Notes {
			fmt.Fprintf(bw, "  %s\n", lineStartText(safe(n)))
		}
	}
	s := p.Summary
	fmt.Fprintf(bw, "\n%s, %s, %s\n", plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"), plural(s.Notices, "notice", "notices"))
	return bw.Flush()
}

// PreviewMarkdown writes the preview for a pull-request comment or a
// document. Rendered sections are fenced code blocks (the fence is longer
// than any backtick run inside); every other value goes through
// escapeMarkdown, as in check's markdown.
func PreviewMarkdown(w io.Writer, p *view.Preview, _ Options) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Prompt preview of %s\n\n", mdCode(p.Directory))
	fmt.Fprintf(bw, "Fingerprint: %s\n\n", mdCode(p.Fingerprint))
	bw.WriteString("## Sections\n\n| # | section | kind | bytes | note |\n|---:|---|---|---:|---|\n")
	for i, s := range p.Sections {
		bytes := ""
		if s.Kind == view.KindDynamic {
			bytes = fmt.Sprint(s.Bytes)
		}
		fmt.Fprintf(bw, "| %d | %s | %s | %s | %s |\n", i+1, s.Name, s.Kind, bytes, escapeMarkdown(s.Note))
	}
	for _, s := range p.Sections {
		if s.Kind != view.KindDynamic || !s.Included {
			continue
		}
		fence := strings.Repeat("`", max(3, longestRun(s.Text, '`')+1))
		// The exact text, but no line of it can issue a workflow command
		// or hide characters where the markdown lands in a CI log.
		fmt.Fprintf(bw, "\n### %s\n\n%stext\n%s%s\n", s.Name, fence, termLines(s.Text), fence)
	}
	bw.WriteString("\n## Layers\n\n")
	if len(p.Layers) == 0 {
		bw.WriteString("No instruction file in the chain.\n")
	} else {
		bw.WriteString("| scope | path | state | reason | bytes |\n|---|---|---|---|---:|\n")
		for _, l := range p.Layers {
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %d |\n", l.Scope, escapeMarkdown(l.Path), l.State, escapeMarkdown(l.Reason), l.Bytes)
		}
	}
	if len(p.Skills) > 0 {
		bw.WriteString("\n## Skills\n\n| skill | state | reason | description | problem |\n|---|---|---|---|---|\n")
		for _, s := range p.Skills {
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %s |\n", escapeMarkdown(s.Name), s.State, s.Reason, escapeMarkdown(s.Description), escapeMarkdown(s.Problem))
		}
	}
	bw.WriteString("\n## Memory\n\n")
	if p.Memory.Path == "" {
		fmt.Fprintf(bw, "%s\n", mdLineStart(escapeMarkdown(p.Memory.Note)))
	} else {
		fmt.Fprintf(bw, "%s, project %s: %d lines, %d selected, %d rendered, %d corrupt.\n", mdLineStart(escapeMarkdown(p.Memory.Path)),
			escapeMarkdown(p.Memory.Project), p.Memory.Lines, p.Memory.Selected, p.Memory.Rendered, p.Memory.Corrupt)
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
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", f.Severity, f.Rule, escapeMarkdown(findingLocation(f)), escapeMarkdown(f.Message))
		}
	}
	if len(p.Notes) > 0 {
		bw.WriteString("\n## Notes\n\n")
		for _, n := range p.Notes {
			fmt.Fprintf(bw, "- %s\n", escapeMarkdown(n))
		}
	}
	s := p.Summary
	fmt.Fprintf(bw, "\n%s, %s, %s.\n", plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"), plural(s.Notices, "notice", "notices"))
	return bw.Flush()
}

func previewTextEvent(w io.Writer, e view.Event, o Options) error {
	c := previewPaint(o.Color)
	var line string
	if e.Valid {
		line = fmt.Sprintf("[%s] %s %s\n", e.Time.Format("15:04:05"), c.wrap("32", "reload:"), safe(e.Reason))
	} else {
		line = fmt.Sprintf("[%s] %s %s\n", e.Time.Format("15:04:05"), c.wrap("1;31", "reload rejected:"), safe(e.Reason))
	}
	_, err := io.WriteString(w, line)
	return err
}

func previewMarkdownEvent(w io.Writer, e view.Event, _ Options) error {
	what := "reload"
	if !e.Valid {
		what = "reload rejected"
	}
	_, err := fmt.Fprintf(w, "\n> **%s** %s: %s\n\n", what, e.Time.Format("15:04:05"), escapeMarkdown(e.Reason))
	return err
}

func previewJSONEvent(w io.Writer, e view.Event, _ Options) error {
	enc := json.NewEncoder(runnerSafeJSON(w))
	enc.SetEscapeHTML(false)
	return enc.Encode(e)
}

// mdCode puts s in a code span whose delimiter is longer than any backtick
// run inside it (names and fingerprints here hold no line breaks). A value
// with characters a reader cannot see is escaped instead: a code span
// shows them raw.
func mdCode(s string) string {
	if strings.ContainsFunc(s, invisibleRune) {
		return escapeMarkdown(s)
	}
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

// mdLineStart keeps an escaped value that begins a Markdown line from
// starting a workflow command ("::"): its first colon is escaped, which
// Markdown renders as the colon.
func mdLineStart(s string) string {
	t := strings.TrimLeft(s, " ")
	if strings.HasPrefix(t, "::") {
		return s[:len(s)-len(t)] + `\` + t
	}
	return s
}

type previewPaint bool

// previewAgentText writes one agent profile's layers table and message
// (A3): every candidate of its chain with its state and why.
func previewAgentText(bw *bufio.Writer, c previewPaint, a view.Agent) {
	label := a.Product + " " + a.Version
	fmt.Fprintf(bw, "\n%s\n", c.bold(label+" (chain from "+safe(a.Start)+"):"))
	if len(a.Files) == 0 {
		fmt.Fprintln(bw, "  none: no instruction file in the chain")
	}
	pw := 0
	for _, f := range a.Files {
		pw = max(pw, utf8.RuneCountInString(safe(f.Path)))
	}
	for _, f := range a.Files {
		line := fmt.Sprintf("  %-*s  %s", pw, safe(f.Path), c.state(f.State))
		if f.Reason != "" && f.State != "loaded" {
			line += " (" + safe(f.Reason) + ")"
		}
		if f.Link != "" {
			line += ", via the link to " + safe(f.Link)
		}
		if f.Kept > 0 {
			line += ", " + plural(int(f.Kept), "byte", "bytes")
		}
		fmt.Fprintln(bw, line)
	}
	if a.User != "" {
		fmt.Fprintf(bw, "  user file %s\n", safe(a.User))
	}
	if a.Lost != "" {
		fmt.Fprintf(bw, "  %s %s\n", c.state("error"), safe(a.Product+" loads no project file: "+a.Lost))
	}
	if !a.Exact {
		fmt.Fprintf(bw, "  %s\n", c.dim(safe("not exact: "+a.Inexact)))
	}
	if a.Text == "" {
		fmt.Fprintf(bw, "  %s\n", c.dim("no instruction message: "+a.Product+" sends none from here"))
		return
	}
	fmt.Fprintf(bw, "%s\n", c.bold("== instructions for "+label+" ("+plural(a.Bytes, "byte", "bytes")+")"))
	bw.WriteString(termLines(a.Text))
	if !strings.HasSuffix(a.Text, "\n") {
		bw.WriteString("\n")
	}
}

func (p previewPaint) wrap(code, s string) string {
	if !p {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p previewPaint) bold(s string) string { return p.wrap("1", s) }
func (p previewPaint) dim(s string) string  { return p.wrap("2", s) }

func (p previewPaint) state(s string) string {
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

func (p previewPaint) sev(s lint.Severity, text string) string {
	switch s {
	case lint.Error:
		return p.wrap("1;31", text)
	case lint.Warning:
		return p.wrap("33", text)
	}
	return p.wrap("36", text)
}
