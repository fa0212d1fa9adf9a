package planner

import (
	"fmt"

	"github.com/b2sql/b2sql/executor"
)

// SampleMethod is how a Sample picks rows.
type SampleMethod uint8

const (
	// SampleReservoir keeps exactly Size rows (or round(total × Size /
	// 100) with Percent), chosen uniformly.
	SampleReservoir SampleMethod = iota
	// SampleSystem keeps each input batch with probability Size / 100.
	SampleSystem
	// SampleBernoulli keeps each row with probability Size / 100.
	SampleBernoulli
)

func (m SampleMethod) String() string {
	return [...]string{"reservoir", "system", "bernoulli"}[m]
}

// Sample is USING SAMPLE or TABLESAMPLE over Input (DuckDB's sampling).
// Seeded (REPEATABLE, or the seed after the method) it picks the same
// rows every run: Build reads its input on one thread, in order. The
// rules leave it alone: a filter stays above it (a sample is taken before
// WHERE, as in DuckDB).
type Sample struct {
	Input   Node
	Method  SampleMethod
	Percent bool    // Size is a percentage (else a row count)
	Size    float64 // percent in [0, 100], or rows
	Seed    int64
	Seeded  bool
}

func (n *Sample) Schema() []Column { return n.Input.Schema() }
func (n *Sample) Children() []Node { return []Node{n.Input} }
func (n *Sample) WithChildren(k []Node) Node {
	c := *n
	c.Input = k[0]
	return &c
}

func (n *Sample) String() string {
	size := fmt.Sprintf("%g rows", n.Size)
	if n.Percent {
		size = fmt.Sprintf("%g%%", n.Size)
	}
	if n.Seeded {
		return fmt.Sprintf("Sample %s %s seed=%d", n.Method, size, n.Seed)
	}
	return fmt.Sprintf("Sample %s %s", n.Method, size)
}

func (bd *builder) buildSample(n *Sample, in executor.Operator) executor.Operator {
	return bd.wrap(&executor.Sample{Input: in, Method: executor.SampleMethod(n.Method), Percent: n.Percent, Size: n.Size, Seed: n.Seed, Seeded: n.Seeded})
}
