package executor

import (
	"github.com/b2sql/b2sql/executor/memory"
)

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

// MemoryUse of a join adds its partitions' joins when it spilled (their
// peak when it is the larger and everything they spilled again) and a
// block nested loop's probe spool.
func (j *HashJoin) MemoryUse() (int64, int64) {
	return max(j.res.Peak()+j.spoolRes.Peak(), j.subPeak), j.res.SpilledBytes() + j.spoolRes.SpilledBytes() + j.subSpill
}

// MemoryUse of an aggregate adds its spilled partitions' aggregates: their
// peak when it is the larger (they run after the table is freed) and
// everything they spilled again.
func (h *HashAgg) MemoryUse() (int64, int64) {
	dpeak, dspilled := h.distinctUse()
	peak, spilled := h.parts.figures(h.res.Peak()+dpeak, h.res.SpilledBytes()+dspilled)
	return peak, spilled
}

// MemoryUse of the exchange adds up its workers' reservations.
func (m *PartitionMerge) MemoryUse() (peak, spilled int64) {
	for _, r := range m.res {
		peak += r.Peak()
		spilled += r.SpilledBytes()
	}
	return peak, spilled
}
