package claude

import (
	"slices"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
)

// A pass's chain is agent.Ancestors of its directory.
func TestChainIsAncestors(t *testing.T) {
	for _, dir := range []string{"", "a", "a/b", "a/b/c.d/e"} {
		s := &sim{dir: dir}
		if got, want := s.chain(), agent.Ancestors(dir, ""); !slices.Equal(got, want) {
			t.Errorf("chain of %q = %q, want %q", dir, got, want)
		}
	}
}
