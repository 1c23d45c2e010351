package claude

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/agenttest"
	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// lineCursor answers what content.PosAt answers, for offsets that grow,
// repeat, go back and run past the end.
func TestLineCursorIsPosAt(t *testing.T) {
	data := []byte("a @x\n\xc3\xa9 @y\r\n\n@z  @w\n")
	offs := []int{0, 2, 2, 5, 9, 4, 12, 13, 16, 100, 1}
	c := lineCursor{data: data}
	for _, off := range offs {
		p := content.PosAt(data, off)
		if l, col := c.pos(off); l != p.Line || col != p.Column {
			t.Errorf("offset %d: %d:%d, PosAt %d:%d", off, l, col, p.Line, p.Column)
		}
	}
}

// oneLineImports is a CLAUDE.md of n @-imports of missing files on one
// line, the shape that cost quadratic time (#38.5): 100,000 took 115 s.
func oneLineImports(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "@f%d.md ", i)
	}
	return b.String() + "\n"
}

// viewOnce is viewOf with the worktree closed at once, for loops.
func viewOnce(tb testing.TB, root, dir string) *agent.View {
	tb.Helper()
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer wt.Close()
	o := Options{RootAbs: root}
	e := resolve.New(wt, resolve.Options{Normals: []string{"AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
	v, err := New(e, o).View(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// BenchmarkClaudeImportsOneLine: the Claude view of a CLAUDE.md whose
// imports are all on one line grows linearly with their number; ns/import
// stays flat from 10,000 to 100,000 (docs/performance.md has the figures).
func BenchmarkClaudeImportsOneLine(b *testing.B) {
	for _, n := range []int{10000, 40000, 100000} {
		b.Run(fmt.Sprintf("imports=%d", n), func(b *testing.B) {
			root := agenttest.Tree(b, map[string]string{"d/CLAUDE.md": oneLineImports(n)})
			b.ResetTimer()
			for range b.N {
				if v := viewOnce(b, root, "d"); len(v.Candidates) != n+1 {
					b.Fatalf("%d candidates, want %d", len(v.Candidates), n+1)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/import")
		})
	}
}
