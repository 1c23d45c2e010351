package conventions

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gitFileWords are the string literals that name a Git file or setting
// only a reader of Git's own files needs: a literal containing one of
// contained (without case: Git's keys are case-insensitive), or equal to
// one of exact (the parts a path is joined from, as on disk:
// filepath.Join(common, "info", "exclude"); rdjson's severity "INFO" is
// another word).
//
// Not listed, because other packages test paths with them and read no
// Git file through them:
//   - ".git", "HEAD", "objects", "refs": outfile (a leaf, below repo)
//     refuses to write into a Git directory by looking at its shape, and
//     resolve, scope, lint, fix and project recognise a .git entry or a
//     nested repository by its name, never opening it;
//   - "hooks", "core.hooksPath": hook install writes the hook file (its
//     job, R10's one exception) in the hooks directory; it reads
//     core.hooksPath through repo.DiscoverConfigPath and names the key in
//     its messages;
//   - "config": a flag and a diagnostic code in several packages.
var gitFileWords = struct{ contained, exact []string }{
	contained: []string{
		"info/exclude", "info/attributes", // repo.ReadExcludeFile, repo.ReadInfoAttributes
		"commondir",       // repo.CommonDir
		"index.lock",      // repo.IndexLocked
		"excludesfile",    // repo.ReadIgnoreConfig
		"core.ignorecase", // repo.ReadIgnoreConfig
		"config.worktree", // repo.ReadIgnoreConfig
		"packed-refs",     // references: go-git inside repo
	},
	exact: []string{"info", "exclude", "attributes", "gitdir"},
}

// TestOnlyRepoReadsGitFiles is #22's "no package outside repo reads Git
// files or config": outside internal/repo (and its subpackages), no
// non-test file imports go-git (github.com/go-git/...) or holds a string
// literal of gitFileWords. Git's files and configuration are read by
// repo (internal/repo/gitfiles.go for the other packages' needs: the
// ignore config, info/exclude, info/attributes, the sparse .gitignore
// blobs, the index lock, HEAD's branch, a config path); gitignore and
// gitattr parse the bytes they are given. Tests are left out: they build
// repositories with git.
func TestOnlyRepoReadsGitFiles(t *testing.T) {
	root := moduleRoot(t)
	repoDir := filepath.Join(root, "internal", "repo")
	outside, inside := 0, 0
	for _, dir := range packageDirs(t, root) {
		inRepo := dir == repoDir || strings.HasPrefix(dir, repoDir+string(filepath.Separator))
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			p := filepath.Join(dir, e.Name())
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, p)
			for _, hit := range gitFileHits(fset, f) {
				if inRepo {
					inside++
					continue
				}
				t.Errorf("%s:%d: %s outside internal/repo: read Git's files and config through repo (internal/repo/gitfiles.go)", rel, hit.line, hit.what)
			}
			if !inRepo {
				outside++
			}
		}
	}
	if outside == 0 || inside == 0 {
		// The walk found no file, or the matcher no longer sees what
		// repo itself holds (go-git, "commondir"): the test would pass
		// for nothing.
		t.Fatalf("%d files outside internal/repo read, %d hits inside it: want both > 0", outside, inside)
	}
}

type gitFileHit struct {
	line int
	what string
}

// gitFileHits are f's imports of go-git and its literals of gitFileWords.
func gitFileHits(fset *token.FileSet, f *ast.File) []gitFileHit {
	var out []gitFileHit
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); strings.HasPrefix(p, "github.com/go-git/") {
			out = append(out, gitFileHit{fset.Position(im.Pos()).Line, "an import of " + p})
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if isImportPath(f, lit) {
			return true // an import is judged above
		}
		v, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		lv := strings.ToLower(v)
		for _, w := range gitFileWords.contained {
			if strings.Contains(lv, w) {
				out = append(out, gitFileHit{fset.Position(lit.Pos()).Line, strconv.Quote(w) + " in a string literal"})
			}
		}
		for _, w := range gitFileWords.exact {
			if v == w {
				out = append(out, gitFileHit{fset.Position(lit.Pos()).Line, "the string literal " + strconv.Quote(v)})
			}
		}
		return true
	})
	return out
}

// isImportPath reports whether lit is the path of one of f's imports.
func isImportPath(f *ast.File, lit *ast.BasicLit) bool {
	for _, im := range f.Imports {
		if im.Path == lit {
			return true
		}
	}
	return false
}
