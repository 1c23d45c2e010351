package main

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

var updateDocs = flag.Bool("update", false, "rewrite the docs' console blocks (TestDocCommands), docs/text-output.md's demo block and testdata/baseline/demo.txt instead of comparing with them")

// §7 text: the demo's text output at 100 columns is the block docs/text-output.md
// shows (issue #26): it is compared byte for byte, and no line is wider
// than the 100 columns, so a terminal of that width wraps nothing.
func TestDemoTextAt100Columns(t *testing.T) {
	// The demo's RL001 is a committed symlink (as TestDemo says).
	requireDemoSymlink(t)
	t.Setenv("COLUMNS", "100")
	t.Setenv("HOME", t.TempDir()) // no user-level file of the machine's
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "--root", "../../testdata/demo"}, env{Stdout: &stdout, Stderr: &stderr})
	if code != exitFindings {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line %d is %d columns wide, over 100: %q", i+1, n, l)
		}
	}
	const doc = "../../docs/text-output.md"
	const begin, end = "<!-- demo at 100 columns: go test ./cmd/rivumi-lint -run TestDemoTextAt100Columns -update -->\n```console\n", "```\n<!-- end demo -->"
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the demo block markers %q … %q", doc, begin, end)
	}
	got := "$ rivumi-lint check --root testdata/demo\n" + out
	if *updateDocs {
		s = s[:i+len(begin)] + got + s[j:]
		if err := os.WriteFile(doc, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := s[i+len(begin) : j]; got != want {
		t.Errorf("the demo's text output differs from %s's block (if intended: go test ./cmd/rivumi-lint -run TestDemoTextAt100Columns -update):\n%s", doc, got)
	}
}
