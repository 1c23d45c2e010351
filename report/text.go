package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/rivumi/rivumi-lint/lint"
)

const maxListedDirs = 5

// Text writes one line per finding, `path:line:col: severity: message [RL00N]`
// (`path:line:` for a whole line, `path:` for a whole file), then the
// directories it affects and a summary line.
func Text(w io.Writer, r *lint.Result, o Options) error {
	bw := bufio.NewWriter(w)
	for _, f := range r.Findings {
		loc := lineStart(safe(f.Path))
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", loc, f.Line)
			if f.Column > 0 {
				loc = fmt.Sprintf("%s:%d", loc, f.Column)
			}
		}
		fmt.Fprintf(bw, "%s: %s: %s [%s]\n", loc, paint(o, f.Severity), safe(f.Message), f.Rule)
		if n := len(f.Directories); n > 0 {
			shown := f.Directories[:min(n, maxListedDirs)]
			more := ""
			if n > maxListedDirs {
				more = fmt.Sprintf(" (and %d more)", n-maxListedDirs)
			}
			fmt.Fprintf(bw, "    affects: %s%s\n", safe(strings.Join(shown, ", ")), more)
		}
	}
	writeDriftText(bw, r.Drift)
	s := r.Summary()
	fmt.Fprintf(bw, "%s, %s, %s in %s\n", plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"),
		plural(s.Notices, "notice", "notices"), plural(s.Directories, "directory", "directories"))
	return bw.Flush()
}

func writeDriftText(w io.Writer, drift []lint.Drift) {
	for _, d := range drift {
		n := len(d.Directories)
		shown := d.Directories[:min(n, maxListedDirs)]
		more := ""
		if n > maxListedDirs {
			more = fmt.Sprintf(" (and %d more)", n-maxListedDirs)
		}
		fmt.Fprintf(w, "drift in %s%s:\n", safe(strings.Join(shown, ", ")), more)
		for _, c := range d.Changes {
			line := "    " + c.Change + ": " + safe(c.Path)
			if c.Detail != "" {
				line += " (" + safe(c.Detail) + ")"
			}
			fmt.Fprintln(w, line)
		}
	}
}

// safe is SafeLine, for this package's writers.
func safe(s string) string { return SafeLine(s) }

// SafeLine keeps a line of text (a finding, a message on standard error)
// one line that cannot issue a GitHub Actions workflow command (§7, §10):
// control characters in names and messages (a file name may hold a newline
// followed by "::error::…", or an escape sequence) are shown as \xNN. The
// "[" of "##[" is shown as \x5b too: the runner honours its older
// "##[command]" syntax anywhere in a line of a step's log.
func SafeLine(s string) string {
	if !strings.ContainsFunc(s, isControl) && !strings.Contains(s, "##[") {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case isControl(r):
			fmt.Fprintf(&b, "\\x%02x", r)
		case r == '[' && strings.HasSuffix(s[:i], "##"):
			b.WriteString(`\x5b`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
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

// termText is SafeLine for the preview's terminal text, which also shows
// the characters a reader cannot see (bidi controls, zero-width
// characters: invisibleRune) as \uXXXX, so a name or message cannot
// reorder or hide what is around it.
func termText(s string) string {
	if !strings.ContainsFunc(s, invisibleRune) {
		return SafeLine(s)
	}
	var b strings.Builder
	for _, r := range s {
		if invisibleRune(r) && !isControl(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return SafeLine(b.String())
}

// termLines is SafeLine for multi-line text (a rendered section): tab and
// LF are kept, and a line that would start with "::" starts with \x3a.
// Bidi and zero-width characters are kept: the section is the text the
// model reads, and RL010 reports them.
func termLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		parts := strings.Split(l, "\t")
		for k, part := range parts {
			parts[k] = SafeLine(part)
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

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

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
