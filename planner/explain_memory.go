package planner

import (
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/executor/memory"
)

// memoryUse is what EXPLAIN ANALYZE adds to an operator that reserves
// memory: its peak reservation and what it spilled, added up over its
// copies (they run at the same time); "" when it reserved nothing.
func memoryUse(ops []executor.Operator) string {
	var peak, spilled int64
	for _, o := range ops {
		if mr, ok := unwrap(o).(executor.MemoryReporter); ok {
			p, s := mr.MemoryUse()
			peak += p
			spilled += s
		}
	}
	if peak == 0 && spilled == 0 {
		return ""
	}
	s := "  [memory peak " + memory.FormatSize(peak)
	if spilled > 0 {
		s += ", spilled " + memory.FormatSize(spilled)
	}
	return s + "]"
}
