package preview_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/preview"
	"github.com/rivumi/rivumi-lint/internal/preview/previewtest"
)

// BenchmarkPreviewMillionLines is §9 "a memory file of 1,000,000 lines:
// previewed in under 1 s with bounded memory" at the preview level: the
// whole preview of the chain fixture (resolution, skills, git status,
// rendering) with a 1,000,000-line memory file of user preferences, this
// project's and other projects' entries and some corrupt lines. Compare
// ns/op with 1 s; B/op stays flat when the file grows (streaming, a ring of
// 20). It is a benchmark, never a timed test.
func BenchmarkPreviewMillionLines(b *testing.B) {
	f := previewtest.Load(b, "../../testdata/preview/chain.txtar")
	mem := filepath.Join(b.TempDir(), "memory.jsonl")
	file, err := os.Create(mem)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(file)
	for i := range 1_000_000 {
		switch i % 8 {
		case 0:
			fmt.Fprintf(w, `{"type":"user_preference","text":"Answer briefly, claim %d.","created_at":"2025-06-01T12:00:00Z"}`+"\n", i)
		case 1, 2:
			fmt.Fprintf(w, `{"type":"project_fact","text":"Service %d listens on 8080.","project":"github.com/acme/app"}`+"\n", i)
		case 3:
			fmt.Fprintf(w, `{"type":"project_preference","text":"Prefer table tests\nin package %d.","project":"github.com/acme/app"}`+"\r\n", i)
		case 7:
			if i%1000 == 7 {
				fmt.Fprintf(w, `{"type":"project_fact","text":"truncated %d`+"\n", i)
				continue
			}
			fallthrough
		default:
			fmt.Fprintf(w, `{"type":"project_fact","text":"Another repository's fact %d.","project":"github.com/acme/other-%d"}`+"\n", i, i%50)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := file.Close(); err != nil {
		b.Fatal(err)
	}
	fi, _ := os.Stat(mem)
	o := preview.Options{Root: f.Root, Dir: filepath.Join(f.Root, "docs", "api"), Memory: mem, Machine: previewtest.Machine}
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		pv, err := preview.Build(o)
		if err != nil {
			b.Fatal(err)
		}
		if pv.Memory.Lines != 1_000_000 || pv.Memory.Rendered != 20 {
			b.Fatalf("memory %+v", pv.Memory)
		}
	}
}
