package executor

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// appendBuild stores exactly the rows appendRows stores: the live rows of
// each batch (with and without a selection), NULLs where the input has
// them, strings that outlive the batch's buffers.
func TestAppendBuildMatchesAppendRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	types := []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TFloat64, columnar.TBool}
	fast, slow := newRowStore(types), newRowStore(types)
	for batch := range 40 {
		n := 1 + rng.IntN(50)
		b := &columnar.Batch{Len: n}
		for c, ty := range types {
			v := columnar.NewVector(ty, n)
			for i := range n {
				switch ty {
				case columnar.TInt64:
					v.Ints[i] = rng.Int64N(1000)
				case columnar.TVarchar:
					v.Bytes[i] = fmt.Appendf(nil, "s%d-%d", batch, i)
				case columnar.TFloat64:
					v.Floats[i] = rng.Float64()
				case columnar.TBool:
					v.Bools[i] = rng.IntN(2) == 0
				}
				if (batch+c)%3 == 0 && rng.IntN(4) == 0 {
					v.SetNull(i, n)
				}
			}
			b.Cols = append(b.Cols, v)
		}
		if batch%2 == 1 {
			for i := range n {
				if rng.IntN(3) > 0 {
					b.Sel = append(b.Sel, i)
				}
			}
			if b.Sel == nil {
				b.Sel = []int{}
			}
		}
		appendBuild(fast, b)
		slow.appendRows(b, b.Cols)
		for _, v := range b.Cols { // the producer reuses its buffers
			for i := range v.Bytes {
				for k := range v.Bytes[i] {
					v.Bytes[i][k] = 'X'
				}
			}
		}
	}
	if fast.n != slow.n {
		t.Fatalf("rows %d, want %d", fast.n, slow.n)
	}
	for c := range types {
		for r := range slow.n {
			got, want := fast.cols[c].Value(r), slow.cols[c].Value(r)
			if got.Null != want.Null || !got.Null && columnar.Compare(got, want) != 0 {
				t.Fatalf("column %d row %d: %v, want %v", c, r, got, want)
			}
		}
	}
}
