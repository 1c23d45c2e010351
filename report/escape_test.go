package report

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/lint"
)

// §7 markdown, §10: the escaper's mapping, one case per rule.
func TestEscapeMarkdown(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text 1.2", "plain text 1.2"},
		{`a\b`, `a\\b`},
		{"`code`", "\\`code\\`"},
		{"*b* _i_ ~s~", `\*b\* \_i\_ \~s\~`},
		{"[l](http://x) ![i](y)", `\[l\](http:&#8203;//x) \!\[i\](y)`},
		{"a|b", `a\|b`},
		{"$x$", `\$x\$`},
		{"# h", `\#&#8203; h`},
		{"@org/team", "@&#8203;org/team"},
		{"<script>&amp;", "&lt;script&gt;&amp;amp;"},
		{"a\nb\r\nc\rd\te", "a b c d e"},
		{"\r\n\r\n", "  "},
		{"x\u202ey\u200bz\x00\x1b\u0085", "x&lt;U+202E&gt;y&lt;U+200B&gt;z&lt;U+0000&gt;&lt;U+001B&gt;&lt;U+0085&gt;"},
		{"\U000E0041", "&lt;U+E0041&gt;"},
		{"bad\xffutf8", "bad\uFFFDutf8"},
		{"ünïcødé 日本", "ünïcødé 日本"},
		{"%0A ::error::", "%0A ::error::"},
		{"see https://x.example/a and WWW.x.org", "see https:&#8203;//x.example/a and WWW&#8203;.x.org"},
		{"a:b:/c", "a:b:/c"},
	} {
		if got := escapeMarkdown(c.in); got != c.want {
			t.Errorf("escapeMarkdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// unescapeMarkdownForTest reverses escapeMarkdown, failing on anything the
// escaper must never leave raw: a special character without its backslash,
// '<', '>', an '&' that is not one of our entities, a line break, '#' or '@'
// without the zero-width space.
func unescapeMarkdownForTest(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 >= len(s) || !strings.ContainsRune("\\`*_[]!~|$#", rune(s[i+1])) {
				return "", fmt.Errorf("stray backslash at %d in %q", i, s)
			}
			if s[i+1] == '#' {
				if !strings.HasPrefix(s[i+2:], "&#8203;") {
					return "", fmt.Errorf("# without zero-width space at %d in %q", i, s)
				}
				b.WriteByte('#')
				i += 2 + len("&#8203;")
				continue
			}
			b.WriteByte(s[i+1])
			i += 2
		case c == '&':
			switch {
			case strings.HasPrefix(s[i:], "&lt;"):
				b.WriteByte('<')
				i += 4
			case strings.HasPrefix(s[i:], "&gt;"):
				b.WriteByte('>')
				i += 4
			case strings.HasPrefix(s[i:], "&amp;"):
				b.WriteByte('&')
				i += 5
			case strings.HasPrefix(s[i:], "&#8203;"):
				// Only where escapeMarkdown breaks an autolink: "://", "www.".
				rest, done := s[i+len("&#8203;"):], b.String()
				if !(strings.HasSuffix(done, ":") && strings.HasPrefix(rest, "//")) &&
					!(strings.HasPrefix(rest, ".") && len(done) >= 3 && strings.EqualFold(done[len(done)-3:], "www")) {
					return "", fmt.Errorf("stray zero-width space at %d in %q", i, s)
				}
				i += len("&#8203;")
			default:
				return "", fmt.Errorf("raw & at %d in %q", i, s)
			}
		case c == '@':
			if !strings.HasPrefix(s[i+1:], "&#8203;") {
				return "", fmt.Errorf("@ without zero-width space at %d in %q", i, s)
			}
			b.WriteByte('@')
			i += 1 + len("&#8203;")
		case strings.IndexByte("`*_[]!~|$#<>\n\r", c) >= 0:
			return "", fmt.Errorf("raw %q at %d in %q", c, i, s)
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// normalizeForMarkdown is what escapeMarkdown promises to keep of s: invalid
// UTF-8 as U+FFFD, line breaks and tabs as one space, invisible characters
// as the text <U+XXXX>.
func normalizeForMarkdown(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
			b.WriteByte(' ')
		case r == '\n' || r == '\t':
			b.WriteByte(' ')
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case invisibleRune(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// §10 (a fuzz target for every escaper): the escaped text is valid UTF-8,
// has no line break, raw HTML or unescaped Markdown character, and gives
// back the input.
func FuzzEscapeMarkdown(f *testing.F) {
	for _, s := range []string{"", "a|b", msgHostile, pathNewline, "\\", "\\|", "&lt;", "@#", "\r\n\r", "\xff\xfe", "\u202e", "<U+0000>", "&#8203;", "http://x", "wwW.x", "w.www..", ":///"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := escapeMarkdown(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8: %q", out)
		}
		back, err := unescapeMarkdownForTest(out)
		if err != nil {
			t.Fatal(err)
		}
		if want := normalizeForMarkdown(s); back != want {
			t.Fatalf("escapeMarkdown(%q) = %q, reads back as %q, want %q", s, out, back, want)
		}
		if low := strings.ToLower(out); strings.Contains(low, "://") || strings.Contains(low, "www.") {
			t.Fatalf("%q can still become an autolink", out)
		}
		if n := len(gfmCells("| " + out + " |")); n != 3 {
			t.Fatalf("%q splits a table cell into %d", out, n-2)
		}
	})
}

// §7: every machine format emits the same order, most severe first, then by
// path, line and column; off findings are dropped; the result is untouched.
func TestOrderFindings(t *testing.T) {
	r := &lint.Result{Findings: []lint.Finding{
		{Rule: "RL007", Severity: lint.Warning, Path: "b", Line: 1},
		{Rule: "RL001", Severity: lint.Off, Path: "a"},
		{Rule: "RL005", Severity: lint.Notice, Path: "a"},
		{Rule: "RL004", Severity: lint.Error, Path: "b", Line: 9},
		{Rule: "RL004", Severity: lint.Error, Path: "b", Line: 2, Column: 5},
		{Rule: "RL004", Severity: lint.Error, Path: "b", Line: 2, Column: 1},
		{Rule: "RL001", Severity: lint.Error, Path: "a"},
	}}
	before := fmt.Sprint(r.Findings)
	var got []string
	for _, f := range orderFindings(r) {
		got = append(got, findingLocation(f)+" "+f.Rule)
	}
	want := "[a RL001 b:2:1 RL004 b:2:5 RL004 b:9 RL004 b:1 RL007 a RL005]"
	if fmt.Sprint(got) != want {
		t.Errorf("order %v, want %s", got, want)
	}
	if fmt.Sprint(r.Findings) != before {
		t.Error("orderFindings modified the result")
	}
}

// isUserLevelPath is how these tests choose which fuzzed paths stand for a
// user-level file (P2: shown as ~/…); the writers read Finding.User (F10).
func isUserLevelPath(p string) bool { return p == "~" || strings.HasPrefix(p, "~/") }
