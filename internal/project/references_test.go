package project

import (
	"testing"

	"github.com/rivumi/rivumi-lint/internal/refs"
	"github.com/rivumi/rivumi-lint/internal/repo"
)

// RL021's cost rule (docs/references.md): the references are read only
// for a change that deletes or renames a path, touches an instruction
// file, or modifies a file a command reference resolves in.
func TestRefsTouched(t *testing.T) {
	cands := []string{"AGENTS.md"}
	for _, c := range []struct {
		ch   repo.Change
		want bool
	}{
		{repo.Change{Path: "src/a.go", Kind: repo.Modified}, false},
		{repo.Change{Path: "src/a.go", Kind: repo.Added}, false},
		{repo.Change{Path: "src/a.go", Kind: repo.Deleted}, true},
		{repo.Change{Path: "pkg/AGENTS.md", Kind: repo.Added}, true},
		{repo.Change{Path: "Makefile", Kind: repo.Modified}, true},
		{repo.Change{Path: "mk/rules.mk", Kind: repo.Modified}, true},
		{repo.Change{Path: "web/package.json", Kind: repo.Modified}, true},
		{repo.Change{Path: "justfile", Kind: repo.Modified}, true},
		{repo.Change{Path: "Makefile", Kind: repo.Added}, false},
	} {
		if got := refsTouched([]repo.Change{c.ch}, cands); got != c.want {
			t.Errorf("refsTouched(%s %s) = %v, want %v", c.ch.Kind, c.ch.Path, got, c.want)
		}
	}
}

// A rename is a deleted and an added path of the same blob, and only when
// one path has it; a directory's rename is the one place its files moved.
func TestRenames(t *testing.T) {
	h1, h2, h3 := repo.HashOf([]byte("1")), repo.HashOf([]byte("2")), repo.HashOf([]byte("3"))
	c := &refCheck{renames: renames([]repo.Change{
		{Path: "a/x.md", Kind: repo.Deleted, Old: h1},
		{Path: "b/x.md", Kind: repo.Added, New: h1},
		{Path: "a/y.md", Kind: repo.Deleted, Old: h2},
		{Path: "b/y.md", Kind: repo.Added, New: h2},
		{Path: "c.md", Kind: repo.Deleted, Old: h3},
		{Path: "d1.md", Kind: repo.Added, New: h3},
		{Path: "d2.md", Kind: repo.Added, New: h3},
	}), deleted: map[string]bool{"a/x.md": true, "a/y.md": true, "c.md": true}}
	for from, want := range map[string]string{"a/x.md": "b/x.md", "a": "b", "c.md": ""} {
		if got, _ := c.renamedTo(from); got != want {
			t.Errorf("renamedTo(%s) = %q, want %q", from, got, want)
		}
	}
}

// The fix writes the new path as the reference wrote the old one.
func TestNewSpelling(t *testing.T) {
	for i, c := range []struct{ file, written, from, to, want string }{
		{"AGENTS.md", "docs/setup.md", "docs/setup.md", "docs/install.md", "docs/install.md"},
		{"docs/AGENTS.md", "./setup.md", "docs/setup.md", "guide/setup.md", "../guide/setup.md"},
		{"docs/AGENTS.md", "setup.md", "setup.md", "docs/install.md", "install.md"},      // a link: from the file
		{"docs/AGENTS.md", "setup.md", "setup.md", "docs/install.md", "docs/install.md"}, // a path: from the root, where found
		{"pkg/AGENTS.md", "/docs/", "docs", "guide", "/guide/"},
		{"AGENTS.md", "docs/a%20b.md", "docs/a b.md", "docs/c.md", ""},
	} {
		text := []byte("[x](" + c.written + ")")
		target := c.written
		if c.written == "docs/a%20b.md" {
			target = "docs/a b.md"
		}
		kind := refs.Link
		if i == 3 {
			kind = refs.Path
		}
		ref := refs.Ref{Kind: kind, Target: target, Offset: 4, End: 4 + len(c.written)}
		if got := newSpelling(c.file, ref, text, c.from, c.to); got != c.want {
			t.Errorf("newSpelling(%s, %s → %s) = %q, want %q", c.written, c.from, c.to, got, c.want)
		}
	}
}
