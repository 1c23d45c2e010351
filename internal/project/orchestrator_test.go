package project

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// #22, F1: the orchestrator schedules nothing itself. Concurrency lives in
// the component that owns it (repo.ScanIndexBeside, lint.PrepareBeside,
// resolve's listings, scope's walk), each next to its serial twin; this
// package starts no goroutine and never asks how many processors there
// are.
func TestOrchestratorStartsNoGoroutine(t *testing.T) {
	ents, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		n++
		ast.Inspect(f, func(node ast.Node) bool {
			switch x := node.(type) {
			case *ast.GoStmt:
				t.Errorf("%s: a go statement: concurrency belongs to the component that owns it", fset.Position(x.Pos()))
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && id.Name == "runtime" && x.Sel.Name == "GOMAXPROCS" {
					t.Errorf("%s: runtime.GOMAXPROCS: the component that runs in parallel decides", fset.Position(x.Pos()))
				}
			}
			return true
		})
	}
	if n == 0 {
		t.Fatal("no Go files read")
	}
}
