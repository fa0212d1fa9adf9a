package b2sql_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

func TestRecordReader(t *testing.T) {
	const n = 5000
	db := openFixture(t, n)
	for _, q := range []string{
		"SELECT i, g, f, s, n, d, ts, b, dec FROM t",                 // plain scan: shared buffers
		"SELECT i, g, f, s, n, d, ts, b, dec FROM t WHERE i % 3 = 1", // selections: copied
	} {
		t.Run(q, func(t *testing.T) {
			rows, err := db.Query(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			rr := rows.RecordReader()
			defer rr.Release()
			wantTypes := []arrow.Type{arrow.INT64, arrow.INT32, arrow.FLOAT64, arrow.STRING, arrow.INT64, arrow.DATE32, arrow.TIMESTAMP, arrow.BOOL, arrow.DECIMAL128}
			for k, f := range rr.Schema().Fields() {
				if f.Type.ID() != wantTypes[k] {
					t.Errorf("field %s: %s, want %s", f.Name, f.Type, wantTypes[k])
				}
			}
			seen := map[int64]bool{}
			for rr.Next() {
				rec := rr.RecordBatch()
				is := rec.Column(0).(*array.Int64)
				for r := 0; r < int(rec.NumRows()); r++ {
					i := is.Value(r)
					seen[i] = true
					if err := checkArrowRow(rec, r, i); err != nil {
						t.Fatalf("row i=%d: %v", i, err)
					}
				}
			}
			if err := rr.Err(); err != nil {
				t.Fatal(err)
			}
			want := n
			if q[len(q)-1] == '1' {
				want = (n + 1) / 3 // i ≡ 1 (mod 3) for i < 5000: 1666
			}
			if len(seen) != want {
				t.Errorf("%d distinct rows, want %d", len(seen), want)
			}
		})
	}
}

// checkArrowRow compares row r of rec against the fixture formulas for i.
func checkArrowRow(rec arrow.RecordBatch, r int, i int64) error {
	if g := rec.Column(1).(*array.Int32).Value(r); int64(g) != i%7 {
		return fmt.Errorf("g = %d", g)
	}
	if f := rec.Column(2).(*array.Float64).Value(r); f != float64(i)/2 {
		return fmt.Errorf("f = %v", f)
	}
	if s := rec.Column(3).(*array.String).Value(r); s != fmt.Sprintf("s%d", i%10) {
		return fmt.Errorf("s = %q", s)
	}
	nc := rec.Column(4).(*array.Int64)
	if null := nc.IsNull(r); null != (i%5 == 0) || (!null && nc.Value(r) != i) {
		return fmt.Errorf("n null=%v value=%d", null, nc.Value(r))
	}
	if d := rec.Column(5).(*array.Date32).Value(r); int64(d) != i%365 {
		return fmt.Errorf("d = %d", d)
	}
	if ts := rec.Column(6).(*array.Timestamp).Value(r); int64(ts) != 1_704_067_200_000_000+i*1_000_000 {
		return fmt.Errorf("ts = %d", ts)
	}
	if b := rec.Column(7).(*array.Boolean).Value(r); b != (i%2 == 0) {
		return fmt.Errorf("b = %v", b)
	}
	if dec := rec.Column(8).(*array.Decimal128).Value(r); dec.LowBits() != uint64(i) || dec.HighBits() != 0 {
		return fmt.Errorf("dec = %v", dec)
	}
	return nil
}

// TestRecordReaderStatic reads a result without a plan (SHOW TABLES) and
// an empty one through Arrow.
func TestRecordReaderStatic(t *testing.T) {
	db := openFixture(t, 10)
	if err := db.RegisterTable("u", writeFixture(t, t.TempDir(), "u", 5, 1000, -1)); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(context.Background(), "SHOW TABLES")
	if err != nil {
		t.Fatal(err)
	}
	rr := rows.RecordReader()
	defer rr.Release()
	var names []string
	for rr.Next() {
		col := rr.RecordBatch().Column(0).(*array.String)
		for i := range col.Len() {
			names = append(names, col.Value(i))
		}
	}
	if rr.Err() != nil || fmt.Sprint(names) != "[t u]" {
		t.Errorf("SHOW TABLES via Arrow: %v, %v", names, rr.Err())
	}
	rows, err = db.Query(context.Background(), "SELECT i FROM t WHERE i > 100")
	if err != nil {
		t.Fatal(err)
	}
	rr2 := rows.RecordReader()
	defer rr2.Release()
	if rr2.Next() || rr2.Err() != nil {
		t.Errorf("empty result: Next true or Err %v", rr2.Err())
	}
}

// TestRecordReaderWideInts: HUGEINT and UHUGEINT export as decimal128(38,
// 0), as DuckDB's Arrow export; UHUGEINT's unsigned bits are kept.
func TestRecordReaderWideInts(t *testing.T) {
	db := openFixture(t, 10)
	// 2^64 + 5 has high bits 1 and low bits 5; -2 is all ones but the
	// lowest bit.
	rows, err := db.Query(context.Background(), "SELECT 18446744073709551621::UHUGEINT AS u, -2::HUGEINT AS h")
	if err != nil {
		t.Fatal(err)
	}
	rr := rows.RecordReader()
	defer rr.Release()
	if !rr.Next() {
		t.Fatalf("no record: %v", rr.Err())
	}
	rec := rr.RecordBatch()
	for i, want := range [][2]uint64{{5, 1}, {math.MaxUint64 - 1, math.MaxUint64}} {
		dt, ok := rec.Schema().Field(i).Type.(*arrow.Decimal128Type)
		if !ok || dt.Precision != 38 || dt.Scale != 0 {
			t.Fatalf("column %d: %v", i, rec.Schema().Field(i).Type)
		}
		d := rec.Column(i).(*array.Decimal128).Value(0)
		if d.LowBits() != want[0] || uint64(d.HighBits()) != want[1] {
			t.Errorf("column %d: %d %d, want %d %d", i, d.LowBits(), d.HighBits(), want[0], want[1])
		}
	}
}
