package report

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// This file holds the escapers and small helpers that the writers share.
// Every string taken from a lint.Result is data: it goes through exactly one
// of these functions before it reaches a format that gives characters a
// meaning or a reader who could be misled by them (SafeLine for text and
// log lines, messageText for messages in JSON, escapeMarkdown, escapeURIPath).

// escapeMarkdown makes s safe to place anywhere inline in GitHub-flavoured
// Markdown, table cells included (§7 markdown, §10):
//
//   - \ ` * _ [ ] # ! ~ | $ are backslash-escaped (CommonMark escapes any
//     ASCII punctuation this way, also inside GFM table cells, where \| keeps
//     a pipe from splitting the cell);
//   - < > & become &lt; &gt; &amp;, so no HTML, autolink or entity survives;
//   - CR, LF and CRLF become one space: a value never starts a new block;
//   - @ and # get a zero-width space (&#8203;) after them, so a path such
//     as packages/@scope/AGENTS.md cannot @mention a user or team and
//     "#12" cannot link an issue; so do the ':' of "://" and the "www" of
//     "www.", so a symlink target such as https://example.com is not
//     turned into a link;
//   - other control characters, bidi controls and zero-width characters are
//     shown as a visible &lt;U+XXXX&gt;, invalid UTF-8 as U+FFFD.
//
// Values are never put into code spans (a backtick in a file name would end
// the span): they are escaped instead.
func escapeMarkdown(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\r':
			b.WriteByte(' ')
			if i < len(s) && s[i] == '\n' {
				i++ // CRLF is one line break: one space
			}
		case r == '\n' || r == '\t':
			b.WriteByte(' ')
		case r == '\\', r == '`', r == '*', r == '_', r == '[', r == ']',
			r == '!', r == '~', r == '|', r == '$':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '#':
			b.WriteString(`\#&#8203;`)
		case r == '@':
			b.WriteString("@&#8203;")
		case r == ':' && strings.HasPrefix(s[i:], "//"):
			b.WriteString(":&#8203;")
		case r == '.' && i >= 4 && strings.EqualFold(s[i-4:i-1], "www"):
			b.WriteString("&#8203;.")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case invisibleRune(r):
			fmt.Fprintf(&b, "&lt;U+%04X&gt;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// invisibleRune reports the characters a reader could not see or that
// reorder or break the text around them: C0 and C1 controls and DEL, every
// format character (Unicode category Cf: bidi controls, zero-width
// characters, the tag characters, the soft hyphen) and the line and
// paragraph separators. A name holding U+202E would otherwise display
// reversed in a terminal, a CI log or a rendered page.
func invisibleRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, 0x80 <= r && r < 0xa0:
		return true
	case r < 0xad:
		return false // the common case: printable ASCII and Latin-1
	case r == 0x2028, r == 0x2029:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// isControl is a C0 or C1 control character or DEL.
func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// What escapeLine shows besides control characters, which it always shows.
const (
	// escFormat shows the rest of invisibleRune (format characters, line
	// and paragraph separators) as \uXXXX.
	escFormat = 1 << iota
	// escRunnerV1 shows the "[" of "##[" as \x5b: the GitHub Actions runner
	// honours its older "##[command]" syntax anywhere in a line of a step's
	// log. The JSON formats break it with runnerSafeJSON instead, which
	// keeps the value.
	escRunnerV1
)

// SafeLine keeps a line of text (a finding, a message on standard error)
// one line that cannot issue a GitHub Actions workflow command and cannot
// hide or reorder what is around it (§7, §10): a file name may hold a
// newline followed by "::error::…", an escape sequence or a bidi override.
// It is the escaper of every text and log line: escapeLine with
// everything shown.
func SafeLine(s string) string { return escapeLine(s, escFormat|escRunnerV1) }

// safe is SafeLine, for this package's writers.
func safe(s string) string { return SafeLine(s) }

// messageText is the escaping of a message in a JSON format that a person
// reads (rdjson's diagnostics, which reviewdog posts as comments; SARIF's
// result messages, which code scanning shows): controls and format
// characters shown, "##[" left to runnerSafeJSON. Paths in locations stay
// exact: they are data, and tools match them against the repository.
func messageText(s string) string { return escapeLine(s, escFormat) }

// escapeLine shows control characters and the bytes of invalid UTF-8 as
// \xNN (a lone byte 0x9b is CSI to a terminal that reads 8-bit controls),
// and what how asks for: format characters as \uXXXX (\UXXXXXXXX beyond
// the BMP), the "[" of "##[" as \x5b. Text with none of them is returned
// as it is.
func escapeLine(s string, how int) string {
	if !needsEscape(s, how) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case how&escFormat != 0 && invisibleRune(r) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case how&escFormat != 0 && invisibleRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		case how&escRunnerV1 != 0 && r == '[' && strings.HasSuffix(s[:i], "##"):
			b.WriteString(`\x5b`)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsEscape reports whether escapeLine(s, how) would change s; most text
// is plain, and is then not copied.
func needsEscape(s string, how int) bool {
	if how&escRunnerV1 != 0 && strings.Contains(s, "##[") {
		return true
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || isControl(r) || how&escFormat != 0 && invisibleRune(r) {
			return true
		}
		i += size
	}
	return false
}

// escapeURIPath turns a repo-relative slash path into a relative URI
// reference (RFC 3986): every byte outside the unreserved set
// (ALPHA DIGIT - . _ ~) is percent-encoded, segment by segment, and '/'
// stays the segment separator. ':' is encoded too, so a first segment can
// never be read as a URI scheme, and so is a leading '/', so the reference
// is never absolute ("/x") or network-path ("//host"): it stays relative
// to %SRCROOT% (found by fuzzing: "// " gave "//%20", an authority).
// url.PathUnescape gives the path back.
func escapeURIPath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '/' && i > 0 || unreservedURIByte(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

func unreservedURIByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// withPath is the message of a finding whose file cannot be a location.
func withPath(path, msg string) string { return path + ": " + msg }

// orderFindings returns the findings every writer here emits, in the one
// order they all use: most severe first, then path, line, column, rule and
// message. Findings with severity off are dropped (a rule set to off emits
// nothing; the engine never produces them). r.Findings is not modified.
func orderFindings(r *lint.Result) []lint.Finding {
	fs := make([]lint.Finding, 0, len(r.Findings))
	for _, f := range r.Findings {
		if f.Severity > lint.Off {
			fs = append(fs, f)
		}
	}
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		return lint.Less(a, b)
	})
	return fs
}

// ruleDocURL is the documentation address of a rule id, "" for an id not in
// the rule table.
func ruleDocURL(id string) string {
	if r, ok := lint.Lookup(id); ok {
		return r.URL()
	}
	return ""
}

// findingLocation is path:line:col with the parts that apply.
func findingLocation(f lint.Finding) string {
	s := f.Path
	if f.Line > 0 {
		s += fmt.Sprintf(":%d", f.Line)
		if f.Column > 0 {
			s += fmt.Sprintf(":%d", f.Column)
		}
	}
	return s
}

// plural is "1 error", "2 errors".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// runnerSafeJSON returns a writer for the JSON formats (json, sarif, rdjson,
// rdjsonl) that writes "##[" as "##\u005b": the same JSON value, but no
// "##[command]" for the GitHub Actions runner, which honours that older
// syntax anywhere in a line of a step's log (§10). "##[" can only occur
// inside a JSON string, where \u005b is "[". Each json.Encoder.Encode call
// writes its whole value in one Write, so a pattern never spans two.
func runnerSafeJSON(w io.Writer) io.Writer { return jsonRunnerWriter{w} }

type jsonRunnerWriter struct{ w io.Writer }

func (j jsonRunnerWriter) Write(p []byte) (int, error) {
	if !bytes.Contains(p, []byte("##[")) {
		return j.w.Write(p)
	}
	if _, err := j.w.Write(bytes.ReplaceAll(p, []byte("##["), []byte(`##\u005b`))); err != nil {
		return 0, err
	}
	return len(p), nil
}
