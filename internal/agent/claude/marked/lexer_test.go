package marked

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClaudeMarkdownVectors checks the port against what Claude Code
// 2.1.328's own lexer made of each recorded input (testdata).
func TestClaudeMarkdownVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/lexer-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Vectors []struct {
			In      string   `json:"in"`
			Out     string   `json:"out"`
			Imports []string `json:"imports"`
			Fails   bool     `json:"fails"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Vectors) < 400 {
		t.Fatalf("%d vectors", len(doc.Vectors))
	}
	for _, v := range doc.Vectors {
		out, imports, err := scanPaths(v.In)
		if v.Fails {
			if err == nil {
				t.Errorf("%q: the lexer gives up on it, the port does not", v.In)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", v.In, err)
			continue
		}
		if out != v.Out || !slices.Equal(imports, v.Imports) && len(imports)+len(v.Imports) > 0 {
			t.Errorf("%q:\n got  %q %q\n want %q %q", v.In, out, imports, v.Out, v.Imports)
		}
	}
}

// The rules of the comment pass and the import scan, as the binary showed
// them (the evidence trees of the profile's rule list).
func TestClaudeMarkdownRules(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		imports []string
	}{
		// No "<!--": the text is untouched, CRs included.
		{"a\r\nb\n", "a\r\nb\n", nil},
		// With one, line ends are normalised and block comments dropped
		// with the newlines after them; a space-only line after stays.
		{"A\r\n<!-- c --> \n\n \nB", "A\n \nB", nil},
		// Text after the comment on its line keeps the whole token.
		{"A\n\n<!-- c --> trailing text\n\nB", "A\n\n trailing text\n\nB", nil},
		// Inline comments, unclosed ones, comments in code stay.
		{"x <!-- kept --> y\n", "x <!-- kept --> y\n", nil},
		{"<!-- open\n\nB\n", "<!-- open\n\nB\n", nil},
		{"```\n<!-- c -->\n```\n", "```\n<!-- c -->\n```\n", nil},
		// "<!---->" is a comment; "<!--->" and "<!-->" are not removed.
		{"<!---->\nA\n", "A\n", nil},
		{"<!--->\nA\n", "<!--->\nA\n", nil},
		// A link reference definition not right after a paragraph line is
		// dropped once the pass runs.
		{"<!-- c -->\n[r]: /u\n\nB\n", "B\n", nil},
		// Imports: text tokens only, in document order, "#" cut, "\ " a space.
		{"see @a.md and @./b.md#part\n", "see @a.md and @./b.md#part\n", []string{"a.md", "./b.md"}},
		{"`@code.md` \\@esc.md (@paren.md) me@mail.md\n", "`@code.md` \\@esc.md (@paren.md) me@mail.md\n", nil},
		{"    @indented.md\n", "    @indented.md\n", nil},
		{"- item @l.md\n> quote @q.md\n# head @h.md\n", "- item @l.md\n> quote @q.md\n# head @h.md\n", []string{"l.md", "l.md", "q.md", "h.md"}},
		{"**b**@after.md [@text.md](@target.md)\n", "**b**@after.md [@text.md](@target.md)\n", []string{"after.md", "text.md"}},
		{"@My\\ File.md @@x @#y @/ @~/home.md\n", "@My\\ File.md @@x @#y @/ @~/home.md\n", []string{"My File.md", "~/home.md"}},
		{"<!-- @hidden.md -->\n", "", nil},
	} {
		out, imports, err := scanPaths(tc.in)
		if err != nil || out != tc.out || !slices.Equal(imports, tc.imports) {
			t.Errorf("%q: got %q %q %v, want %q %q", tc.in, out, imports, err, tc.out, tc.imports)
		}
	}
}

// FuzzClaudeMarkdown: the pass never panics, leaves a text without
// "<!--" as it is, keeps the text valid UTF-8, finds imports that all have
// an import's shape, and is what a second run finds.
func FuzzClaudeMarkdown(f *testing.F) {
	for _, s := range []string{"", "a\n<!-- c -->\nb", "- @x.md\n> @y.md", "*@e.md* **b**@f.md", "[a](b) <c> `d` \\@e", "😀*x*😀", "\r\n\u2028<!---->"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // the pipeline decodes lossily first
		}
		out, imports, err := scanPaths(s)
		if err != nil {
			return
		}
		if !strings.Contains(s, "<!--") && out != s {
			t.Fatalf("%q: changed without a comment: %q", s, out)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("%q: invalid UTF-8 out", s)
		}
		for _, p := range imports {
			if !importShape(p) {
				t.Fatalf("%q: import %q has no import's shape", s, p)
			}
		}
		out2, imports2, _ := scanPaths(s)
		if out2 != out || !slices.Equal(imports, imports2) {
			t.Fatalf("%q: not deterministic", s)
		}
	})
}

// scanPaths is Scan with the imports' paths alone.
func scanPaths(text string) (out string, imports []string, err error) {
	out, imps, _, err := Scan(text)
	for _, m := range imps {
		imports = append(imports, m.Path)
	}
	return out, imports, err
}
