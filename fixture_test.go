package b2sql_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/parquet"
)

// The fixture table "t" has n rows; row i holds values computed from i, so
// every test can compute its expected answer by formula:
//
//	i    BIGINT         i
//	g    INTEGER        i % 7
//	f    DOUBLE         i / 2 (exact halves)
//	s    VARCHAR        "s" + (i % 10)
//	n    BIGINT         NULL when i % 5 == 0, else i
//	d    DATE           1970-01-01 + (i % 365) days
//	ts   TIMESTAMP      2024-01-01 00:00:00 UTC + i seconds
//	b    BOOLEAN        i % 2 == 0
//	dec  DECIMAL(10,2)  i / 100 (i cents)
//	num  VARCHAR        decimal digits of i, except "oops" at row bad (if bad >= 0)
var fixtureSchema = columnar.Schema{
	{Name: "i", Type: columnar.TInt64},
	{Name: "g", Type: columnar.TInt32},
	{Name: "f", Type: columnar.TFloat64},
	{Name: "s", Type: columnar.TVarchar},
	{Name: "n", Type: columnar.TInt64, Nullable: true},
	{Name: "d", Type: columnar.TDate},
	{Name: "ts", Type: columnar.TTimestamp},
	{Name: "b", Type: columnar.TBool},
	{Name: "dec", Type: columnar.DecimalType(10, 2)},
	{Name: "num", Type: columnar.TVarchar},
}

const ts2024 = 1_704_067_200 * columnar.MicrosPerSecond

// writeFixture writes the fixture with n rows into dir/name.parquet, in
// row groups of rowGroup rows, and returns the path.
func writeFixture(t testing.TB, dir, name string, n, rowGroup, bad int) string {
	t.Helper()
	path := filepath.Join(dir, name+".parquet")
	w, err := parquet.NewWriter(path, fixtureSchema, parquet.WriterOptions{RowGroupRows: int64(rowGroup)})
	if err != nil {
		t.Fatal(err)
	}
	types := make([]columnar.Type, len(fixtureSchema))
	for k, f := range fixtureSchema {
		types[k] = f.Type
	}
	for lo := 0; lo < n; lo += columnar.MaxBatch {
		m := min(columnar.MaxBatch, n-lo)
		b := columnar.NewBatch(types, m)
		b.Len = m
		for r := range m {
			i := int64(lo + r)
			c := b.Cols
			c[0].Ints[r] = i
			c[1].Ints[r] = i % 7
			c[2].Floats[r] = float64(i) / 2
			c[3].Bytes[r] = []byte(fmt.Sprintf("s%d", i%10))
			if i%5 == 0 {
				c[4].SetNull(r, m)
			} else {
				c[4].Ints[r] = i
			}
			c[5].Ints[r] = i % 365
			c[6].Ints[r] = ts2024 + i*columnar.MicrosPerSecond
			c[7].Bools[r] = i%2 == 0
			c[8].Ints[r] = i
			if int(i) == bad {
				c[9].Bytes[r] = []byte("oops")
			} else {
				c[9].Bytes[r] = []byte(fmt.Sprint(i))
			}
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
