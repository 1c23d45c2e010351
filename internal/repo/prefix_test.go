package repo_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// prefixFixture writes the same content into alone (at its top level) and
// into mono below sub/, with other content beside sub/ in mono only.
type prefixFixture struct{ mono, alone *gittest.Repo }

func (f prefixFixture) write(pathContent ...string) {
	f.alone.Write(pathContent...)
	for i := 0; i+1 < len(pathContent); i += 2 {
		f.mono.Write("sub/"+pathContent[i], pathContent[i+1])
	}
}

func (f prefixFixture) symlink(target, p string) {
	f.alone.Symlink(target, p)
	f.mono.Symlink(target, "sub/"+p)
}

func (f prefixFixture) commit(msg string) {
	f.alone.Commit(msg)
	f.mono.Commit(msg)
}

// TestPrefixSourcesEqualStandalone is F2 and R1: re-rooted at sub, the
// commits' trees (Subtree), the index (Index.Sub) and the changed paths of
// a repository are those of a standalone repository holding only sub's
// content: the same changes, resolutions and fingerprints.
func TestPrefixSourcesEqualStandalone(t *testing.T) {
	f := prefixFixture{mono: gittest.New(t), alone: gittest.New(t)}
	f.write(
		"AGENTS.md", "root\n",
		"a/AGENTS.override.md", "override\n",
		"a/x/AGENTS.md", "below\n",
		"b/AGENTS.md/inner.txt", "a directory named AGENTS.md\n",
	)
	f.symlink("../AGENTS.md", "d/AGENTS.md")
	f.mono.Write("AGENTS.md", "outside\n", "other/AGENTS.md", "outside <rivumi:x>\n", "subway/AGENTS.md", "sibling\n")
	f.commit("one")
	f.write("a/x/AGENTS.md", "changed </rivumi:layer>\n", "c/AGENTS.md", "new\n")
	f.mono.Write("other/AGENTS.md", "changed outside\n", "subway/AGENTS.md", "changed sibling\n")
	f.commit("two")
	// Staged, not committed.
	f.write("e/RIVUMI.md", "staged\n", "AGENTS.md", "root staged\n")
	f.mono.Write("subway/x.md", "staged sibling\n")
	f.alone.Git("add", "-A")
	f.mono.Git("add", "-A")

	type view struct {
		changes, indexChanges []string
		chains                map[string]string
	}
	look := func(g *gittest.Repo, prefix string) view {
		r, err := repo.Open(g.Dir)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		tree := func(rev string) repo.Hash {
			c, err := r.ResolveCommit(rev, "test")
			if err != nil {
				t.Fatal(err)
			}
			th, err := r.CommitTree(c)
			if err != nil {
				t.Fatal(err)
			}
			sub, err := r.Subtree(th, prefix, rev)
			if err != nil {
				t.Fatal(err)
			}
			return sub
		}
		base, head := tree("HEAD~1"), tree("HEAD")
		var v view
		ch, err := r.DiffTrees(base, head)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range ch {
			v.changes = append(v.changes, fmt.Sprintf("%s %s", c.Kind, c.Path))
		}
		idx, err := r.Index()
		if err != nil {
			t.Fatal(err)
		}
		if idx, err = idx.Sub(prefix); err != nil {
			t.Fatal(err)
		}
		ch, err = r.DiffIndex(head, idx)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range ch {
			v.indexChanges = append(v.indexChanges, fmt.Sprintf("%s %s", c.Kind, c.Path))
		}
		v.chains = map[string]string{}
		for name, src := range map[string]interface {
			resolve.Source
			DirsBelow(string) ([]string, error)
		}{"tree": r.Tree(head, "HEAD"), "index": idx} {
			dirs, err := src.DirsBelow("")
			if err != nil {
				t.Fatal(err)
			}
			e := resolve.New(src, engineOpts)
			for _, d := range dirs {
				res, err := e.Chain(d)
				if err != nil {
					t.Fatal(err)
				}
				v.chains[name+" "+d] = describe(res) + " " + res.Fingerprint
			}
		}
		return v
	}
	alone, mono := look(f.alone, ""), look(f.mono, "sub")
	if a, m := strings.Join(alone.changes, "\n"), strings.Join(mono.changes, "\n"); a != m || a == "" {
		t.Errorf("DiffTrees: --root sub gives\n%s\nthe standalone repository\n%s", m, a)
	}
	if a, m := strings.Join(alone.indexChanges, "\n"), strings.Join(mono.indexChanges, "\n"); a != m || a == "" {
		t.Errorf("DiffIndex: --root sub gives\n%s\nthe standalone repository\n%s", m, a)
	}
	if len(alone.chains) != len(mono.chains) {
		t.Errorf("%d chains at sub, %d standalone", len(mono.chains), len(alone.chains))
	}
	for k, want := range alone.chains {
		if got := mono.chains[k]; got != want {
			t.Errorf("%s: --root sub resolves\n  %s\nthe standalone repository\n  %s", k, got, want)
		}
	}
}

// TestPrefixNotADirectory: a project root that a commit or the index
// records as a symbolic link or a file cannot be read as a directory
// there; that is an error naming it, never an empty project (F2).
func TestPrefixNotADirectory(t *testing.T) {
	g := gittest.New(t)
	g.Write("real/AGENTS.md", "text <rivumi:x>\n", "file", "x\n")
	g.Symlink("real", "link")
	g.Commit("one")
	r, err := repo.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c, _, _ := r.Head()
	th, _ := r.CommitTree(c)
	idx, err := r.Index()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"link", "link/deeper", "file"} {
		if h, err := r.Subtree(th, p, "HEAD"); err == nil || !strings.Contains(err.Error(), "not a directory") {
			t.Errorf("Subtree(%q) = %v, %v; want an error", p, h, err)
		}
		if _, err := idx.Sub(p); err == nil || !strings.Contains(err.Error(), "not a directory") {
			t.Errorf("Index.Sub(%q): %v; want an error", p, err)
		}
	}
	// A directory the revision does not have holds nothing.
	if h, err := r.Subtree(th, "missing/dir", "HEAD"); err != nil || !h.IsZero() {
		t.Errorf("Subtree(missing) = %v, %v; want the empty tree", h, err)
	}
}
