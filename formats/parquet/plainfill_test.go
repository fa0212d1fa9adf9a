package parquet

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"
)

// fillCase builds PLAIN bytes for the valid rows of defs, value k (the
// k-th valid row) being k*3-7 in the column's physical type, and the rows
// fillPlain must produce: that value (times mul) where the level is 1, 0
// where it is 0.
func fillCase(c *column, defs []int32) (src []byte, want []float64) {
	k := 0
	for _, d := range defs {
		if d != 1 {
			want = append(want, 0)
			continue
		}
		x := int64(k*3 - 7)
		switch c.phys {
		case parquet.Types.Int32:
			src = binary.LittleEndian.AppendUint32(src, uint32(int32(x)))
		case parquet.Types.Int64:
			src = binary.LittleEndian.AppendUint64(src, uint64(x))
		case parquet.Types.Float:
			src = binary.LittleEndian.AppendUint32(src, math.Float32bits(float32(x)/4))
		case parquet.Types.Double:
			src = binary.LittleEndian.AppendUint64(src, math.Float64bits(float64(x)/4))
		}
		switch {
		case floatKind(c.kind):
			want = append(want, float64(x)/4)
		case c.kind == kUint32:
			want = append(want, float64(uint32(int32(x))))
		default:
			want = append(want, float64(x*c.mul))
		}
		k++
	}
	return src, want
}

// TestFillPlain spreads PLAIN values over rows with NULLs for every kind
// fillPlain takes, row by row and by runs, with NULLs scattered (short
// runs, converted one by one), rare (long runs, converted as a page) and
// none or all.
func TestFillPlain(t *testing.T) {
	cols := map[string]*column{
		"int32":    {kind: kInt32, phys: parquet.Types.Int32, mul: 1, div: 1},
		"int32 ms": {kind: kInt32, phys: parquet.Types.Int32, mul: 1000, div: 1},
		"uint32":   {kind: kUint32, phys: parquet.Types.Int32, mul: 1, div: 1},
		"int64":    {kind: kInt64, phys: parquet.Types.Int64, mul: 1, div: 1},
		"int64 ms": {kind: kInt64, phys: parquet.Types.Int64, mul: 1000, div: 1},
		"float32":  {kind: kFloat32, phys: parquet.Types.Float, mul: 1, div: 1},
		"float64":  {kind: kFloat64, phys: parquet.Types.Double, mul: 1, div: 1},
	}
	r := rand.New(rand.NewSource(7))
	for _, nullEvery := range []int{0, 2, 3, 50, 1} {
		defs := make([]int32, 1000)
		for i := range defs {
			defs[i] = 1
			if nullEvery == 1 || nullEvery > 0 && r.Intn(nullEvery) == 0 {
				defs[i] = 0
			}
		}
		for name, c := range cols {
			for _, sparse := range []bool{false, true} {
				src, want := fillCase(c, defs)
				const at = 5
				v := &columnar.Vector{Ints: make([]int64, at+len(defs)), Floats: make([]float64, at+len(defs))}
				for i := range v.Ints {
					v.Ints[i], v.Floats[i] = -1, -1 // rows fillPlain must overwrite
				}
				used := fillPlain(c, append([]byte{0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE}, src...), 8/fixedWidth(c), defs, 1, v, at, sparse)
				if used*fixedWidth(c) != len(src) {
					t.Fatalf("%s, NULL 1 in %d: used %d values, want %d", name, nullEvery, used, len(src)/fixedWidth(c))
				}
				for j, w := range want {
					got := v.Floats[at+j]
					if !floatKind(c.kind) {
						got = float64(v.Ints[at+j])
					}
					if got != w {
						t.Fatalf("%s, NULL 1 in %d: row %d = %v, want %v", name, nullEvery, j, got, w)
					}
				}
			}
		}
	}
}

// BenchmarkFillPlain spreads 64 Ki DOUBLEs over rows with 1% and 50%
// NULLs.
func BenchmarkFillPlain(b *testing.B) {
	c := &column{kind: kFloat64, phys: parquet.Types.Double, mul: 1, div: 1}
	for _, pct := range []int{1, 50} {
		b.Run(fmt.Sprintf("null%d%%", pct), func(b *testing.B) {
			r := rand.New(rand.NewSource(7))
			defs := make([]int32, 1<<16)
			for i := range defs {
				defs[i] = 1
				if r.Intn(100) < pct {
					defs[i] = 0
				}
			}
			src, _ := fillCase(c, defs)
			v := &columnar.Vector{Floats: make([]float64, len(defs))}
			b.SetBytes(int64(len(defs) * 8))
			for range b.N {
				fillPlain(c, src, 0, defs, 1, v, 0, pct < 5)
			}
		})
	}
}
