package memory

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var million struct {
	once sync.Once
	dir  string
	path string
	size int64
	err  error
}

// TestMain removes the benchmark's file.
func TestMain(m *testing.M) {
	code := m.Run()
	if million.dir != "" {
		os.RemoveAll(million.dir)
	}
	os.Exit(code)
}

// millionFile writes, once per test binary, a memory file of 1,000,000
// lines: user preferences, facts and preferences of the selected project
// and of other projects, some with created_at, escapes, unknown fields,
// CRLF endings, blank lines and a few corrupt lines.
func millionFile(b *testing.B) string {
	million.once.Do(func() {
		million.dir, million.err = os.MkdirTemp("", "rivumi-memory-bench-")
		if million.err != nil {
			return
		}
		million.path = filepath.Join(million.dir, "memory.jsonl")
		f, err := os.Create(million.path)
		if err != nil {
			million.err = err
			return
		}
		w := bufio.NewWriter(f)
		for i := range 1_000_000 {
			switch i % 10 {
			case 0, 5:
				fmt.Fprintf(w, `{"type":"user_preference","text":"Answer briefly and cite the file and line for claim %d.","created_at":"2025-06-01T12:00:%02dZ"}`+"\n", i, i%60)
			case 1, 6:
				fmt.Fprintf(w, `{"type":"project_fact","text":"The service %d listens on port 8080 and reads \"config.yaml\".","project":"/src/app"}`+"\n", i)
			case 2:
				fmt.Fprintf(w, `{"type":"project_preference","text":"Prefer table-driven tests;\nrun go vet %d.","project":"/src/app","created_at":"2025-06-01T12:00:00.123+02:00","source":{"tool":"chat","turn":%d}}`+"\r\n", i, i)
			case 3, 7:
				fmt.Fprintf(w, `{"type":"project_fact","text":"Another repository's fact number %d, not selected here.","project":"/src/other-%d"}`+"\n", i, i%100)
			case 4:
				fmt.Fprintf(w, `{"type":"project_preference","text":"Use the monorepo build for module %d.","project":"/src/monorepo"}`+"\n", i)
			case 8:
				if i%1000 == 8 {
					fmt.Fprintf(w, `{"type":"project_fact","text":"truncated %d`+"\n", i)
				} else {
					fmt.Fprintf(w, `{"type":"user_preference","text":"Keep commit messages under 72 columns (%d) \u2014 always.","tags":["style","git"]}`+"\n", i)
				}
			case 9:
				if i%1000 == 9 {
					w.WriteString("\n")
				} else {
					fmt.Fprintf(w, `{"type":"project_fact","text":"Line %d of the project history.","project":"/src/app","created_at":"2024-12-31T23:59:59-05:00"}`+"\n", i)
				}
			}
		}
		if err := w.Flush(); err != nil {
			million.err = err
		}
		if err := f.Close(); million.err == nil {
			million.err = err
		}
		if fi, err := os.Stat(million.path); err == nil {
			million.size = fi.Size()
		}
	})
	if million.err != nil {
		b.Fatal(million.err)
	}
	return million.path
}

// P4, §9: a memory file of 1,000,000 lines is selected in well under a second
// with bounded memory (see B/op).
func BenchmarkSelectMillion(b *testing.B) {
	path := millionFile(b)
	b.SetBytes(million.size)
	b.ReportAllocs()
	var sel Selection
	cpu0 := cpuNanos()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		sel, err = Select(f, "/src/app")
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
	if sel.Lines != 1_000_000 || len(sel.Entries) != Keep || len(sel.Problems) != MaxProblems || sel.MoreProblems != 0 {
		b.Fatalf("Lines %d, %d entries, %d problems (+%d)", sel.Lines, len(sel.Entries), len(sel.Problems), sel.MoreProblems)
	}
	if cpu := cpuNanos() - cpu0; cpu > 0 {
		// Wall time on a busy machine includes waiting; this does not
		// (it does include the runtime's GC workers).
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(sel.Selected), "selected")
}

// P4: the cost of checking one typical line, without I/O.
func BenchmarkParse(b *testing.B) {
	line := []byte(`{"type":"project_preference","text":"Prefer table-driven tests; run go vet before every commit.","project":"/src/app","created_at":"2025-06-01T12:00:00.123+02:00","source":{"tool":"chat","turn":17}}`)
	var p parser
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	cpu0 := cpuNanos()
	for b.Loop() {
		if p.parse(line) < 0 {
			b.Fatal(p.r.format(line))
		}
	}
	if cpu := cpuNanos() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	}
}
