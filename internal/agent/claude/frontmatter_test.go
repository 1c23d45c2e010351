package claude

import (
	"slices"
	"strings"
	"testing"
)

// The front matter as the binary treats it (the profile's rule list):
// removed whatever its YAML, only at the very start (a BOM aside), closed
// by the first "---" even mid-line, everything after it up to the next
// non-space gone.
func TestClaudeFrontMatter(t *testing.T) {
	for _, tc := range []struct {
		in, content string
		paths       []string
	}{
		{"---\ndescription: x\n---\nbody\n", "body\n", nil},
		{"---\npaths: src/**\n---\n\n\n  body", "body", []string{"src"}},
		{"\ufeff---\npaths: \"*.md\"\n---\nbody", "body", []string{"*.md"}},
		{"---\nname: x\nfoo: bar---\nbody", "body", nil},
		{"---\ninvalid: [\n---\nbody", "body", nil},
		{"---\npaths: [unclosed\n---\nbody", "body", []string{"[unclosed"}},
		{"---\r\npaths: a, {b,c}/**\r\n---\r\nbody", "body", []string{"a", "b", "c"}},
		{"---\nrule one\n---\n\nbody", "body", nil}, // a thematic break first: up to the next --- goes
		{"\n---\nx: 1\n---\nbody", "\n---\nx: 1\n---\nbody", nil},
		{"---\nx: 1\n...\nbody", "---\nx: 1\n...\nbody", nil},
		{"----\nx\n---\nbody", "----\nx\n---\nbody", nil},
		{"---\n\nunclosed\n", "---\n\nunclosed\n", nil},
		{"\ufeffno front matter", "\ufeffno front matter", nil},
	} {
		fm := frontMatter(tc.in)
		if fm.content != tc.content || !slices.Equal(fm.paths, tc.paths) {
			t.Errorf("%q: content %q paths %q, want %q %q", tc.in, fm.content, fm.paths, tc.content, tc.paths)
		}
	}
}

// paths: as HZr reads it: what loads at start (nil) and what waits for a
// matching file.
func TestClaudeRulePaths(t *testing.T) {
	for body, want := range map[string][]string{
		`paths: []`:             nil,
		`paths: ""`:             nil,
		`paths: null`:           nil,
		`paths: 3`:              nil,
		`paths: ["**"]`:         nil,
		`paths: "{**}"`:         nil,
		`paths: /**`:            nil,
		"x: 1":                  nil,
		`paths: "src/**"`:       {"src"},
		`paths: "*"`:            {"*"},
		`paths: "**/*"`:         {"**/*"},
		`paths: ["**", src/**]`: {"**", "src"},
		`paths: 2024-01-01`:     {"2024-01-01"},
		"paths: a\npaths: b":    {"b"},
		`paths: {{a}}`:          nil,
		`paths: "{a,b}{c,d}"`:   {"ac", "ad", "bc", "bd"},
		`paths: "{a,{b,c}}"`:    {"a}", "b", "c}"}, // the first "}" closes the group
	} {
		if got := rulePaths(body); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", body, got, want)
		}
	}
}

func TestNodeExtname(t *testing.T) {
	for p, want := range map[string]string{
		"a.md": ".md", "/x/y.MD": ".MD", ".bashrc": "", "Makefile": "", "a.": ".", "a.b.c": ".c",
		"..md": ".md", "..": "", "x/.hidden.txt": ".txt", "dir.d/file": "", "a/b/": "",
	} {
		if got := nodeExtname(p); got != want {
			t.Errorf("nodeExtname(%q) = %q, want %q", p, got, want)
		}
	}
	for p, want := range map[string]bool{"a.md": true, "a.PNG": false, "Makefile": true, "a.": false, "x.R": true, "y.md,": false} {
		if got := textFile(p); got != want {
			t.Errorf("textFile(%q) = %v", p, got)
		}
	}
}

func TestClaudeResolveImport(t *testing.T) {
	for _, tc := range []struct{ h, want string }{
		{"x.md", "/r/d/x.md"}, {"./x.md", "/r/d/x.md"}, {"../x.md", "/r/x.md"}, {"/abs/x.md", "/abs/x.md"},
		{"~/x.md", "/home/u/x.md"}, {"a b.md ", "/r/d/a b.md"}, {" ", "/r/d"},
	} {
		if got := resolveImport(tc.h, "/r/d", "/home/u"); got != tc.want {
			t.Errorf("resolveImport(%q) = %q, want %q", tc.h, got, tc.want)
		}
	}
	if got := resolveImport("~/x", "/r", ""); got != "" {
		t.Errorf("~ with no home: %q", got)
	}
}

// FuzzClaudeFrontMatter: the split never panics; the content is the
// input (no front matter) or a suffix of it; a pattern is never empty
// nor all "**"; expansion keeps within its budget.
func FuzzClaudeFrontMatter(f *testing.F) {
	for _, s := range []string{"---\npaths: src/**\n---\nx", "---\n---\n", "\ufeff---\na: [\n---\n", "---\npaths: \"{a,{b,c}}{d,e}\"\n---\n", "--- \u2028\n---"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fm := frontMatter(s)
		if fm.content != s && !strings.HasSuffix(s, fm.content) {
			t.Fatalf("%q: content %q is not a suffix", s, fm.content)
		}
		if !fm.removed && (fm.content != s || fm.paths != nil) {
			t.Fatalf("%q: nothing removed, yet %q %q", s, fm.content, fm.paths)
		}
		all := true
		for _, p := range fm.paths {
			if p == "" {
				t.Fatalf("%q: an empty pattern", s)
			}
			all = all && p == "**"
		}
		if fm.paths != nil && all {
			t.Fatalf("%q: patterns all **: %q", s, fm.paths)
		}
		if len(fm.paths) > 1000*4 {
			t.Fatalf("%q: %d patterns", s, len(fm.paths))
		}
	})
}
