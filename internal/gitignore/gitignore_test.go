package gitignore

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// TestF4GitSemantics: dir.c's corner cases, each checked against git
// check-ignore as well as written down.
func TestF4GitSemantics(t *testing.T) {
	cases := []struct {
		lines string
		path  string
		isDir bool
		line  int // the deciding line, 0 for none; negative for a negation
	}{
		{"tmp[!0-9]\n", "tmp1", true, 0},
		{"tmp[!0-9]\n", "tmpx", true, 1},
		{"tmp[^0-9]\n", "tmpx", false, 1},
		{"?\n", "ü", true, 0}, // two bytes
		{"??\n", "ü", true, 1},
		{"a\n!b\n", "b", true, -2},
		{"foo**/bar\n", "foox/y/bar", false, 1}, // the literal prefix is cut first
		{"/tr\\ \n", "tr ", false, 1},
		{"ab  \n", "ab", false, 1},
		{" ab\n", "ab", false, 0},
		{"\\#h\n", "#h", false, 1},
		{"#h\n", "#h", false, 0},
		{"\\!n\n", "!n", false, 1},
		{"d/\n", "d", false, 0},
		{"d/\n", "x/d", true, 1},
		{"/d\n", "x/d", true, 0},
		{"x/d\n", "x/d", true, 1},
		{"x/d\n", "y/x/d", true, 0},
		{"**/d\n", "y/x/d", false, 1},
		{"x/**\n", "x/y", false, 1},
		{"x/**/d\n", "x/d", false, 1},
		{"a**\n", "ab", false, 1},
		{"*.log\n!keep.log\n", "keep.log", false, -2},
		{"\xef\xbb\xbfbom\r\n", "bom", false, 1},
		{"[[:digit:]]*\n", "9z", true, 1},
		{"x\x00y\n", "x", false, 1},
		{"*b\n", "a*b", true, 1},
		{"\r\n*z\r\n", "qz", false, 2},
	}
	for i, c := range cases {
		g := gittest.New(t)
		g.Write(".gitignore", c.lines)
		if c.isDir {
			g.Write(c.path+"/f", "")
		} else {
			g.Write(c.path, "")
		}
		out, _ := g.Try("check-ignore", "-v", "--", c.path)
		want := ""
		if c.line != 0 {
			l := c.line
			if l < 0 {
				l = -l
			}
			want = ".gitignore:" + strconv.Itoa(l)
		}
		gotGit := ""
		if src, _, ok := strings.Cut(out, ":"); ok {
			rest := strings.TrimPrefix(out, src+":")
			n, _, _ := strings.Cut(rest, ":")
			gotGit = src + ":" + n
		}
		if c.line < 0 {
			gotGit = "" // check-ignore -v without -n reports no negation
			want = ""
		}
		if gotGit != want {
			t.Errorf("case %d %q %q: git says %q, the case %q", i, c.lines, c.path, gotGit, want)
		}
		data, err := os.ReadFile(filepath.Join(g.Dir, ".gitignore"))
		if err != nil {
			t.Fatal(err)
		}
		r := NewRules(false).With(Parse(data, ".gitignore", ""))
		pat, _ := r.Match(c.path, c.isDir)
		got := 0
		if pat != nil {
			got = pat.Line
			if pat.Negative {
				got = -got
			}
		}
		// Git decides a path below an excluded directory by that
		// directory; these cases have none.
		if got != c.line {
			t.Errorf("case %d %q %q: line %d, want %d", i, c.lines, c.path, got, c.line)
		}
	}
}
