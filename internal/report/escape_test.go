package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/lint"
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

// §7 text and github, §10 (issue 21, item 8): SafeLine, the escaper of every
// text and log line, shows control characters, invalid UTF-8 and every
// format character (Cf) as escapes, so a directory named "\u202egnp.exe"
// cannot display reversed and an ESC cannot reach a terminal; messageText
// does the same for messages in JSON and leaves "##[" to runnerSafeJSON.
func TestSafeLine(t *testing.T) {
	for _, c := range []struct{ in, line, msg string }{
		{"plain/AGENTS.md ünïcødé 日本 \ufffd", "plain/AGENTS.md ünïcødé 日本 \ufffd", "plain/AGENTS.md ünïcødé 日本 \ufffd"},
		{"\u202egnp.exe/AGENTS.md", `\u202egnp.exe/AGENTS.md`, `\u202egnp.exe/AGENTS.md`},
		{"esc\x1b[31m/AGENTS.md", `esc\x1b[31m/AGENTS.md`, `esc\x1b[31m/AGENTS.md`},
		{"a\nb\r\tc\x7f\u0085", `a\x0ab\x0d\x09c\x7f\x85`, `a\x0ab\x0d\x09c\x7f\x85`},
		{"zw\u200bj\u200dbom\ufeff\u2066iso\u2069shy\u00ad", `zw\u200bj\u200dbom\ufeff\u2066iso\u2069shy\u00ad`, `zw\u200bj\u200dbom\ufeff\u2066iso\u2069shy\u00ad`},
		{"tag\U000e0041 ls\u2028ps\u2029 ann\ufff9 num\u0600", `tag\U000e0041 ls\u2028ps\u2029 ann\ufff9 num\u0600`, `tag\U000e0041 ls\u2028ps\u2029 ann\ufff9 num\u0600`},
		{"csi\x9b31m caf\xe9", `csi\x9b31m caf\xe9`, `csi\x9b31m caf\xe9`},
		{"a/##[add-mask]x ###[", `a/##\x5badd-mask]x ###\x5b`, "a/##[add-mask]x ###["},
	} {
		if got := SafeLine(c.in); got != c.line {
			t.Errorf("SafeLine(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := messageText(c.in); got != c.msg {
			t.Errorf("messageText(%q) = %q, want %q", c.in, got, c.msg)
		}
	}
	// Every Cf character is shown, whatever Unicode version adds.
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if unicode.Is(unicode.Cf, r) && !invisibleRune(r) {
			t.Fatalf("U+%04X (Cf) is not escaped", r)
		}
	}
}

// §7 (issue 21, item 8): the text, github and markdown writers show no raw
// U+202E or ESC of a path or message; the JSON formats keep the exact path
// in their locations, and the messages rdjson and SARIF give a reader are
// escaped.
func TestWritersEscapeFormatCharacters(t *testing.T) {
	const bidi, esc = "\u202egnp.exe/AGENTS.md", "e\x1b[2Jx/AGENTS.md"
	r := &lint.Result{Findings: []lint.Finding{
		{Rule: "RL008", Name: "boundary-marker", Severity: lint.Error, Path: esc, Line: 1, Column: 1, UTF16Column: 1, Message: "in " + esc},
		{Rule: "RL008", Name: "boundary-marker", Severity: lint.Error, Path: bidi, Line: 1, Column: 1, UTF16Column: 1, Message: "in " + bidi},
	}}
	wants := map[string][]string{
		"text": {`\u202egnp.exe/AGENTS.md:1:1: error RL008 boundary-marker: in \u202egnp.exe/AGENTS.md` + "\n",
			`e\x1b[2Jx/AGENTS.md:1:1: error RL008 boundary-marker: in e\x1b[2Jx/AGENTS.md` + "\n"},
		"github": {`file=\u202egnp.exe/AGENTS.md,line=1,title=RL008 boundary-marker::in \u202egnp.exe/AGENTS.md`,
			`file=e\x1b[2Jx/AGENTS.md,line=1,title=RL008 boundary-marker::in e\x1b[2Jx/AGENTS.md`},
		"markdown": {"&lt;U+202E&gt;gnp.exe/AGENTS.md", "e&lt;U+001B&gt;\\[2Jx/AGENTS.md"},
	}
	for _, name := range Names() {
		var buf bytes.Buffer
		var err error
		if name == "github" {
			err = writeGitHub(&buf, r, Options{}, githubEnv(nil))
		} else {
			w, _ := Lookup(name)
			err = w(&buf, r, Options{ToolVersion: "test"})
		}
		if err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if want, ok := wants[name]; ok {
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("%s lacks %q:\n%s", name, w, out)
				}
			}
			if strings.ContainsAny(out, "\u202e\x1b") {
				t.Errorf("%s shows a raw U+202E or ESC:\n%q", name, out)
			}
			continue
		}
		var msgs, paths []string
		switch name {
		case "json":
			var d struct{ Findings []lint.Finding }
			if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
				t.Fatal(err)
			}
			for _, f := range d.Findings {
				msgs, paths = append(msgs, f.Message), append(paths, f.Path)
			}
		case "sarif":
			d := decodeSARIF(t, buf.Bytes())
			for _, res := range d.Runs[0].Results {
				u, _ := url.PathUnescape(res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
				msgs, paths = append(msgs, res.Message["text"]), append(paths, u)
			}
		case "rdjson", "rdjsonl":
			dec := json.NewDecoder(&buf)
			for dec.More() {
				var d struct {
					Message     string
					Location    struct{ Path string }
					Diagnostics []struct {
						Message  string
						Location struct{ Path string }
					}
				}
				if err := dec.Decode(&d); err != nil {
					t.Fatal(err)
				}
				if name == "rdjsonl" {
					msgs, paths = append(msgs, d.Message), append(paths, d.Location.Path)
				}
				for _, x := range d.Diagnostics {
					msgs, paths = append(msgs, x.Message), append(paths, x.Location.Path)
				}
			}
		}
		// In path order, as given: esc before bidi.
		wantPaths, wantMsgs := []string{esc, bidi}, []string{"in " + esc, "in " + bidi}
		if name != "json" {
			wantMsgs = []string{messageText("in " + esc), messageText("in " + bidi)}
		}
		if fmt.Sprint(paths) != fmt.Sprint(wantPaths) || fmt.Sprint(msgs) != fmt.Sprint(wantMsgs) {
			t.Errorf("%s: paths %q messages %q, want %q %q", name, paths, msgs, wantPaths, wantMsgs)
		}
	}
}
