package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/shell"
)

const maxListedDirs = 5

// Text writes one line per finding, `path:line:col: severity: message [RL00N]`
// (`path:line:` for a whole line, `path:` for a whole file), then the
// directories it affects and a summary line.
func Text(w io.Writer, r *lint.Result, o Options) error {
	bw := bufio.NewWriter(w)
	fixable := 0
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
		if says := f.Repair.Says(); says != "" && !f.User {
			fmt.Fprintf(bw, "    fix: rivumi-lint fix %s (it %s, where that is safe)\n", safe(shell.Path(f.Path)), says)
			fixable++
		}
	}
	writeDriftText(bw, r.Drift)
	s := r.Summary()
	fmt.Fprintf(bw, "%s, %s, %s in %s\n", plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"),
		plural(s.Notices, "notice", "notices"), plural(s.Directories, "directory", "directories"))
	if fixable > 0 {
		// Issue #26: say what to do next, once.
		fmt.Fprintf(bw, "rivumi-lint fix can repair %d of these %d findings where that is safe (rivumi-lint fix --dry-run shows the changes first)\n", fixable, len(r.Findings))
	}
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
