package executor

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync/atomic"

	"github.com/b2sql/b2sql/executor/memory"
)

// Budget enforces a memory limit on the operators that hold data (hash
// aggregation, sort, top-k, hash join builds). Every budgetEvery batches it
// reads the Go heap's object bytes — the memory the process holds, whatever
// operator holds it — which costs nothing measurable; over the limit it
// collects garbage once and fails the query with ErrMemoryLimit if live data
// still exceeds it, instead of exhausting the machine. A nil Budget allows
// everything.
type Budget struct {
	Limit int64 // bytes
	calls atomic.Int64
}

// ErrMemoryLimit is returned when a query exceeds its memory budget.
var ErrMemoryLimit = fmt.Errorf("memory limit exceeded")

const budgetEvery = 32

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

// Check returns an error when the heap is over the limit; it samples the
// heap only every budgetEvery calls.
func (b *Budget) Check() error {
	if b == nil || b.Limit <= 0 {
		return nil
	}
	if b.calls.Add(1)%budgetEvery != 0 {
		return nil
	}
	used := heapBytes()
	if used <= b.Limit {
		return nil
	}
	// The sample counts garbage not yet collected; only live data counts
	// against the budget, so collect once and look again before failing.
	runtime.GC()
	if used = heapBytes(); used > b.Limit {
		return fmt.Errorf("%w: the query holds %d MiB, the limit is %d MiB", ErrMemoryLimit, used>>20, b.Limit>>20)
	}
	return nil
}

func heapBytes() int64 {
	s := make([]metrics.Sample, 1)
	copy(s, heapSample)
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// Budgeted is an operator that holds data and checks a Budget while it
// accumulates it.
type Budgeted interface {
	SetBudget(*Budget)
}

func (s *Sort) SetBudget(b *Budget) { s.budget = b }

// MemoryUser is an operator that reserves what it holds from the query's
// memory manager (and spills through it, if it can).
type MemoryUser interface {
	SetMemory(*memory.Manager)
}

func (s *Sort) SetMemory(m *memory.Manager) { s.mem = m }

// MemoryReporter is an operator that holds reservations, for EXPLAIN
// ANALYZE: the most bytes it held at once and the bytes it wrote to spill
// files, both kept after Close.
type MemoryReporter interface {
	MemoryUse() (peak, spilled int64)
}

func (s *Sort) MemoryUse() (int64, int64) { return s.res.Peak(), s.res.SpilledBytes() }

// MemoryUse of a join adds its partitions' joins when it spilled: their
// peak when it is the larger and everything they spilled again.
func (j *HashJoin) MemoryUse() (int64, int64) {
	return max(j.res.Peak(), j.subPeak), j.res.SpilledBytes() + j.subSpill
}

// MemoryUse of an aggregate adds its spilled partitions' aggregates: their
// peak when it is the larger (they run after the table is freed) and
// everything they spilled again.
func (h *HashAgg) MemoryUse() (int64, int64) {
	return max(h.res.Peak(), h.subPeak), h.res.SpilledBytes() + h.subSpilled
}

// MemoryUse of the exchange adds up its workers' reservations.
func (m *PartitionMerge) MemoryUse() (peak, spilled int64) {
	for _, r := range m.res {
		peak += r.Peak()
		spilled += r.SpilledBytes()
	}
	return peak, spilled
}
