package claude

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent/agenttest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// BenchmarkClaudeViewsTree: the claude profile's views of every directory
// of RIVUMI_BENCH_TREE (agenttest.ViewsTree).
func BenchmarkClaudeViewsTree(b *testing.B) {
	home, _ := os.UserHomeDir()
	var o Options
	agenttest.ViewsTree(b, o.Also(), func(e *resolve.Engine, root string) func(string) (int, error) {
		o := Options{RootAbs: root, Home: filepath.ToSlash(home), RootGit: true}
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
