package b2sql

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/b2sql/b2sql/columnar"
)

// TestArrowZeroCopy checks which columns share the batch's memory: 64-bit
// payloads without selection do, the rest are copies with the same values.
func TestArrowZeroCopy(t *testing.T) {
	const n = 100
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TFloat64, columnar.TInt32}, n)
	b.Len = n
	for i := range n {
		b.Cols[0].Ints[i] = int64(i * i)
		b.Cols[1].Floats[i] = float64(i) / 4
		b.Cols[2].Ints[i] = int64(-i)
	}
	b.Cols[1].SetNull(3, n)
	cols := []Column{{"sq", columnar.TInt64}, {"q", columnar.TFloat64}, {"neg", columnar.TInt32}}
	rr := (&Rows{cols: cols}).RecordReader()
	schema := rr.Schema()

	rec, err := arrowRecord(schema, cols, b)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	sq := rec.Column(0).(*array.Int64)
	if &sq.Int64Values()[0] != &b.Cols[0].Ints[0] {
		t.Error("BIGINT column without selection was copied")
	}
	q := rec.Column(1).(*array.Float64)
	if &q.Float64Values()[0] != &b.Cols[1].Floats[0] {
		t.Error("DOUBLE column with NULLs and no selection was copied")
	}
	if q.NullN() != 1 || !q.IsNull(3) || q.IsNull(2) {
		t.Errorf("DOUBLE nulls: NullN=%d IsNull(3)=%v", q.NullN(), q.IsNull(3))
	}
	neg := rec.Column(2).(*array.Int32)
	for i := range n {
		if sq.Value(i) != int64(i*i) || neg.Value(i) != int32(-i) || (i != 3 && q.Value(i) != float64(i)/4) {
			t.Fatalf("row %d: %d %d %v", i, sq.Value(i), neg.Value(i), q.Value(i))
		}
	}

	// With a selection every column is gathered (copied) in order.
	b.Sel = []int{1, 3, 50, 99}
	rec2, err := arrowRecord(schema, cols, b)
	if err != nil {
		t.Fatal(err)
	}
	defer rec2.Release()
	sq2 := rec2.Column(0).(*array.Int64)
	if rec2.NumRows() != 4 || &sq2.Int64Values()[0] == &b.Cols[0].Ints[0] {
		t.Fatalf("selected record: %d rows, shared=%v", rec2.NumRows(), &sq2.Int64Values()[0] == &b.Cols[0].Ints[0])
	}
	for k, i := range b.Sel {
		if sq2.Value(k) != int64(i*i) {
			t.Errorf("selected row %d: %d, want %d", k, sq2.Value(k), i*i)
		}
	}
	if q2 := rec2.Column(1).(*array.Float64); q2.NullN() != 1 || !q2.IsNull(1) {
		t.Errorf("selected nulls: NullN=%d", q2.NullN())
	}

	// A constant vector is expanded.
	b.Sel = nil
	b.Cols[2] = columnar.ConstVector(columnar.IntValue(columnar.TInt32, 42))
	rec3, err := arrowRecord(schema, cols, b)
	if err != nil {
		t.Fatal(err)
	}
	defer rec3.Release()
	c := rec3.Column(2).(*array.Int32)
	if c.Len() != n || c.Value(0) != 42 || c.Value(n-1) != 42 || c.NullN() != 0 {
		t.Errorf("const column: len %d, %d..%d, nulls %d", c.Len(), c.Value(0), c.Value(n-1), c.NullN())
	}
}
