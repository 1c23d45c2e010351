package integration

// The project is self-contained (issue 12): every clause id and § section that
// code, tests, scripts and docs cite (R7, C1, F6, RL008, §10, …) is defined in
// docs/spec.md, and nothing points at a contract or schema outside the
// repository (the old shared/ directory beside it, which a clone does not have).

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// citedRe finds clause ids and section signs as the code cites them.
var citedRe = regexp.MustCompile(`\b(?:RL[0-9]{3}|[RCPFDXBOM][0-9]{1,2}b?)\b|§[0-9]+`)

// notClauses are tokens citedRe finds that are not clause citations: "C0"
// control characters, rule ids the tests use because they do not exist,
// and GitHub's RUNNER_ARCH values (the Action's install, D3).
var notClauses = map[string]bool{"C0": true, "RL015": true, "RL999": true, "X64": true, "X86": true}

// specDefinedRe finds what docs/spec.md defines: a bold clause lead-in
// ("**R1 Project root.**"), a rule table row ("| RL001 |"), a § heading.
var specDefinedRe = regexp.MustCompile(`(?m)\*\*([RCPFDXBOM][0-9]{1,2}b?) |^\| (RL[0-9]{3}) \||^#+ (§[0-9]+) `)

func specDefinitions(t *testing.T, root string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "spec.md"))
	if err != nil {
		t.Fatalf("docs/spec.md, the contract every clause id resolves to: %v", err)
	}
	defined := map[string]bool{}
	for _, m := range specDefinedRe.FindAllStringSubmatch(string(b), -1) {
		for _, g := range m[1:] {
			if g != "" {
				if defined[g] {
					t.Errorf("docs/spec.md defines %s twice", g)
				}
				defined[g] = true
			}
		}
	}
	return defined
}

// citingFiles are the text files of the module a reader follows a citation
// from; fuzz corpora and golden outputs are data, not citations.
func citingFiles(t *testing.T, root string, visit func(rel string, b []byte)) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == ".git" || (strings.Contains(rel, "testdata/") && d.Name() == "fuzz") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		switch filepath.Ext(p) {
		case ".go", ".md", ".txtar", ".yml", ".yaml", ".sh", "":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		visit(rel, b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSpecDefinesEveryCitedClause: a citation such as "F6" or "SPEC §10" in
// any file resolves to a definition in docs/spec.md, and the spec defines
// every clause of its families (R1–R10, C1–C5, P1–P6, P4b, RL001–RL014,
// F1–F10, D1–D7, X1–X4, B1–B6, O1–O4, §1–§13).
func TestSpecDefinesEveryCitedClause(t *testing.T) {
	root := moduleRoot(t)
	defined := specDefinitions(t, root)

	want := []string{"P4b"}
	for family, n := range map[string]int{"R": 10, "C": 5, "P": 6, "F": 10, "D": 7, "X": 4, "B": 6, "O": 4, "§": 13} {
		for i := 1; i <= n; i++ {
			want = append(want, fmt.Sprintf("%s%d", family, i))
		}
	}
	for i := 1; i <= 14; i++ {
		want = append(want, fmt.Sprintf("RL%03d", i))
	}
	for _, id := range want {
		if !defined[id] {
			t.Errorf("docs/spec.md does not define %s", id)
		}
	}

	undefined := map[string][]string{}
	citingFiles(t, root, func(rel string, b []byte) {
		if rel == "docs/spec.md" {
			return
		}
		for _, id := range citedRe.FindAllString(string(b), -1) {
			if !defined[id] && !notClauses[id] {
				undefined[id] = append(undefined[id], rel)
			}
		}
	})
	ids := make([]string, 0, len(undefined))
	for id := range undefined {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		t.Errorf("%s is cited (in %s) but docs/spec.md does not define it: define it there, or fix the citation",
			id, strings.Join(undefined[id], ", "))
	}
}

// outside is the directory beside the repository that held the contract and
// the SARIF schema; a clone has neither (the schema is in internal/report/testdata/).
// Spelt in pieces so that this file does not match itself.
var outside = []string{".." + "/shared", `"..", "..", ` + `"shared"`}

// TestNothingPointsOutsideTheRepository: no file refers to that directory.
func TestNothingPointsOutsideTheRepository(t *testing.T) {
	root := moduleRoot(t)
	citingFiles(t, root, func(rel string, b []byte) {
		for _, o := range outside {
			if strings.Contains(string(b), o) {
				t.Errorf("%s refers to %s, outside the repository: point it at docs/spec.md or report/testdata/", rel, o)
			}
		}
	})
}
