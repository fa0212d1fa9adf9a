package executor

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/columnar/columnartest"
	"github.com/b2sql/b2sql/executor/hashtab"
)

// batchSizes are the sizes every operator test runs at: boundary bugs hide
// at 1 and 2, and 7 splits groups and runs unevenly.
var batchSizes = []int{1, 2, 7, columnar.MaxBatch}

// source emits fixed rows in batches of size n. Odd batches carry a
// selection vector that hides a poisoned row, so operators must honour Sel.
type source struct {
	types []columnar.Type
	rows  [][]columnar.Value
	n     int
	pos   int
}

func (s *source) Types() []columnar.Type         { return s.types }
func (s *source) Children() []Operator           { return nil }
func (s *source) String() string                 { return "source" }
func (s *source) Open(ctx context.Context) error { s.pos = 0; return nil }
func (s *source) Close() error                   { return nil }

func (s *source) Next(ctx context.Context) (*columnar.Batch, error) {
	if s.pos >= len(s.rows) {
		return nil, io.EOF
	}
	end := min(s.pos+s.n, len(s.rows))
	chunk := s.rows[s.pos:end]
	odd := (s.pos/s.n)%2 == 1
	s.pos = end
	// With a selection: put a garbage row first and select around it.
	extra := 0
	if odd {
		extra = 1
	}
	total := len(chunk) + extra
	b := columnar.NewBatch(s.types, total)
	b.Len = total
	for c, t := range s.types {
		v := b.Cols[c]
		if extra == 1 {
			v.SetValue(0, total, poison(t))
		}
		for r, row := range chunk {
			v.SetValue(r+extra, total, row[c])
		}
	}
	if odd {
		b.Sel = make([]int, len(chunk))
		for i := range chunk {
			b.Sel[i] = i + 1
		}
	}
	return b, nil
}

func poison(t columnar.Type) columnar.Value {
	switch t.Phys() {
	case columnar.PhysInt:
		return columnar.IntValue(t, 1<<40+7)
	case columnar.PhysFloat:
		return columnar.FloatValue(t, -12345.5)
	case columnar.PhysBytes:
		return columnar.Value{Type: t, S: "POISON"}
	case columnar.PhysBool:
		return columnar.BoolValue(true)
	}
	return columnar.NullValue(t)
}

// drain runs op and renders each row as a string.
func drain(t *testing.T, op Operator) []string {
	t.Helper()
	return drainChecked(t, op, nil)
}

// drainOpen is drain that closes op only when the test ends, for tests
// that look into the operator's tables after reading it (Close frees them).
func drainOpen(t *testing.T, op Operator) []string {
	t.Helper()
	return drainChecked(t, &closeLater{Operator: op, t: t}, nil)
}

// drainAgg is drainOpen of a HashAgg that also returns the kind of its
// key table as it emitted (the table is gone once the output ends).
func drainAgg(t *testing.T, agg *HashAgg) (rows []string, kind string) {
	t.Helper()
	rows = drainChecked(t, &closeLater{Operator: agg, t: t}, func(*columnar.Batch) {
		kind = hashtab.Kind(agg.groups)
	})
	return rows, kind
}

// closeLater defers its operator's Close to the end of the test.
type closeLater struct {
	Operator
	t *testing.T
}

func (c *closeLater) Close() error {
	c.t.Cleanup(func() { c.Operator.Close() })
	return nil
}

// drainChecked is drain that first hands each batch to check (when not
// nil), for tests that assert something of every output batch.
func drainChecked(t *testing.T, op Operator, check func(*columnar.Batch)) []string {
	t.Helper()
	ctx := context.Background()
	if err := op.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	var out []string
	for {
		b, err := op.Next(ctx)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := columnartest.CheckBatch(b); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		if check != nil {
			check(b)
		}
		for k := 0; k < b.Live(); k++ {
			i := b.Row(k)
			s := ""
			for c, v := range b.Cols {
				if c > 0 {
					s += "|"
				}
				s += v.Value(i).String()
			}
			out = append(out, s)
		}
	}
}

func i64(v int64) columnar.Value   { return columnar.IntValue(columnar.TInt64, v) }
func f64(v float64) columnar.Value { return columnar.FloatValue(columnar.TFloat64, v) }
func str(s string) columnar.Value  { return columnar.StringValue(s) }
func null(t columnar.Type) columnar.Value {
	return columnar.NullValue(t)
}

// runSizes runs a test body at every batch size.
func runSizes(t *testing.T, fn func(t *testing.T, n int)) {
	for _, n := range batchSizes {
		t.Run(fmt.Sprintf("batch=%d", n), func(t *testing.T) { fn(t, n) })
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
