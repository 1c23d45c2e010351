package integration

// D4 (SPEC §12): pre-commit's `language: golang` install runs
// `go install ./...` at the repository root; it must build rivumi-lint and
// nothing else, and download only the modules the command links.

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

func goList(t *testing.T, args ...string) []string {
	t.Helper()
	r := run(t, moduleRoot(t), os.Environ(), nil, "go", append([]string{"list"}, args...)...)
	if r.code != 0 {
		t.Fatalf("go list %s: %s", strings.Join(args, " "), r)
	}
	var out []string
	for _, l := range strings.Split(r.stdout, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

func TestGoInstallBuildsOnlyTheCommandD4(t *testing.T) {
	const cmd = "github.com/rivumi/rivumi-lint/cmd/rivumi-lint"
	// One main package in ./... of the main module.
	var mains []string
	for _, l := range goList(t, "-f", "{{.Name}} {{.ImportPath}}", "./...") {
		if name, path, _ := strings.Cut(l, " "); name == "main" {
			mains = append(mains, path)
		}
	}
	if len(mains) != 1 || mains[0] != cmd {
		t.Errorf("main packages in ./...: %v, want only %s (benchmarks and generators belong in a nested module)", mains, cmd)
	}
	// No package that `go install ./...` compiles links the testing
	// package: test helpers take a small interface instead.
	for _, l := range goList(t, "-deps", "-f", "{{.ImportPath}}: {{join .Imports \" \"}}", "./...") {
		path, imports, _ := strings.Cut(l, ": ")
		if slices.Contains(strings.Fields(imports), "testing") {
			t.Errorf("%s imports testing outside its _test.go files", path)
		}
	}
	// The modules ./... links are the command's: nothing more to download.
	modules := "{{with .Module}}{{.Path}}{{end}}"
	all, command := goList(t, "-deps", "-f", modules, "./..."), goList(t, "-deps", "-f", modules, cmd)
	for _, m := range all {
		if !slices.Contains(command, m) {
			t.Errorf("go install ./... links module %s, which rivumi-lint does not", m)
		}
	}
	// And the install itself leaves one binary.
	gobin := t.TempDir()
	r := run(t, moduleRoot(t), append(os.Environ(), "GOBIN="+gobin, "GOWORK=off"), nil, "go", "install", "./...")
	if r.code != 0 {
		t.Fatalf("go install ./...: %s", r)
	}
	entries, err := os.ReadDir(gobin)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())))
	}
	if len(names) != 1 || names[0] != "rivumi-lint" {
		t.Errorf("go install ./... installed %v, want only rivumi-lint", names)
	}
}
