package executor

import (
	"context"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// Operator is a physical plan node. See the package doc for the contract.
type Operator interface {
	Open(ctx context.Context) error
	Next(ctx context.Context) (*columnar.Batch, error)
	Close() error
	// Types lists the output column types.
	Types() []columnar.Type
	// Children returns the inputs, for EXPLAIN.
	Children() []Operator
	// String is a one-line description for EXPLAIN.
	String() string
}

// Parallel is implemented by an operator whose children are copies of one
// pipeline run side by side (a Gather's workers): Children returns the
// first copy, for EXPLAIN to show the pipeline once; Copies returns every
// copy, for EXPLAIN ANALYZE to add up what they did.
type Parallel interface {
	Copies() []Operator
}

// Stats counts what an operator did, for EXPLAIN ANALYZE.
type Stats struct {
	Rows    int64
	Batches int64
	Elapsed time.Duration // inclusive of children
}

// Instrumented wraps an operator and counts its output.
type Instrumented struct {
	Operator
	Stats Stats
}

// Next forwards to the wrapped operator and counts rows and time.
func (o *Instrumented) Next(ctx context.Context) (*columnar.Batch, error) {
	start := time.Now()
	b, err := o.Operator.Next(ctx)
	o.Stats.Elapsed += time.Since(start)
	if b != nil {
		o.Stats.Rows += int64(b.Live())
		o.Stats.Batches++
	}
	return b, err
}

// Open forwards to the wrapped operator and counts its time.
func (o *Instrumented) Open(ctx context.Context) error {
	start := time.Now()
	err := o.Operator.Open(ctx)
	o.Stats.Elapsed += time.Since(start)
	return err
}

// Children reports the wrapped operator's children.
func (o *Instrumented) Children() []Operator { return o.Operator.Children() }

// String reports the wrapped operator's description.
func (o *Instrumented) String() string { return o.Operator.String() }

// Unwrap returns the wrapped operator.
func (o *Instrumented) Unwrap() Operator { return o.Operator }
