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
// input's. The counter is runtime/metrics' /gc/heap/allocs:bytes, which
// costs about 0.3 µs to read where runtime.ReadMemStats stops the world for
// about 8 µs: at thousands of inputs per second that is the difference
// between measuring the decoder and measuring the guard. It counts a large
// allocation (the kind a hostile length causes) at once and small ones when
// their span is handed back, so it lags by at most a few spans, which Slack
// covers.
package fuzzguard

import (
	"flag"
	"fmt"
	"runtime/metrics"
	"sync"
	"sync/atomic"
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
	id     uint64
}

// running describes the input in flight for the watchdog: its sequence
// number, size and start time. Parallel plain test runs may overlap inputs;
// the watchdog then watches the latest, which is enough to catch a hang.
var running struct {
	mu    sync.Mutex
	id    uint64
	n     int
	start time.Time
}

var (
	seq          atomic.Uint64
	watchdogOnce sync.Once
)

// watchdog panics when one input has been in flight for Watchdog; it is a
// single goroutine for the whole process, not one per input.
func watchdog() {
	for range time.Tick(Watchdog / 10) {
		running.mu.Lock()
		id, n, start := running.id, running.n, running.start
		running.mu.Unlock()
		if id != 0 && time.Since(start) > Watchdog {
			panic(fmt.Sprintf("fuzzguard: %d-byte input still running after %v", n, Watchdog))
		}
	}
}

// Start begins measuring one input of n bytes; call Done (deferred) at its
// end. A decoder that never returns is turned into a crash after Watchdog
// by a watchdog goroutine.
func Start(t testing.TB, n int) *Guard {
	watchdogOnce.Do(func() { go watchdog() })
	g := &Guard{t: t, n: n, before: allocated(), cpu: cpuTime(), id: seq.Add(1)}
	running.mu.Lock()
	running.id, running.n, running.start = g.id, n, time.Now()
	running.mu.Unlock()
	return g
}

// allocated returns the bytes the process has allocated on the heap so far.
func allocated() uint64 {
	s := [1]metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s[:])
	return s[0].Value.Uint64()
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
	running.mu.Lock()
	if running.id == g.id {
		running.id = 0
	}
	running.mu.Unlock()
	el := cpuTime() - g.cpu
	used := allocated() - g.before
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
