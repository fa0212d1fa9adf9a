package ctable

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// selBytes keeps exactly the rows whose bytes.Compare with the constant
// (both bounds for BETWEEN) satisfies the operator, NULLs never: strings shorter and longer than 8
// bytes, sharing the constant's first 8 bytes or not, with zero bytes
// (which the zero padding of short constants must not confuse).
func TestSelBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alpha := []byte{0, 'a', 'b', 0xff}
	word := func() []byte {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		return b
	}
	const n = 2000
	v := columnar.NewVector(columnar.TVarchar, n)
	for i := 0; i < n; i++ {
		v.Bytes[i] = word()
		if up, ok := columnar.PrefixSuccessor(v.Bytes[max(i-1, 0)]); ok && i%17 == 1 {
			v.Bytes[i] = up // the successor of the row before: the upper bound LIKE's range admits
		}
		if i%13 == 0 {
			v.SetNull(i, n)
		}
	}
	sel := []int{}
	for i := 0; i < n; i += 3 {
		sel = append(sel, i)
	}
	ops := map[index.Op]func(c int) bool{
		index.Eq: func(c int) bool { return c == 0 }, index.Lt: func(c int) bool { return c < 0 },
		index.Le: func(c int) bool { return c <= 0 }, index.Gt: func(c int) bool { return c > 0 },
		index.Ge: func(c int) bool { return c >= 0 },
	}
	for trial := 0; trial < 400; trial++ {
		if trial == 200 {
			v.Valid = nil // then without NULLs, which the loops without a selection take apart
		}
		k := v.Bytes[rng.IntN(n)] // often a value present, so Eq matches
		if trial%2 == 1 {
			k = word()
		}
		k2 := word() // BETWEEN k AND k2 (empty when k2 < k)
		if up, ok := columnar.PrefixSuccessor(k); ok && trial%4 == 0 {
			k2 = up // the shape LIKE 'k%' is pushed as: tested as a prefix
		}
		ops[index.Between] = func(c int) bool { return false } // decided below
		for op, want := range ops {
			p := index.Pred{Col: 0, Op: op, Vals: []columnar.Value{columnar.StringValue(string(k))}}
			if op == index.Between {
				p.Vals = append(p.Vals, columnar.StringValue(string(k2)))
			}
			for _, s := range [][]int{nil, sel} {
				got, ok := selBytes(p, v, s, n, nil)
				if !ok {
					t.Fatalf("op %v not handled", op)
				}
				var exp []int
				rows := s
				if rows == nil {
					for i := 0; i < n; i++ {
						rows = append(rows, i)
					}
				}
				for _, i := range rows {
					x := v.Bytes[i]
					ok := want(bytes.Compare(x, k))
					if op == index.Between {
						ok = bytes.Compare(x, k) >= 0 && bytes.Compare(x, k2) <= 0
					}
					if !v.IsNull(i) && ok {
						exp = append(exp, i)
					}
				}
				if len(got) != len(exp) {
					t.Fatalf("%q %v: %d rows, want %d", k, op, len(got), len(exp))
				}
				for j := range got {
					if got[j] != exp[j] {
						t.Fatalf("%q %v: row %d, want %d", k, op, got[j], exp[j])
					}
				}
			}
		}
	}
}
