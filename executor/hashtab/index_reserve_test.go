package hashtab

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestIndexReserveAhead: an Index says before each Add and before Finish
// at least what they allocate (runtime.MemStats.TotalAlloc around the
// call), so that a join reserving Growth and FinishBytes first is refused
// before the memory is taken. Every Index kind, with distinct keys (the
// largest tables) and repeated ones, 200000 rows in batches of 1024. An
// Add may pass its Growth by the first batch's small scratch (the key
// words, new-row lists grown by append: under 128 KiB), never by a table
// doubling or a chunk.
func TestIndexReserveAhead(t *testing.T) {
	const rows = 200_000
	for _, tc := range []struct {
		name  string
		types []columnar.Type
		key   func(i int) []int64 // integer keys of row i (strings: "s" + key)
		tight bool                // FinishBytes is at most twice what Finish allocates
	}{
		{"int", []columnar.Type{columnar.TInt64}, func(i int) []int64 { return []int64{int64(i) * 7919} }, false},
		// Dense keys, three rows each: the range table for certain, whose
		// size FinishBytes knows (not the slots of 200000 distinct keys).
		{"int-range", []columnar.Type{columnar.TInt64}, func(i int) []int64 { return []int64{int64(i / 3)} }, true},
		{"int-dense-negative", []columnar.Type{columnar.TInt64}, func(i int) []int64 { return []int64{-int64(i % 50000)} }, true},
		{"two-ints", []columnar.Type{columnar.TInt64, columnar.TInt64}, func(i int) []int64 { return []int64{int64(i), int64(i % 7)} }, false},
		{"two-ints-wide", []columnar.Type{columnar.TInt64, columnar.TInt64}, func(i int) []int64 { return []int64{int64(i) << 40, int64(i%7) << 40} }, false},
		{"string", []columnar.Type{columnar.TVarchar}, func(i int) []int64 { return []int64{int64(i)} }, false},
		// Packed keys whose layout the first batch fixes: a widening (a key
		// past its field) replaces the table by one of its size, which
		// Growth does not foresee (packed.go).
		{"string+int", []columnar.Type{columnar.TVarchar, columnar.TInt64}, func(i int) []int64 { return []int64{int64(i % 5000), int64(i%1000) << 33} }, false},
		{"string+ints", []columnar.Type{columnar.TVarchar, columnar.TInt64, columnar.TInt64}, func(i int) []int64 { return []int64{int64(i), int64(i%1000) << 33, int64(i) << 30} }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := NewIndex(tc.types)
			b := columnar.NewBatch(tc.types, columnar.MaxBatch)
			var ms runtime.MemStats
			alloc := func() uint64 { runtime.ReadMemStats(&ms); return ms.TotalAlloc }
			for base := 0; base < rows; base += columnar.MaxBatch {
				n := min(columnar.MaxBatch, rows-base)
				b.Len = n
				for c, v := range b.Cols {
					v.Reset(n)
					for i := range n {
						k := tc.key(base + i)[c]
						if v.Type.Phys() == columnar.PhysBytes {
							v.Bytes[i] = fmt.Appendf(nil, "s%d", k)
						} else {
							v.Ints[i] = k
						}
					}
				}
				want := x.Growth(n)
				before := alloc()
				x.Add(b, b.Cols, int32(base))
				if got := int64(alloc() - before); got > want+128<<10 {
					t.Fatalf("Add at row %d allocated %d bytes, Growth said %d", base, got, want)
				}
			}
			want, held := x.FinishBytes(), x.Bytes()
			before := alloc()
			x.Finish()
			got := int64(alloc() - before)
			if got > want {
				t.Fatalf("Finish allocated %d bytes, FinishBytes said %d (Bytes %d before, %d after)", got, want, held, x.Bytes())
			}
			if tc.tight && want > 2*got {
				t.Fatalf("Finish allocated %d bytes, FinishBytes said %d: more than twice", got, want)
			}
		})
	}
}
