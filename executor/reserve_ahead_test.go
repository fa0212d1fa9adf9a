package executor

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// A key table reserves what its next Assign may allocate (a doubling)
// before it grows: when refused, the batch spills and the table stays as
// it is, so it never holds more than its reservation. Before, the batch
// whose doubling was refused kept the doubled table, unaccounted (a
// count(DISTINCT title) at 1 GB peaked at 1.3 GB). Distinct and a GROUP
// BY, on string and integer keys, 200,000 of them under a 2 MB limit
// (regression: #17).
func TestTablesReservedBeforeGrowing(t *testing.T) {
	const n = 200000
	types := []columnar.Type{columnar.TInt64, columnar.TVarchar}
	var rows [][]columnar.Value
	for i := range n {
		k := (i * 7919) % n
		rows = append(rows, []columnar.Value{i64(int64(k)), str(fmt.Sprintf("title %07d", k))})
	}
	ctx := context.Background()
	for _, col := range []int{0, 1} {
		key := ColumnExpr(col, types[col])
		t.Run(fmt.Sprint("Distinct/", types[col]), func(t *testing.T) {
			m := memory.NewManager(2<<20, t.TempDir(), 0)
			d := &Distinct{Input: &Project{Input: &source{types: types, rows: rows, n: 1024}, Exprs: []Expr{key}}}
			d.SetMemory(m)
			if err := d.Open(ctx); err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			got := 0
			for {
				b, err := d.Next(ctx)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got += b.Live()
				if d.seen != nil && d.held > 0 && d.seen.Bytes() > d.held {
					t.Fatalf("the table holds %d bytes, %d reserved", d.seen.Bytes(), d.held)
				}
			}
			if got != n || d.spill == nil {
				t.Fatalf("%d rows (spilled: %v), want %d after spilling", got, d.spill != nil, n)
			}
		})
		t.Run(fmt.Sprint("HashAgg/", types[col]), func(t *testing.T) {
			m := memory.NewManager(2<<20, t.TempDir(), 0)
			h := &HashAgg{Input: &source{types: types, rows: rows, n: 1024}, Groups: []Expr{key},
				Aggs: []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}}}
			h.SetMemory(m)
			if err := h.Open(ctx); err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if size := h.groups.Bytes() + int64(h.ngroups)*16; size > h.held || h.spill == nil {
				t.Fatalf("the table holds %d bytes, %d reserved (spilled: %v)", size, h.held, h.spill != nil)
			}
		})
	}
}
