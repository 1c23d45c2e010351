package preview_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/preview"
	"github.com/rivumi/rivumi-lint/internal/preview/previewtest"
	"github.com/rivumi/rivumi-lint/internal/report"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/preview/golden")

const goldenDir = "../../testdata/preview/golden"

// checkGolden compares got with the golden file byte for byte; -update
// rewrites it instead.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/preview -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./internal/preview -update rewrites it after review):\n%s", name, firstDiff(want, got))
	}
}

func firstDiff(want, got []byte) string {
	wl, gl := strings.SplitAfter(string(want), "\n"), strings.SplitAfter(string(got), "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + itoa(i+1) + ":\n  want " + quote(w) + "\n  got  " + quote(g)
		}
	}
	return "(no line differs)"
}

func quote(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\x1b", `\x1b`), "\n", `\n`)
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

// chain builds the preview of docs/api in the chain fixture.
func chain(t *testing.T) (*preview.Preview, previewtest.Fixture) {
	t.Helper()
	f := previewtest.Load(t, "../../testdata/preview/chain.txtar")
	pv, err := preview.Build(preview.Options{Root: f.Root, Dir: filepath.Join(f.Root, "docs", "api"), Machine: previewtest.Machine})
	if err != nil {
		t.Fatal(err)
	}
	return pv, f
}

// P1, P2, P4, P4b, P5: every format of the chain fixture, byte for byte.
func TestGoldenFormats(t *testing.T) {
	pv, _ := chain(t)
	for _, tc := range []struct {
		golden, format string
		color          bool
	}{
		{"chain.txt", "text", false},
		{"chain.color.txt", "text", true},
		{"chain.json", "json", false},
		{"chain.md", "markdown", false},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			f, ok := report.LookupPreview(tc.format)
			if !ok {
				t.Fatalf("no format %s", tc.format)
			}
			var buf bytes.Buffer
			if err := f.Write(&buf, &pv.Preview, report.Options{Color: tc.color}); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.golden, buf.Bytes())
			if has := bytes.Contains(buf.Bytes(), []byte("\x1b[")); has != tc.color {
				t.Errorf("escape codes present = %v, want %v", has, tc.color)
			}
		})
	}
}

// P2: every dynamic section's exact bytes (what --section prints).
func TestGoldenSections(t *testing.T) {
	pv, _ := chain(t)
	for _, name := range []string{preview.Runtime, preview.Instructions, preview.Skills, preview.WorkspaceSec, preview.MemorySec} {
		t.Run(name, func(t *testing.T) {
			s, ok := pv.Section(name)
			if !ok || !s.Included || s.Bytes != len(s.Text) {
				t.Fatalf("section %s: %+v", name, s)
			}
			checkGolden(t, "section_"+name+".golden", []byte(s.Text))
		})
	}
}

// P1, P4b, P4: a chain without skills, memory or user layer leaves those
// sections out, and says why.
func TestGoldenBare(t *testing.T) {
	f := previewtest.Extract(t, []byte("-- repo/AGENTS.md --\nOne rule.\n"))
	m := previewtest.Machine
	m.WorkDir = "/src/app"
	pv, err := preview.Build(preview.Options{Root: f.Root, Dir: f.Root, Project: "acme", Machine: m})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json"} {
		var buf bytes.Buffer
		fm, _ := report.LookupPreview(format)
		if err := fm.Write(&buf, &pv.Preview, report.Options{}); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "bare."+map[string]string{"text": "txt", "json": "json"}[format], buf.Bytes())
	}
}
