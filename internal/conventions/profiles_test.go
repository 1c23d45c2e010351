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

// profilePrefix is the import path below which each agent profile has its
// package (internal/agent/codex, internal/agent/claude, …).
const profilePrefix = "github.com/rivumi/rivumi-lint/internal/agent/"

// notProfiles are the packages below profilePrefix that are not profiles.
var notProfiles = []string{"agenttest"}

// TestProfilesStayInTheirPackages is #34's conventions test. Outside a
// profile's own package (and the packages below it), no Go file, test
// files included, names the profile's concrete resolver type (P.Resolver):
// the rest of the tool holds an agent.Resolver, so a new profile needs no
// branch there. And no non-test file of internal/lint compares a
// candidate's Reason text (strings.Contains, Cut, HasPrefix, Index, …, or
// == and switch on x.Reason): Reason is for people; a rule reads the
// candidate's typed facts.
func TestProfilesStayInTheirPackages(t *testing.T) {
	root := moduleRoot(t)
	lintDir := filepath.Join(root, "internal", "lint")
	fset := token.NewFileSet()
	files, namings, compares := 0, 0, 0 // namings, compares: counted for the failure's sake
	for _, dir := range packageDirs(t, root) {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, dir)
		own := ownProfile(filepath.ToSlash(rel))
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			p := filepath.Join(dir, e.Name())
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files++
			for _, at := range resolverNamings(f, own) {
				namings++
				t.Errorf("%s: names a profile's concrete resolver type outside its package; hold an agent.Resolver", fset.Position(at))
			}
			if !strings.HasSuffix(e.Name(), "_test.go") && !profileRowFile(filepath.ToSlash(filepath.Join(rel, e.Name()))) {
				for _, at := range profileBranches(f) {
					t.Errorf("%s: imports one profile's package outside the registry (internal/profiles) and the rules (internal/lint/rl_*.go): loop over profiles.All() instead", fset.Position(at))
				}
			}
			if dir == lintDir && !strings.HasSuffix(e.Name(), "_test.go") {
				for _, at := range reasonComparisons(f) {
					compares++
					t.Errorf("%s: compares a Reason's text; read the candidate's typed facts (agent.Candidate) instead", fset.Position(at))
				}
			}
		}
	}
	if files < 100 {
		t.Fatalf("only %d Go files seen: the walk is wrong", files)
	}
}

// ownProfile is the profile package a directory (relative to the module
// root, slashes) belongs to: "internal/agent/claude" for itself and
// internal/agent/claude/marked; "" outside every profile.
func ownProfile(rel string) string {
	rest, ok := strings.CutPrefix(rel, "internal/agent/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	for _, n := range notProfiles {
		if name == n {
			return ""
		}
	}
	return "internal/agent/" + name
}

// resolverNamings are the places f names P.Resolver for an imported
// profile package P other than own.
func resolverNamings(f *ast.File, own string) []token.Pos {
	profiles := map[string]bool{} // local names of imported profile packages
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil || !strings.HasPrefix(path, profilePrefix) {
			continue
		}
		if ownProfile(strings.TrimPrefix(path, "github.com/rivumi/rivumi-lint/")) == "" ||
			own != "" && strings.HasPrefix(strings.TrimPrefix(path, "github.com/rivumi/rivumi-lint/"), own) {
			continue
		}
		name := path[strings.LastIndexByte(path, '/')+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		profiles[name] = true
	}
	var at []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := s.X.(*ast.Ident); ok && profiles[x.Name] && s.Sel.Name == "Resolver" {
				at = append(at, s.Pos())
			}
		}
		return true
	})
	return at
}

// textTests are the strings functions that look into a text.
var textTests = map[string]bool{
	"Contains": true, "ContainsAny": true, "ContainsRune": true, "Cut": true, "CutPrefix": true, "CutSuffix": true,
	"HasPrefix": true, "HasSuffix": true, "Index": true, "IndexByte": true, "IndexAny": true, "LastIndex": true,
	"EqualFold": true, "Count": true, "Compare": true, "Fields": true, "Split": true, "SplitN": true,
}

// reasonComparisons are the places f looks into or compares an x.Reason.
func reasonComparisons(f *ast.File) []token.Pos {
	isReason := func(e ast.Expr) bool {
		s, ok := e.(*ast.SelectorExpr)
		return ok && s.Sel.Name == "Reason"
	}
	var at []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			fn, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				break
			}
			if pkg, ok := fn.X.(*ast.Ident); !ok || pkg.Name != "strings" || !textTests[fn.Sel.Name] {
				break
			}
			for _, a := range n.Args {
				if isReason(a) {
					at = append(at, n.Pos())
				}
			}
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (isReason(n.X) || isReason(n.Y)) {
				at = append(at, n.Pos())
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && isReason(n.Tag) {
				at = append(at, n.Pos())
			}
		}
		return true
	})
	return at
}

// profileRowFile reports whether the file (relative to the module root)
// may name a profile: a profile's own package (and the shared one), the
// registry (internal/profiles: the profiles' rows) and the rule files of
// internal/lint (rl_*.go: a profile's rules name it as their Agent).
func profileRowFile(rel string) bool {
	return strings.HasPrefix(rel, "internal/agent/") ||
		strings.HasPrefix(rel, "internal/profiles/") ||
		strings.HasPrefix(rel, "internal/lint/rl_")
}

// profileBranches are the places f imports a profile's package
// (internal/agent/NAME): its name, version and options are for its row
// and its rules; everything else loops over the registry.
func profileBranches(f *ast.File) []token.Pos {
	var at []token.Pos
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil || !strings.HasPrefix(path, profilePrefix) {
			continue
		}
		if ownProfile(strings.TrimPrefix(path, "github.com/rivumi/rivumi-lint/")) != "" {
			at = append(at, imp.Pos())
		}
	}
	return at
}
