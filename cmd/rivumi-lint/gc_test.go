package main

import "testing"

func TestGCPercent(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		command string
		set     bool
		want    int
		ok      bool
	}{
		{"check", false, oneShotGCPercent, true},
		{"preview", false, oneShotGCPercent, true},
		{"", false, oneShotGCPercent, true},
		{"check", true, 0, false}, // the user's GOGC wins
		{"lsp", false, 0, false},  // servers keep Go's default
		{"mcp", false, 0, false},
	} {
		if got, ok := gcPercent(c.command, c.set); got != c.want || ok != c.ok {
			t.Errorf("gcPercent(%q, GOGC set %v) = %d, %v; want %d, %v", c.command, c.set, got, ok, c.want, c.ok)
		}
	}
}
