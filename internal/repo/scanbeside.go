package repo

import (
	"runtime"
	"sync/atomic"
)

// PendingScan is an index scan (ScanIndexOf) running on a goroutine of its
// own, so that the caller lists the worktree's first directories beside
// it instead of after it.
type PendingScan struct {
	ch      chan pendingResult
	running atomic.Bool
	gate    chan struct{}
	joined  bool
	res     pendingResult
}

type pendingResult struct {
	scan *IndexScan
	err  error
}

// ScanIndexBeside starts ScanIndexOf(top, withTracked) beside the caller.
// With one processor there is no core to overlap on: it returns nil, and
// the caller scans in its own order (the serial twin, F1). gate, when not
// nil (tests), holds the scan until Wait, so that every listing that may
// run beside it does.
func ScanIndexBeside(top string, withTracked bool, gate chan struct{}) *PendingScan {
	if runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	s := &PendingScan{ch: make(chan pendingResult, 1), gate: gate}
	s.running.Store(true)
	go func() {
		if gate != nil {
			<-gate
		}
		scan, err := ScanIndexOf(top, withTracked)
		s.running.Store(false)
		s.ch <- pendingResult{scan, err}
	}()
	return s
}

// Running reports whether the scan has not finished yet.
func (s *PendingScan) Running() bool { return s.running.Load() }

// Wait waits for the scan and returns its result; it may be called more
// than once.
func (s *PendingScan) Wait() (*IndexScan, error) {
	if !s.joined {
		s.joined = true
		if s.gate != nil {
			close(s.gate)
		}
		s.res = <-s.ch
	}
	return s.res.scan, s.res.err
}
