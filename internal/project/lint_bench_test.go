package project

import (
	"os"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/profiles"
)

// BenchmarkLintTree runs the rules (lint.Check) over every directory of
// the tree RIVUMI_BENCH_TREE names (the performance benchmark's generated
// monorepo, say), resolved once: with Rivumi alone and with every
// profile, whose difference is what the agents' rules cost.
func BenchmarkLintTree(b *testing.B) {
	root := os.Getenv("RIVUMI_BENCH_TREE")
	if root == "" {
		b.Skip("RIVUMI_BENCH_TREE names no tree")
	}
	for _, tc := range []struct {
		name   string
		agents []string
	}{{"rivumi", []string{"rivumi"}}, {"all", profiles.Names()}} {
		b.Run(tc.name, func(b *testing.B) {
			p, err := Open(Options{Root: root, Agents: tc.agents})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			r, err := p.Start(Scope{})
			if err != nil {
				b.Fatal(err)
			}
			in := r.inputs(nil)
			in.Prepared = nil // the Chain rules run in each Check
			b.ReportAllocs()
			for b.Loop() {
				var res *lint.Result = lint.Check(in, r.Config)
				if res == nil {
					b.Fatal("no result")
				}
			}
		})
	}
}
