package repo

import (
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// TestChainInputsSame is R9 with F5 and D1: a directory's chain inputs
// are the same at two commits when only entries a chain never reads
// changed, and differ when a candidate, a case-folded candidate, a
// .gitattributes file, a directory named like a candidate, or a directory
// on the way (missing, or a link) did, in it or in any directory above
// it.
func TestChainInputsSame(t *testing.T) {
	t.Parallel() // each opens its own Repo with its own options (#22)
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "a/b/AGENTS.md", "ab\n", "a/b/c/code.go", "package c\n",
		"a/x/code.go", "x\n", "d/e/code.go", "e\n", "f/code.go", "f\n", "h/code.go", "h\n", "l/code.go", "l\n",
		"k/code.go", "k\n")
	g.Commit("base")
	base := g.Rev("HEAD")
	g.Write("a/b/c/code.go", "package c // changed\n", "a/b/c/new.go", "new\n", "a/x/code.go", "x2\n", "a/new/file", "n\n") // no chain input
	g.Write("d/Agents.MD", "folded\n")                                                                                      // a case-folded candidate in d
	g.Write("k/AGENT\u017f.md", "folded\n")                                                                                 // U+017F folds to s (D1)
	g.Write("f/.gitattributes", "* -text\n")                                                                                // attributes in f
	g.Write("h/AGENTS.md/inner", "a layer?\n")                                                                              // a directory named like a candidate in h
	g.Remove("l")
	g.Symlink("a", "l") // l becomes a link
	g.Commit("head")
	for _, parallel := range []int{1, 2} {
		r := openPar(t, g.Dir, parallel)
		a, b := r.Tree(commitHash(t, r, base), "base"), r.Tree(commitHash(t, r, "HEAD"), "head")
		c := NewChainInputs(a, b, candNames)
		for dir, want := range map[string]bool{
			"":        true,
			"a":       true,
			"a/b":     true,
			"a/b/c":   true,
			"a/x":     true,
			"a/new":   false, // not at the base
			"d":       false,
			"d/e":     false, // below d
			"f":       false,
			"h":       false,
			"k":       false,
			"l":       false, // a link at the head
			"missing": false,
		} {
			if got := c.Same(dir); got != want {
				t.Errorf("parallelism %d: Same(%q) = %v, want %v", parallel, dir, got, want)
			}
		}
	}
	// A change of a candidate's content, or of the root's, reaches every
	// directory.
	g.Write("AGENTS.md", "root changed\n")
	g.Commit("root")
	r := open(t, g.Dir)
	a, b := r.Tree(commitHash(t, r, "HEAD~1"), "base"), r.Tree(commitHash(t, r, "HEAD"), "head")
	c := NewChainInputs(a, b, candNames)
	for _, dir := range []string{"", "a", "a/b/c"} {
		if c.Same(dir) {
			t.Errorf("Same(%q) after the root AGENTS.md changed", dir)
		}
	}
}

// TestIndexChainInputsSame is TestChainInputsSame for --staged: HEAD's
// tree against the index.
func TestIndexChainInputsSame(t *testing.T) {
	t.Parallel() // each opens its own Repo with its own options (#22)
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "a/b/AGENTS.md", "ab\n", "a/b/c/code.go", "c\n", "d/code.go", "d\n",
		"f/code.go", "f\n", "h/code.go", "h\n")
	g.Commit("base")
	g.Write("a/b/c/code.go", "c2\n", "a/b/c/new.go", "new\n", "a/new/file", "n\n") // no chain input
	g.Write("d/agents.MD", "folded\n", "f/.gitattributes", "* -text\n", "h/AGENTS.md/inner", "layer?\n")
	g.Git("add", "-A")
	for _, parallel := range []int{1, 2} {
		r := openPar(t, g.Dir, parallel)
		x, err := r.Index()
		if err != nil {
			t.Fatal(err)
		}
		c := NewIndexChainInputs(r.Tree(commitHash(t, r, "HEAD"), "HEAD"), x, candNames)
		for dir, want := range map[string]bool{
			"": true, "a": true, "a/b": true, "a/b/c": true,
			"a/new": false, "d": false, "f": false, "h": false, "missing": false,
		} {
			if got := c.Same(dir); got != want {
				t.Errorf("parallelism %d: Same(%q) = %v, want %v", parallel, dir, got, want)
			}
		}
	}
}
