// Package fuzzguard bounds what one fuzz input may cost a decoder or
// parser: the bytes it allocates and the CPU time it takes. Every fuzz
// target calls Start at the top of each input and Done at its end.
//
// A hostile length field (nbytes, a block count, a msgpack array length, a
// zip member size) must not make a decoder allocate more than a small
// multiple of its input: Start fails the input when the process allocated
// more than PerByte × len(input) + what the harness itself set aside for
// outputs (Allow) + Slack while it ran. Go's fuzzer runs one input at a
// time per worker process, so the process-wide allocation counter is the
// input's (runtime.ReadMemStats costs tens of microseconds, which the
// executions per second show).
package fuzzguard

import (
	"flag"
	"fmt"
	"runtime"
	"testing"
	"time"
)

const (
	// PerByte is how many bytes a decoder may allocate per input byte.
	PerByte = 64
	// Slack covers fixed costs: pooled decoders, codec state (a zstd
	// decoder's window), maps of a parsed header.
	Slack = 4 << 20
	// Timeout is the most CPU time one input may take (an input
	// typically takes microseconds).
	Timeout = 1 * time.Second
	// Watchdog is the wall-clock time after which an input that never
	// returned is turned into a crash (Done would never run).
	Watchdog = 60 * time.Second
)

// Guard measures one input.
type Guard struct {
	t      testing.TB
	n      int
	extra  uint64
	before uint64
	cpu    time.Duration
	done   chan struct{}
}

// Start begins measuring one input of n bytes; call Done (deferred) at its
// end. A decoder that never returns is turned into a crash after Watchdog
// by a watchdog goroutine.
func Start(t testing.TB, n int) *Guard {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	g := &Guard{t: t, n: n, before: ms.TotalAlloc, cpu: cpuTime(), done: make(chan struct{})}
	go func() {
		timer := time.NewTimer(Watchdog)
		defer timer.Stop()
		select {
		case <-g.done:
		case <-timer.C:
			panic(fmt.Sprintf("fuzzguard: %d-byte input still running after %v", n, Watchdog))
		}
	}()
	return g
}

// Allow adds n bytes the input may legitimately cost beyond its budget:
// outputs the harness sizes from a validated header (a chunk's nbytes,
// capped by the harness) and the decoder's scratch for them.
func (g *Guard) Allow(n int) {
	if n > 0 {
		g.extra += uint64(n)
	}
}

// Done fails the input if it allocated more than PerByte × its length +
// Allow'ed bytes + Slack, or, while fuzzing, took more than Timeout of CPU
// (a plain go test run checks only the allocation: its tests run in
// parallel in one process, whose CPU time is then not one input's).
func (g *Guard) Done() {
	close(g.done)
	el := cpuTime() - g.cpu
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	used := ms.TotalAlloc - g.before
	budget := uint64(PerByte)*uint64(g.n) + g.extra + Slack
	if used > budget {
		g.t.Fatalf("fuzzguard: %d-byte input allocated %d bytes (budget %d)", g.n, used, budget)
	}
	if el > Timeout && fuzzing() {
		g.t.Fatalf("fuzzguard: %d-byte input took %v of CPU (limit %v)", g.n, el, Timeout)
	}
}

// fuzzing reports whether the test binary runs with -test.fuzz.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}
