package repo_test

// Why the repository has its own object reader (docs/performance.md, SPEC
// §9): the diff of two commits of the generated monorepo, read natively,
// against go-git's plumbing on the same repository: object.DiffTree, and
// the same hash-pruned walk as DiffTrees but over go-git's object storage.
//
//	go test ./internal/repo -run '^$' -bench DiffCommits                      # monorepo.Small, seconds
//	go test ./internal/repo -run '^$' -bench DiffCommits -monorepo.size full  # SPEC §9's repository

import (
	"flag"
	"fmt"
	"path"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/rivumi/rivumi-lint/internal/monorepo"
	"github.com/rivumi/rivumi-lint/internal/repo"
)

var benchSize = flag.String("monorepo.size", "small", "size of the generated repository of the DiffCommits benchmarks: small or full")

// monorepoDir generates the repository of -monorepo.size in a temporary
// directory of b.
func monorepoDir(b *testing.B) string {
	b.Helper()
	size := monorepo.Small
	switch *benchSize {
	case "small":
	case "full":
		size = monorepo.Full
	default:
		b.Fatalf("-monorepo.size %q: want small or full", *benchSize)
	}
	dir := b.TempDir()
	if err := monorepo.Create(dir, monorepo.Generate(size, 1), monorepo.Options{}); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkDiffCommits diffs commit A against commit B of the generated
// monorepo, opening the repository each time (no object stays cached from
// one iteration to the next), three ways. Each reports the changed paths
// it found; they must agree.
func BenchmarkDiffCommits(b *testing.B) {
	dir := monorepoDir(b)
	var want int
	b.Run("native", func(b *testing.B) {
		for b.Loop() {
			want = diffNative(b, dir)
		}
		b.ReportMetric(float64(want), "paths")
	})
	b.Run("go-git-DiffTree", func(b *testing.B) {
		var n int
		for b.Loop() {
			n = diffGoGit(b, dir, false)
		}
		b.ReportMetric(float64(n), "paths")
		if want != 0 && n != want {
			b.Errorf("object.DiffTree found %d changed paths, the native diff %d", n, want)
		}
	})
	b.Run("go-git-pruned", func(b *testing.B) {
		var n int
		for b.Loop() {
			n = diffGoGit(b, dir, true)
		}
		b.ReportMetric(float64(n), "paths")
		if want != 0 && n != want {
			b.Errorf("the pruned walk over go-git's storage found %d changed paths, the native diff %d", n, want)
		}
	})
}

func diffNative(b *testing.B, dir string) int {
	r, err := repo.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	var trees [2]repo.Hash
	for i, rev := range []string{monorepo.BranchA, monorepo.BranchB} {
		c, err := r.ResolveCommit(rev, "commit")
		if err != nil {
			b.Fatal(err)
		}
		if trees[i], err = r.CommitTree(c); err != nil {
			b.Fatal(err)
		}
	}
	ch, err := r.DiffTrees(trees[0], trees[1])
	if err != nil {
		b.Fatal(err)
	}
	return len(ch)
}

func diffGoGit(b *testing.B, dir string, pruned bool) int {
	g, err := git.PlainOpen(dir)
	if err != nil {
		b.Fatal(err)
	}
	var trees [2]*object.Tree
	for i, rev := range []string{monorepo.BranchA, monorepo.BranchB} {
		ref, err := g.Reference(plumbing.NewBranchReferenceName(rev), true)
		if err != nil {
			b.Fatal(err)
		}
		c, err := g.CommitObject(ref.Hash())
		if err != nil {
			b.Fatal(err)
		}
		if trees[i], err = c.Tree(); err != nil {
			b.Fatal(err)
		}
	}
	if !pruned {
		ch, err := object.DiffTree(trees[0], trees[1])
		if err != nil {
			b.Fatal(err)
		}
		return len(ch)
	}
	n, err := prunedDiff(g, "", trees[0], trees[1])
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// prunedDiff counts the paths that differ between trees a and b (either
// may be nil) the way DiffTrees walks: equal subtree ids are skipped, a
// file against a directory is a delete plus the other side's files.
func prunedDiff(g *git.Repository, dir string, a, b *object.Tree) (int, error) {
	byName := map[string][2]*object.TreeEntry{}
	for side, t := range []*object.Tree{a, b} {
		if t == nil {
			continue
		}
		for i := range t.Entries {
			e := &t.Entries[i]
			p := byName[e.Name]
			p[side] = e
			byName[e.Name] = p
		}
	}
	n := 0
	for name, p := range byName {
		ea, eb := p[0], p[1]
		if ea != nil && eb != nil && ea.Hash == eb.Hash && ea.Mode == eb.Mode {
			continue
		}
		var sub [2]*object.Tree
		files := 0
		for side, e := range []*object.TreeEntry{ea, eb} {
			switch {
			case e == nil:
			case e.Mode == filemode.Dir:
				t, err := g.TreeObject(e.Hash)
				if err != nil {
					return 0, fmt.Errorf("tree %s (%s): %w", e.Hash, path.Join(dir, name), err)
				}
				sub[side] = t
			default:
				files++
			}
		}
		if files > 0 {
			n++ // a file on one side or both: one changed path
		}
		if sub[0] != nil || sub[1] != nil {
			m, err := prunedDiff(g, path.Join(dir, name), sub[0], sub[1])
			if err != nil {
				return 0, err
			}
			n += m
		}
	}
	return n, nil
}
