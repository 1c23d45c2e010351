package codex

import (
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent/agenttest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// BenchmarkCodexViewsTree: the codex profile's views of every directory
// of RIVUMI_BENCH_TREE (agenttest.ViewsTree).
func BenchmarkCodexViewsTree(b *testing.B) {
	o := Options{MaxBytes: DefaultMaxBytes, RootMarked: true}
	agenttest.ViewsTree(b, o.Also(), func(e *resolve.Engine, root string) func(string) (int, error) {
		o := o
		o.RootAbs = root
		c := New(e, o)
		return func(d string) (int, error) {
			v, err := c.View(d)
			if err != nil {
				return 0, err
			}
			return len(v.Candidates) + len(v.Inexact), nil
		}
	})
}
