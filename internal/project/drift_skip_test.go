package project

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// TestDriftSkipIsFullDrift is R9 with F5 and D1: skipping the base chains
// whose inputs did not change (repo.ChainInputs) gives the result that
// resolving every base chain gives, for every commit of a history that
// changes candidates, case-folded candidates, attributes, links and
// directories in and above the checked ones, between commits and between
// HEAD and the index (--staged).
func TestDriftSkipIsFullDrift(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "a/AGENTS.md", "a\n", "a/b/code.go", "b\n", "a/b/c/AGENTS.md", "c\n",
		"d/code.go", "d\n", "e/f/code.go", "f\n", "e/RIVUMI.md", "e\n")
	g.Commit("one")
	steps := []func(){
		func() { g.Write("a/b/code.go", "b2\n", "d/code.go", "d2\n", "e/f/code.go", "f2\n") }, // no chain input
		func() { g.Write("a/AGENTS.md", "a changed, café\n", "a/b/c/new.go", "n\n") },
		func() { g.Write("a/Agents.md", "folded\n", "a/b/code.go", "b3\n") },
		func() {
			// The checkout of a/AGENTS.md is no longer UTF-8 (F5); its
			// blob stays as it is (added alone: git add -A would convert
			// it again).
			g.Write("a/.gitattributes", "*.md working-tree-encoding=ISO-8859-1\n", "a/b/c/x.go", "x\n")
			g.Git("add", "a/.gitattributes", "a/b/c/x.go")
		},
		func() { g.Remove("a/.gitattributes", "a/Agents.md"); g.Write("e/f/AGENTS.md/inner", "dir layer\n") },
		func() { g.Remove("d"); g.Symlink("a/b", "d"); g.Write("e/f/code.go", "f3\n") },
		func() { g.Write("new/deep/AGENTS.md", "new\n", "new/code.go", "n\n", "a/b/code.go", "b4\n") },
		func() { g.Write("AGENTS.md", "root changed\n", "a/b/code.go", "b5\n") },
		func() { g.Remove("e/RIVUMI.md"); g.Write("e/f/code.go", "f4\n") },
	}
	twin := func(step int, mode string, d repo.Range) {
		t.Helper()
		fast, _, errFast := Check(Options{Root: g.Dir}, Scope{Diff: d})
		full, _, errFull := Check(Options{Root: g.Dir, fullDrift: true}, Scope{Diff: d})
		if fmt.Sprint(errFast) != fmt.Sprint(errFull) {
			t.Fatalf("step %d, %s: error %v with the skip, %v without", step, mode, errFast, errFull)
		}
		if !reflect.DeepEqual(fast, full) {
			t.Errorf("step %d, %s: drift with the skip\n%s\nwithout\n%s", step, mode, driftText(fast), driftText(full))
		}
	}
	for i, step := range steps {
		step()
		if i != 3 {
			g.Git("add", "-A")
		}
		twin(i, "--staged", repo.Range{Kind: repo.RangeStaged})
		if i != 3 {
			g.Commit(fmt.Sprint("step ", i))
		} else {
			g.Git("commit", "-q", "--no-verify", "-m", "attributes")
			if g.Git("diff", "--name-only", "HEAD~1", "HEAD", "--", "a/AGENTS.md") != "" {
				t.Fatal("a/AGENTS.md changed with its attributes: the step tests nothing")
			}
		}
		twin(i, "--base/--head", repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1", Head: "HEAD"})
	}
}
