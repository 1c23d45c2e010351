package refs

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/refs/*.txtar")

// TestRegressionCorpus reads testdata/refs/*.txtar: small repositories
// written after what the corpus of docs/references.md showed (a monorepo
// move, a renamed directory, a renamed link target, fragments, package
// commands, placeholders). A case holds head/… files (the snapshot
// checked) and, for a change, base/… files; its want section lists every
// reference of head's instruction files with its status in head, then
// the change's findings ("broken": resolved in base and not in head;
// "added": new in head and resolved on neither side).
func TestRegressionCorpus(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("..", "..", "testdata", "refs", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases in testdata/refs")
	}
	for _, file := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			head, base := memSource{files: map[string]string{}}, memSource{files: map[string]string{}}
			hasBase := false
			wantAt := -1
			for i, f := range ar.Files {
				switch {
				case f.Name == "want":
					wantAt = i
				case strings.HasPrefix(f.Name, "head/"):
					head.files[strings.TrimPrefix(f.Name, "head/")] = strings.TrimSuffix(string(f.Data), "\n")
				case strings.HasPrefix(f.Name, "base/"):
					base.files[strings.TrimPrefix(f.Name, "base/")] = strings.TrimSuffix(string(f.Data), "\n")
					hasBase = true
				default:
					t.Fatalf("section %q is neither head/…, base/… nor want", f.Name)
				}
			}
			got := regressionResult(t, head, base, hasBase)
			if *update {
				if wantAt < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					wantAt = len(ar.Files) - 1
				}
				ar.Files[wantAt].Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if wantAt < 0 {
				t.Fatal("no want section (go test ./internal/refs -run TestRegressionCorpus -update)")
			}
			if want := string(ar.Files[wantAt].Data); got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func regressionResult(t *testing.T, head, base memSource, hasBase bool) string {
	var files []string
	for p, v := range head.files {
		if instructionNames[filepath.Base(p)] && !strings.HasPrefix(v, "->") {
			files = append(files, p)
		}
	}
	sort.Strings(files)
	rh, rb := NewResolver(head), NewResolver(base)
	var b bytes.Buffer
	var findings []string
	for _, f := range files {
		text := []byte(head.files[f])
		for _, r := range Extract(text) {
			res := rh.Resolve(f, r)
			fmt.Fprintf(&b, "%s:%d %s: %s\n", f, r.Line, show(r), res.Status)
		}
		if !hasBase {
			continue
		}
		old, had := base.files[f]
		found, err := changed(f, text, []byte(old), had && old == head.files[f], rh, rb)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range found {
			findings = append(findings, fmt.Sprintf("%s %s:%d %s", x.what, x.file, x.ref.Line, show(x.ref)))
		}
	}
	for _, f := range findings {
		fmt.Fprintln(&b, f)
	}
	return b.String()
}
