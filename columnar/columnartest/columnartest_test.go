package columnartest

import (
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestCheckBatch: one well-formed batch passes; each way of breaking the
// contract is named.
func TestCheckBatch(t *testing.T) {
	good := func() *columnar.Batch {
		b := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TVarchar}, 4)
		b.Len = 4
		return b
	}
	if err := CheckBatch(good()); err != nil {
		t.Fatalf("well-formed batch: %v", err)
	}
	cases := []struct {
		name  string
		spoil func(b *columnar.Batch)
		want  string
	}{
		{"empty", func(b *columnar.Batch) { b.Len = 0 }, "no live row"},
		{"empty selection", func(b *columnar.Batch) { b.Sel = []int{} }, "no live row"},
		{"selection out of order", func(b *columnar.Batch) { b.Sel = []int{2, 1} }, "strictly increasing"},
		{"selection past Len", func(b *columnar.Batch) { b.Sel = []int{1, 4} }, "strictly increasing"},
		{"short payload", func(b *columnar.Batch) { b.Cols[0].Ints = b.Cols[0].Ints[:3] }, "payload of 3 rows"},
		{"short validity", func(b *columnar.Batch) {
			b.Len = 65
			b.Cols[0].Grow(65)
			b.Cols[1].Grow(65)
			b.Cols[1].Valid = columnar.NewBitmap(4)
		}, "validity covers 64"},
		{"too large", func(b *columnar.Batch) { b.Len = MaxRows + 1 }, "at most"},
		{"nil vector", func(b *columnar.Batch) { b.Cols[1] = nil }, "nil vector"},
	}
	for _, c := range cases {
		b := good()
		c.spoil(b)
		err := CheckBatch(b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// A Const vector needs one row of payload, whatever Len is.
	b := good()
	b.Cols[0].Ints = b.Cols[0].Ints[:1]
	b.Cols[0].Const = true
	if err := CheckBatch(b); err != nil {
		t.Errorf("const vector: %v", err)
	}
}
