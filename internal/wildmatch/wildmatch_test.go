package wildmatch

import (
	"strings"
	"testing"
)

// Cases from Git's t/t3070-wildmatch.sh: pattern, text, matches with
// Pathname (wildmatch), matches without it (fnmatch-like "iwildmatch"
// aside). F4 and F5 rely on these answers being Git's.
var cases = []struct {
	pat, text  string
	path, glob bool
}{
	{"foo", "foo", true, true},
	{"bar", "foo", false, false},
	{"", "", true, true},
	{"???", "foo", true, true},
	{"??", "foo", false, false},
	{"*", "foo", true, true},
	{"f*", "foo", true, true},
	{"*f", "foo", false, false},
	{"*foo*", "foo", true, true},
	{"*ob*a*r*", "foobar", true, true},
	{"*ab", "aaaaaaabababab", true, true},
	{`foo\*`, "foo*", true, true},
	{`foo\*bar`, "foobar", false, false},
	{`f\\oo`, `f\oo`, true, true},
	{"*[al]?", "ball", true, true},
	{"[ten]", "ten", false, false},
	{"**[!te]", "ten", true, true},
	{"**[!ten]", "ten", false, false},
	{"t[a-g]n", "ten", true, true},
	{"t[!a-g]n", "ten", false, false},
	{"t[!a-g]n", "ton", true, true},
	{"t[^a-g]n", "ton", true, true},
	{"a[]]b", "a]b", true, true},
	{"a[]-]b", "a-b", true, true},
	{"a[]-]b", "a]b", true, true},
	{"a[]-]b", "aab", false, false},
	{"a[]a-]b", "aab", true, true},
	{"]", "]", true, true},
	{"foo*bar", "foo/baz/bar", false, true},
	{"foo**bar", "foo/baz/bar", false, true},
	{"foo**bar", "foobazbar", true, true},
	{"foo/**/bar", "foo/baz/bar", true, true},
	{"foo/**/**/bar", "foo/baz/bar", true, false},
	{"foo/**/bar", "foo/b/a/z/bar", true, true},
	{"foo/**/**/bar", "foo/b/a/z/bar", true, true},
	{"foo/**/bar", "foo/bar", true, false},
	{"foo/**/**/bar", "foo/bar", true, false},
	{"foo?bar", "foo/bar", false, true},
	{"foo[/]bar", "foo/bar", false, true},
	{"foo[^a-z]bar", "foo/bar", false, true},
	{"f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo/bar", false, true},
	{"f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo-bar", true, true},
	{"**/foo", "foo", true, false},
	{"**/foo", "XXX/foo", true, true},
	{"**/foo", "bar/baz/foo", true, true},
	{"*/foo", "bar/baz/foo", false, true},
	{"**/bar*", "foo/bar/baz", false, true},
	{"**/bar/*", "deep/foo/bar/baz", true, true},
	{"**/bar/*", "deep/foo/bar/baz/", false, true},
	{"**/bar/**", "deep/foo/bar/baz/", true, true},
	{"**/bar/*", "deep/foo/bar", false, false},
	{"**/bar/**", "deep/foo/bar/", true, true},
	{"**/bar**", "foo/bar/baz", false, true},
	{"*/bar/**", "foo/bar/baz/x", true, true},
	{"*/bar/**", "deep/foo/bar/baz/x", false, true},
	{"**/bar/*/*", "deep/foo/bar/baz/x", true, true},
	{"a[c-c]st", "acrt", false, false},
	{"a[c-c]rt", "acrt", true, true},
	{"[!]-]", "]", false, false},
	{"[!]-]", "a", true, true},
	{`\`, "", false, false},
	{`\`, `\`, false, false},
	{`*/\`, `XXX/\`, false, false},
	{`*/\\`, `XXX/\`, true, true},
	{"foo", "foo", true, true},
	{"@foo", "@foo", true, true},
	{"@foo", "foo", false, false},
	{`\[ab]`, "[ab]", true, true},
	{"[[]ab]", "[ab]", true, true},
	{"[[:]ab]", "[ab]", true, true},
	{"[[::]ab]", "[ab]", false, false},
	{"[[:digit]ab]", "[ab]", true, true},
	{`[\[:]ab]`, "[ab]", true, true},
	{`\??\?b`, "?a?b", true, true},
	{`\a\b\c`, "abc", true, true},
	{"", "foo", false, false},
	{"**/t[o]", "foo/bar/baz/to", true, true},
	{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true, true},
	{"[[:digit:][:upper:][:space:]]", "a", false, false},
	{"[[:digit:][:upper:][:space:]]", "A", true, true},
	{"[[:digit:][:upper:][:space:]]", "1", true, true},
	{"[[:digit:][:upper:][:spaci:]]", "1", false, false},
	{"[[:digit:][:upper:][:space:]]", " ", true, true},
	{"[[:digit:][:upper:][:space:]]", ".", false, false},
	{"[[:digit:][:punct:][:space:]]", ".", true, true},
	{"[[:xdigit:]]", "5", true, true},
	{"[[:xdigit:]]", "f", true, true},
	{"[[:xdigit:]]", "D", true, true},
	{"[a-c[:digit:]x-z]", "5", true, true},
	{"[a-c[:digit:]x-z]", "b", true, true},
	{"[a-c[:digit:]x-z]", "y", true, true},
	{"[a-c[:digit:]x-z]", "q", false, false},
	{"[\\\\-^]", "]", true, true},
	{"[\\\\-^]", "[", false, false},
	{"[\\-_]", "-", true, true},
	{"[\\]]", "]", true, true},
	{"[\\]]", "\\]", false, false},
	{"[\\]]", "\\", false, false},
	{"a[]b", "ab", false, false},
	{"a[]b", "a[]b", false, false},
	{"ab[", "ab[", false, false},
	{"[!", "ab", false, false},
	{"[-", "ab", false, false},
	{"[-]", "-", true, true},
	{"[a-", "-", false, false},
	{"[!a-", "-", false, false},
	{"[--A]", "-", true, true},
	{"[--A]", "5", true, true},
	{"[ --]", " ", true, true},
	{"[ --]", "$", true, true},
	{"[ --]", "-", true, true},
	{"[ --]", "0", false, false},
	{"[---]", "-", true, true},
	{"[------]", "-", true, true},
	{"[a-e-n]", "j", false, false},
	{"[a-e-n]", "-", true, true},
	{"[!------]", "a", true, true},
	{"[]-a]", "[", false, false},
	{"[]-a]", "^", true, true},
	{"[!]-a]", "^", false, false},
	{"[!]-a]", "[", true, true},
	{"[a^bc]", "^", true, true},
	{"[a-]b]", "-b]", true, true},
	{`[\]`, `\`, false, false},
	{`[\\]`, `\`, true, true},
	{`[!\\]`, `\`, false, false},
	{"[A-\\\\]", "G", true, true},
	{"b*a", "aaabbb", false, false},
	{"*ba*", "aabcaa", false, false},
	{"[,]", ",", true, true},
	{"[\\\\,]", ",", true, true},
	{"[\\\\,]", "\\", true, true},
	{"[,-.]", "-", true, true},
	{"[,-.]", "+", false, false},
	{"[,-.]", "-.]", false, false},
	{"[\\1-\\3]", "2", true, true},
	{"[\\1-\\3]", "3", true, true},
	{"[\\1-\\3]", "4", false, false},
	{"[[-\\]]", "\\", true, true},
	{"[[-\\]]", "[", true, true},
	{"[[-\\]]", "]", true, true},
	{"[[-\\]]", "-", false, false},
	{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", true, true},
	{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1", false, false},
	{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-/-70-iso8859-1", false, false},
	{"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", "XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1", true, true},
	{"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", "XXX/adobe/courier/bold/o/normal//12/120/75/75/X/70/iso8859/1", false, false},
	{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", true, true},
	{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", false, false},
	{"*/*/*", "foo", false, false},
	{"*/*/*", "foo/bar", false, false},
	{"*/*/*", "foo/bba/arr", true, true},
	{"*/*/*", "foo/bb/aa/rr", false, true},
	{"**/**/**", "foo/bb/aa/rr", true, true},
	{"*X*i", "abcXdefXghi", true, true},
	{"*X*i", "ab/cXd/efXg/hi", false, true},
	{"*/*X*/*/*i", "ab/cXd/efXg/hi", true, true},
	{"**/*X*/**/*i", "ab/cXd/efXg/hi", true, true},
	// Byte-wise: '?' is one byte of a multi-byte UTF-8 character.
	{"?", "ü", false, false},
	{"??", "ü", true, true},
	{"tmp[!0-9]", "tmp1", false, false},
	{"tmp[!0-9]", "tmpx", true, true},
}

func TestGitWildmatchCases(t *testing.T) {
	for _, c := range cases {
		if got := Match(c.pat, c.text, Pathname); got != c.path {
			t.Errorf("Match(%q, %q, Pathname) = %v, want %v", c.pat, c.text, got, c.path)
		}
		if got := Match(c.pat, c.text, 0); got != c.glob {
			t.Errorf("Match(%q, %q, 0) = %v, want %v", c.pat, c.text, got, c.glob)
		}
	}
}

func TestCaseFold(t *testing.T) {
	for _, c := range []struct {
		pat, text string
		want      bool
	}{
		{"[A-Z]", "a", true},
		{"[a-z]", "A", true},
		{"[[:upper:]]", "a", true},
		{"AGENTS.md", "agents.MD", true},
		{`\A`, "A", false}, // Git compares an escaped letter unfolded
		{`\a`, "A", true},
	} {
		if got := Match(c.pat, c.text, Pathname|CaseFold); got != c.want {
			t.Errorf("Match(%q, %q, CaseFold) = %v, want %v", c.pat, c.text, got, c.want)
		}
	}
}

// TestNoExponentialBacktracking: patterns of many stars against long
// texts that almost match. Git's own wildmatch takes exponential time on
// some of them; this port answers the same in polynomial time (§10: a
// hostile .gitignore or .gitattributes must not hang a check). A
// regression shows as this test never finishing.
func TestNoExponentialBacktracking(t *testing.T) {
	long := strings.Repeat("a/", 40)
	for _, c := range []struct{ pat, text string }{
		{strings.Repeat("*a", 20) + "b", long},
		{strings.Repeat("*a", 20) + "b", strings.Repeat("a", 80)},
		{strings.Repeat("**/a", 20) + "b", long},
		{strings.Repeat("a**", 20) + "b", long},
		{strings.Repeat("**a", 20) + "b", long},
		{strings.Repeat("*/", 20) + "b", long},
		{strings.Repeat("*[a]", 20) + "b", long},
		{strings.Repeat("*?", 20) + "b", long},
	} {
		for _, fl := range []Flags{0, Pathname, CaseFold, Pathname | CaseFold} {
			if Match(c.pat, c.text, fl) {
				t.Errorf("Match(%q, %q, %d) = true", c.pat, c.text, fl)
			}
		}
	}
}
