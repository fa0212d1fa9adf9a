package executor

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestTopKFirstKeyCut: ORDER BY x [DESC] [NULLS FIRST], id LIMIT 20
// OFFSET 30 over 3000 rows, in shuffled id order, whose x (DOUBLE, and the same as BIGINT) ties
// often, is NULL every 7th row and NaN every 11th (the DOUBLE), with a
// filter in front so that batches come selected: the rows are those of a
// reference order written here (NULLs placed per key, NaN above every
// number, ties by id), at every batch size.
func TestTopKFirstKeyCut(t *testing.T) {
	const n = 3000
	type row struct {
		id   int64
		null bool
		x    float64
	}
	ref := make([]row, n)
	for k := range ref {
		i := k * 7919 % n // ids arrive shuffled: a tie with the cut may beat it
		r := row{id: int64(i), x: float64(i*37%50 - 25)}
		switch {
		case i%7 == 0:
			r.null = true
		case i%11 == 0:
			r.x = math.NaN()
		}
		ref[k] = r
	}
	for _, typ := range []columnar.Type{columnar.TFloat64, columnar.TInt64} {
		rows := make([][]columnar.Value, n)
		for i, r := range ref {
			x := f64(r.x)
			if typ == columnar.TInt64 {
				x = i64(int64(r.x))
				if math.IsNaN(r.x) {
					x = i64(1000) // the BIGINT column's stand-in: above every other value
				}
			}
			if r.null {
				x = null(typ)
			}
			rows[i] = []columnar.Value{i64(r.id), x}
		}
		for _, desc := range []bool{false, true} {
			for _, nullsFirst := range []bool{false, true} {
				// Reference: the rows kept by the filter (id % 3 != 1), ordered.
				var kept []row
				for _, r := range ref {
					if r.id%3 != 1 {
						kept = append(kept, r)
					}
				}
				slices.SortFunc(kept, func(a, b row) int {
					if a.null || b.null {
						if a.null && b.null {
							return int(a.id - b.id)
						}
						c := -1 // NULL last
						if a.null {
							c = 1
						}
						if nullsFirst {
							c = -c
						}
						return c
					}
					ax, bx := a.x, b.x
					if math.IsNaN(ax) { // NaN (1000 as BIGINT) above every number
						ax = 1000
					}
					if math.IsNaN(bx) {
						bx = 1000
					}
					c := 0
					if ax < bx {
						c = -1
					} else if ax > bx {
						c = 1
					}
					if desc {
						c = -c
					}
					if c == 0 {
						c = int(a.id - b.id)
					}
					return c
				})
				var want []string
				for _, r := range kept[30:50] {
					want = append(want, fmt.Sprint(r.id))
				}
				runSizes(t, func(t *testing.T, size int) {
					keep := mustCall(t, "<>", columnar.TBool,
						mustCall(t, "%", columnar.TInt64, ColumnExpr(0, columnar.TInt64), ConstExpr(i64(3))), ConstExpr(i64(1)))
					tk := &TopK{
						Input: &Filter{Input: &source{types: []columnar.Type{columnar.TInt64, typ}, rows: rows, n: size}, Cond: keep},
						Keys: []SortKey{{Expr: ColumnExpr(1, typ), Desc: desc, NullsFirst: nullsFirst},
							{Expr: ColumnExpr(0, columnar.TInt64)}},
						Count: 20, Offset: 30,
					}
					var got []string
					for _, line := range drain(t, tk) {
						var id int64
						fmt.Sscanf(line, "%d|", &id)
						got = append(got, fmt.Sprint(id))
					}
					if !equalStrings(got, want) {
						t.Fatalf("%s desc=%v nullsFirst=%v: got %v, want %v", typ, desc, nullsFirst, got, want)
					}
				})
			}
		}
	}
}
