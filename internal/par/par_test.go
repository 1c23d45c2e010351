package par

import (
	"errors"
	"sync/atomic"
	"testing"
)

// TestWalk visits every node of a tree exactly once, whatever the number
// of workers, and stops at the first error.
func TestWalk(t *testing.T) {
	// Node n has children 4n+1 … 4n+4 below 20,000.
	const limit = 20000
	for _, workers := range []int{0, 1, 2, 3, 8} {
		var count atomic.Int64
		seen := make([]atomic.Int32, limit)
		err := Walk(workers, 0, func(w int, n int, next []int) ([]int, error) {
			if w < 0 || w >= max(workers, 1) {
				t.Errorf("worker %d of %d", w, workers)
			}
			count.Add(1)
			seen[n].Add(1)
			for c := 4*n + 1; c <= 4*n+4 && c < limit; c++ {
				next = append(next, c)
			}
			return next, nil
		})
		if err != nil || count.Load() != limit {
			t.Fatalf("%d workers: %d visits, %v", workers, count.Load(), err)
		}
		for i := range seen {
			if seen[i].Load() != 1 {
				t.Fatalf("%d workers: node %d visited %d times", workers, i, seen[i].Load())
			}
		}
		boom := errors.New("boom")
		err = Walk(workers, 0, func(_ int, n int, next []int) ([]int, error) {
			if n == 777 {
				return next, boom
			}
			for c := 4*n + 1; c <= 4*n+4 && c < limit; c++ {
				next = append(next, c)
			}
			return next, nil
		})
		if err != boom {
			t.Fatalf("%d workers: err %v", workers, err)
		}
	}
}

// TestEach: every index in [0, n) is visited exactly once, whatever the
// number of workers (also more workers than items, and none to do).
func TestEach(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 8} {
		for _, n := range []int{0, 1, 3, 1000} {
			counts := make([]atomic.Int32, n)
			Each(workers, n, func(i int) { counts[i].Add(1) })
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("workers=%d n=%d: index %d visited %d times", workers, n, i, c)
				}
			}
		}
	}
}
