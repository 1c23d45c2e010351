// Package par runs a tree-shaped walk (directories, tree objects) on
// several goroutines with little coordination: each worker goes depth first
// through its own stack and hands half of it to the shared queue only when
// another worker is idle, so a walk of 10,000 directories takes a lock a
// few dozen times, not once per directory.
package par

import (
	"sync"
	"sync/atomic"
)

// Walk calls visit for root and for every task visit returns, on up to
// workers goroutines, until none is left or visit fails; it returns the
// first error. visit appends the tasks it finds to next and returns it; it
// runs on several goroutines at once. worker identifies the goroutine
// (0 ≤ worker < workers) so that visit can keep per-worker results.
func Walk[T any](workers int, root T, visit func(worker int, t T, next []T) ([]T, error)) error {
	if workers < 1 {
		workers = 1
	}
	var (
		mu     sync.Mutex
		cond   = sync.NewCond(&mu)
		queue  = []T{root}
		busy   = 0 // workers holding tasks
		idle   atomic.Int32
		failed atomic.Bool
		first  error
		wg     sync.WaitGroup
		fail   = func(err error) {
			mu.Lock()
			if first == nil {
				first = err
			}
			mu.Unlock()
			failed.Store(true)
			cond.Broadcast()
		}
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local, next []T
			for {
				if len(local) == 0 {
					mu.Lock()
					idle.Add(1)
					for len(queue) == 0 && busy > 0 && !failed.Load() {
						cond.Wait()
					}
					idle.Add(-1)
					if failed.Load() || len(queue) == 0 {
						mu.Unlock()
						cond.Broadcast()
						return
					}
					local = append(local, queue[len(queue)-1])
					queue = queue[:len(queue)-1]
					busy++
					mu.Unlock()
				}
				if failed.Load() {
					return
				}
				t := local[len(local)-1]
				local = local[:len(local)-1]
				var err error
				next, err = visit(w, t, next[:0])
				if err != nil {
					fail(err)
					return
				}
				local = append(local, next...)
				if len(local) > 1 && idle.Load() > 0 {
					// Someone waits: give away the older half (the larger
					// subtrees, nearer the root).
					half := len(local) / 2
					mu.Lock()
					queue = append(queue, local[:half]...)
					mu.Unlock()
					local = append(local[:0], local[half:]...)
					cond.Broadcast()
				}
				if len(local) == 0 {
					mu.Lock()
					busy--
					done := busy == 0 && len(queue) == 0
					mu.Unlock()
					if done {
						cond.Broadcast()
					}
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// Each calls f(i) for every i in [0, n) on up to workers goroutines, each
// taking the next index as it finishes one (items differ in cost: a tree
// of ten entries, a tree of ten thousand). f writes its result to slot i
// of the caller's slice; it runs on several goroutines at once.
func Each(workers, n int, f func(i int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}
