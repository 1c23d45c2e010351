// Package trace prints where a run's time goes, for the benchmark
// (scripts/bench) and for anyone chasing a slow check:
//
//	RIVUMI_LINT_TRACE=1         phase timings and peak RSS on standard error
//	RIVUMI_LINT_CPUPROFILE=FILE a CPU profile of the whole run (go tool pprof)
//	RIVUMI_LINT_MEMPROFILE=FILE a heap profile at exit
//
// When the variables are not set every function here is a branch on a
// package variable: nothing is timed, allocated or printed.
package trace

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

var (
	enabled           = os.Getenv("RIVUMI_LINT_TRACE") != "" && os.Getenv("RIVUMI_LINT_TRACE") != "0"
	out     io.Writer = os.Stderr
	started           = time.Now() // package initialisation: close to process start
	last              = started
)

// Enabled reports whether RIVUMI_LINT_TRACE is set.
func Enabled() bool { return enabled }

// Mark ends the phase called name, which began at the previous Mark (or
// when the process started), and prints its duration:
//
//	rivumi-lint: trace: NAME 12.345ms
func Mark(name string) {
	if !enabled {
		return
	}
	now := time.Now()
	fmt.Fprintf(out, "rivumi-lint: trace: %s %.3fms\n", name, float64(now.Sub(last).Microseconds())/1000)
	last = now
}

// Done prints the total time since the process started and the peak
// resident set size.
func Done() {
	if !enabled {
		return
	}
	Mark("other")
	rss := peakRSS()
	fmt.Fprintf(out, "rivumi-lint: trace: total %.3fms\n", float64(time.Since(started).Microseconds())/1000)
	fmt.Fprintf(out, "rivumi-lint: trace: maxrss %dKiB\n", rss)
}

// Profile starts the profiles the environment asks for and returns the
// function that writes them; call it before the process exits.
func Profile() (stop func()) {
	cpu, mem := os.Getenv("RIVUMI_LINT_CPUPROFILE"), os.Getenv("RIVUMI_LINT_MEMPROFILE")
	if cpu == "" && mem == "" {
		return func() {}
	}
	var f *os.File
	if cpu != "" {
		var err error
		if f, err = os.Create(cpu); err != nil {
			fmt.Fprintf(os.Stderr, "rivumi-lint: trace: %v\n", err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "rivumi-lint: trace: %v\n", err)
			f.Close()
			f = nil
		}
	}
	return func() {
		if f != nil {
			pprof.StopCPUProfile()
			f.Close()
		}
		if mem != "" {
			m, err := os.Create(mem)
			if err != nil {
				fmt.Fprintf(os.Stderr, "rivumi-lint: trace: %v\n", err)
				return
			}
			runtime.GC()
			pprof.Lookup("allocs").WriteTo(m, 0)
			m.Close()
		}
	}
}
