package repo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestOneGitStarter (issue 12; F3: every fall-back runs Git through the one
// helper that sets the environment): among the module's packages the
// command links (`go list -deps ./cmd/rivumi-lint`), the only process
// started anywhere, on any platform's files, is gitProcess's git. A new
// exec.Command would start git without the hook-variable clean-up, or
// something else the tool has no business starting.
func TestOneGitStarter(t *testing.T) {
	modRoot, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	gocmd := "go"
	if root := os.Getenv("GOROOT"); root != "" {
		gocmd = filepath.Join(root, "bin", "go")
	}
	list := exec.Command(gocmd, "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}", "./cmd/rivumi-lint")
	list.Dir = modRoot
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/rivumi-lint: %v", err)
	}
	var dirs []string
	for _, d := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) < 5 {
		t.Fatalf("go list found only %d packages of the module: %q", len(dirs), dirs)
	}

	var starters, others []string
	for _, dir := range dirs {
		for _, s := range processStarts(t, dir) {
			rel, _ := filepath.Rel(modRoot, s.file)
			rel = filepath.ToSlash(rel)
			where := rel + ":" + strconv.Itoa(s.line) + " (" + s.fn + ")"
			if rel == "internal/repo/gitproc.go" && s.fn == "gitProcess" {
				starters = append(starters, where)
			} else {
				others = append(others, where)
			}
		}
	}
	sort.Strings(others)
	for _, o := range others {
		t.Errorf("%s starts a process: start git through the repo package (repo.GitCommand, repo.DiscoverCommand), whose gitProcess is the only starter", o)
	}
	if len(starters) != 1 {
		t.Errorf("gitProcess should start git at exactly one site, found %d: %q", len(starters), starters)
	}
}

type startSite struct {
	file string
	line int
	fn   string // the enclosing function, "" at package level
}

// processStarts lists every exec.Command, exec.CommandContext, exec.Cmd
// literal, os.StartProcess and syscall exec in the non-test Go files of
// dir, whatever their build constraints (other platforms' files count).
func processStarts(t *testing.T, dir string) []startSite {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var sites []startSite
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse %s: %v", f, err)
		}
		imports := map[string]string{} // local name -> import path
		for _, im := range file.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			name := filepath.Base(p)
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = p
		}
		isStart := func(e ast.Expr) bool {
			sel, ok := e.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return false
			}
			switch imports[x.Name] {
			case "os/exec":
				return sel.Sel.Name == "Command" || sel.Sel.Name == "CommandContext" || sel.Sel.Name == "Cmd"
			case "os":
				return sel.Sel.Name == "StartProcess"
			case "syscall", "golang.org/x/sys/unix":
				return sel.Sel.Name == "Exec" || sel.Sel.Name == "ForkExec" || sel.Sel.Name == "StartProcess"
			}
			return false
		}
		for _, decl := range file.Decls {
			fn := ""
			if fd, ok := decl.(*ast.FuncDecl); ok {
				fn = fd.Name.Name
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				var e ast.Expr
				switch n := n.(type) {
				case *ast.CallExpr:
					e = n.Fun
				case *ast.CompositeLit:
					e = n.Type
				}
				if e != nil && isStart(e) {
					sites = append(sites, startSite{file: f, line: fset.Position(n.Pos()).Line, fn: fn})
				}
				return true
			})
		}
	}
	return sites
}
