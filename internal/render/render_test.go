package render

import (
	"testing"

	"github.com/rivumi/rivumi-lint/internal/content"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// P2: format v1, byte for byte; only active layers; user path as given.
func TestInstructionsFormatV1(t *testing.T) {
	user := &resolve.File{Path: "~/.rivumi/RIVUMI.md", Scope: resolve.ScopeUser}
	root := &resolve.File{Path: "AGENTS.md", Scope: resolve.ScopeProject}
	sup := &resolve.File{Path: "a/AGENTS.md", Scope: resolve.ScopeProject}
	deep := &resolve.File{Path: "a/b/AGENTS.override.md", Scope: resolve.ScopeProject}
	user.Content = []byte("\xef\xbb\xbfuser text\r\n\r\n  ")
	root.Content = []byte("root\r\nline two\t \n\n")
	sup.Content = []byte("never shown")
	deep.Content = []byte("deep")
	r := &resolve.Resolution{Layers: []resolve.Layer{
		{File: user, State: resolve.Active},
		{File: root, State: resolve.Suppressed, By: deep.Path},
		{File: sup, State: resolve.Shadowed, By: deep.Path},
		{File: deep, State: resolve.Active},
	}}
	want := `<rivumi:section name="instructions" version="1">
<rivumi:layer scope="user" source="~/.rivumi/RIVUMI.md">
user text
</rivumi:layer>
<rivumi:layer scope="project" source="a/b/AGENTS.override.md">
deep
</rivumi:layer>
</rivumi:section>
`
	if got := string(Instructions(r)); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// P2: a chain without active layers has no instructions section.
func TestInstructionsEmpty(t *testing.T) {
	if got := Instructions(&resolve.Resolution{}); got != nil {
		t.Errorf("got %q, want nil", got)
	}
}

// P2, §10: a file name cannot end the attribute or the element.
func TestLayerAttributeEscaping(t *testing.T) {
	got := string(Layer("project", "a\"><rivumi:section name=\"x\n&.md", []byte("t")))
	want := "<rivumi:layer scope=\"project\" source=\"a&quot;&gt;&lt;rivumi:section name=&quot;x&#10;&amp;.md\">\nt\n</rivumi:layer>\n"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// P2: an empty text renders an empty layer element (RL009 reports it).
func TestLayerEmptyText(t *testing.T) {
	got := string(Layer("project", "AGENTS.md", []byte(" \r\n\t")))
	if want := "<rivumi:layer scope=\"project\" source=\"AGENTS.md\">\n</rivumi:layer>\n"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

func FuzzAttr(f *testing.F) {
	f.Add("a\"b<c>&d\ne")
	f.Fuzz(func(t *testing.T, s string) {
		out := attr(s)
		for _, c := range out {
			if c == '"' || c == '<' || c == '>' || c < 0x20 {
				t.Fatalf("attr(%q) = %q contains %q", s, out, c)
			}
		}
	})
}

// FuzzLayerLen (P3): the budget's length of a layer, taken from the length
// of its normalised text, is the length of the layer as rendered (P2),
// whatever the scope, the path and the text hold.
func FuzzLayerLen(f *testing.F) {
	f.Add("project", "a/AGENTS.md", []byte("\ufeffa\r\nb \n\n"))
	f.Add("user", "~/x\"<&>\x01\x7f\xff.md", []byte("  \t\n"))
	f.Add("", "é/ü.md", []byte{})
	f.Fuzz(func(t *testing.T, scope, source string, raw []byte) {
		want := len(Layer(scope, source, raw))
		if got := LayerLen(scope, source, content.NormalizedLen(raw)); got != want {
			t.Fatalf("LayerLen(%q, %q, %q) = %d, rendered %d", scope, source, raw, got, want)
		}
	})
}
