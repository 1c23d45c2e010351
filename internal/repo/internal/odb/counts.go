package odb

import (
	"fmt"
	"os"
	"sync/atomic"

	"github.com/rivumi/rivumi-lint/internal/trace"
)

// counts are what a run asked of the object database, printed at Close
// under RIVUMI_LINT_TRACE: the numbers that tell whether a change to the
// readers saved work, which wall time on a busy machine cannot. They are
// kept always (a few thousand atomic adds a run); tests read them.
type counts struct {
	reads     atomic.Int64 // ReadInto calls
	inflates  atomic.Int64 // zlib streams inflated (whole objects, deltas, delta headers)
	inflated  atomic.Int64 // bytes they produced
	deltas    atomic.Int64 // deltas applied
	cacheHits atomic.Int64 // objects or chain ends found in the base cache
}

func count(c *atomic.Int64, n int64) { c.Add(n) }

func (s *Native) printCounts() {
	if !trace.Enabled() {
		return
	}
	c := &s.counts
	s.cache.mu.Lock()
	puts, evictions := s.cache.puts, s.cache.evictions
	s.cache.mu.Unlock()
	fmt.Fprintf(os.Stderr, "rivumi-lint: trace: odb reads %d inflates %d inflated %dKiB deltas %d cache hits %d puts %d evictions %d\n",
		c.reads.Load(), c.inflates.Load(), c.inflated.Load()>>10, c.deltas.Load(), c.cacheHits.Load(), puts, evictions)
}
