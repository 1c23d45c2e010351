package conventions

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// moduleRoot is the directory of go.mod above this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}

// packageDirs are the directories of the main module holding Go files
// (bench/ and tools/ are modules of their own).
func packageDirs(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || rel == "bench" || rel == "tools") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") {
			seen[filepath.Dir(p)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for d := range seen {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return dirs
}

// TestNoTestWritesAPackageVariable is #22's "no mutable package-level
// variable is written by a test": a test that sets one (a seam) hides a
// dependency and cannot run in parallel. Seams are options or fields.
// Reported: an assignment, ++/-- or & in a _test.go file to a var the
// package declares outside its tests.
func TestNoTestWritesAPackageVariable(t *testing.T) {
	root := moduleRoot(t)
	n := 0
	for _, dir := range packageDirs(t, root) {
		fset := token.NewFileSet()
		pkgs, err := parsePackages(fset, dir)
		if err != nil {
			t.Fatal(err)
		}
		for name, files := range pkgs {
			if strings.HasSuffix(name, "_test") {
				continue // an external test package reaches only exported names, and tests write none
			}
			vars := map[string]bool{}
			for name, f := range files {
				if strings.HasSuffix(name, "_test.go") {
					continue
				}
				for _, decl := range f.Decls {
					gd, ok := decl.(*ast.GenDecl)
					if !ok || gd.Tok != token.VAR {
						continue
					}
					for _, spec := range gd.Specs {
						for _, id := range spec.(*ast.ValueSpec).Names {
							vars[id.Name] = true
						}
					}
				}
			}
			for name, f := range files {
				if !strings.HasSuffix(name, "_test.go") {
					continue
				}
				n++
				for _, w := range packageWrites(f, vars) {
					rel, _ := filepath.Rel(root, fset.Position(w.Pos()).Filename)
					t.Errorf("%s:%d: the test writes the package variable %s: make it an option or a field",
						rel, fset.Position(w.Pos()).Line, w.Name)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no test files read")
	}
}

// parsePackages parses the Go files of dir, by package name and file.
func parsePackages(fset *token.FileSet, dir string) (map[string]map[string]*ast.File, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]*ast.File{}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if out[f.Name.Name] == nil {
			out[f.Name.Name] = map[string]*ast.File{}
		}
		out[f.Name.Name][p] = f
	}
	return out, nil
}

// packageWrites are the identifiers naming one of vars that f assigns,
// increments or takes the address of, where no declaration in the same
// function shadows it.
func packageWrites(f *ast.File, vars map[string]bool) []*ast.Ident {
	var out []*ast.Ident
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		local := map[string]bool{}
		declare := func(id *ast.Ident) { local[id.Name] = true }
		if fn.Recv != nil {
			for _, fl := range fn.Recv.List {
				for _, id := range fl.Names {
					declare(id)
				}
			}
		}
		for _, fl := range fn.Type.Params.List {
			for _, id := range fl.Names {
				declare(id)
			}
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range x.Lhs {
					id, ok := lhs.(*ast.Ident)
					if !ok {
						continue
					}
					if x.Tok == token.DEFINE {
						declare(id)
						continue
					}
					if vars[id.Name] && !local[id.Name] {
						out = append(out, id)
					}
				}
			case *ast.ValueSpec:
				for _, id := range x.Names {
					declare(id)
				}
			case *ast.FuncLit:
				for _, fl := range x.Type.Params.List {
					for _, id := range fl.Names {
						declare(id)
					}
				}
			case *ast.RangeStmt:
				if x.Tok == token.DEFINE {
					for _, e := range []ast.Expr{x.Key, x.Value} {
						if id, ok := e.(*ast.Ident); ok {
							declare(id)
						}
					}
				}
			case *ast.IncDecStmt:
				if id, ok := x.X.(*ast.Ident); ok && vars[id.Name] && !local[id.Name] {
					out = append(out, id)
				}
			case *ast.UnaryExpr:
				if id, ok := x.X.(*ast.Ident); ok && x.Op == token.AND && vars[id.Name] && !local[id.Name] {
					out = append(out, id)
				}
			}
			return true
		})
	}
	return out
}
