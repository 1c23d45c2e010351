package gitignore

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParse: any ignore file and any path, never a panic or a hang (§10),
// and what parse_path_pattern promises: a pattern line never holds a line
// end or NUL, NoDir means no slash, a directory-only pattern never matches
// a file, a pattern without glob bytes and slashes matches exactly its own
// basename, and every pattern parses back to itself from its String form.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"tmp[!0-9]\n?\n", "a\n!b\n", "\xef\xbb\xbf# c\r\n/x/\n\\!n\n", "foo**/bar\n", "trail\\ \n  \n",
		"**/a/**/b\n", "a\x00b\n", "*.log\n!keep.log\n", "[[:digit:]]*\n[^a]\n",
	} {
		f.Add([]byte(s), "a/b/tmp1", true)
	}
	f.Fuzz(func(t *testing.T, data []byte, path string, isDir bool) {
		l := Parse(data, "f", "")
		lines := bytes.Count(data, []byte{'\n'}) + 1
		prev := 0
		for i := range l.Patterns {
			p := &l.Patterns[i]
			if strings.ContainsAny(p.Text, "\n\x00") {
				t.Fatalf("pattern %q holds a line end or NUL", p.Text)
			}
			if p.NoDir == strings.Contains(p.Text, "/") {
				t.Fatalf("pattern %q: NoDir %v", p.Text, p.NoDir)
			}
			if p.Line <= prev || p.Line > lines {
				t.Fatalf("pattern %q: line %d after %d of %d", p.Text, p.Line, prev, lines)
			}
			prev = p.Line
			if q := ParseLine(p.String()); q.Text != p.Text || q.Negative != p.Negative || q.MustBeDir != p.MustBeDir ||
				q.NoDir != p.NoDir || q.noWild != p.noWild || q.endsWith != p.endsWith {
				t.Fatalf("%q parses back as %+v, was %+v", p.String(), q, *p)
			}
			if path == "" || strings.HasPrefix(path, "/") || strings.HasSuffix(path, "/") || strings.Contains(path, "//") ||
				strings.IndexByte(path, 0) >= 0 {
				continue
			}
			for _, fold := range []bool{false, true} {
				m := p.Matches(path, l.Base, isDir, fold)
				if m && p.MustBeDir && !isDir {
					t.Fatalf("%q matches the file %q", p.String(), path)
				}
				if !fold && p.NoDir && !strings.ContainsAny(p.Text, "*?[\\") && (!p.MustBeDir || isDir) {
					base := path[strings.LastIndexByte(path, '/')+1:]
					if m != (base == p.Text) {
						t.Fatalf("literal %q vs %q: %v", p.Text, path, m)
					}
				}
			}
		}
	})
}
