package parquet_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/index"
)

// Write a small file, then scan it back with a pushed-down predicate.
func Example() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "cities.parquet")

	sc := columnar.Schema{
		{Name: "id", Type: columnar.TInt64},
		{Name: "city", Type: columnar.TVarchar, Nullable: true},
	}
	w, err := parquet.NewWriter(path, sc, parquet.WriterOptions{RowGroupRows: 2})
	if err != nil {
		panic(err)
	}
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TVarchar}, 4)
	b.Len = 4
	for i, city := range []string{"Lyon", "Paris", "", "Nice"} {
		b.Cols[0].Ints[i] = int64(i)
		b.Cols[1].Bytes[i] = []byte(city)
	}
	b.Cols[1].SetNull(2, 4)
	if err := w.Write(b); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}

	t, err := parquet.Open(path)
	if err != nil {
		panic(err)
	}
	defer t.Close()
	fmt.Println(t.Name(), t.RowCount(), "rows in", t.RowGroups(), "row groups")
	spec := index.ScanSpec{
		Cols:    []int{0, 1},
		Filter:  []index.Pred{{Col: 0, Op: index.Ge, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 2)}}},
		Limit:   -1,
		Threads: 1,
	}
	fmt.Println(t.DescribeScan(spec))
	r, err := t.Scan(context.Background(), spec)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	for {
		b, err := r.Next(context.Background())
		if err == io.EOF {
			break
		}
		for i := 0; i < b.Len; i++ {
			fmt.Println(b.Cols[0].Value(i), b.Cols[1].Value(i))
		}
	}
	// Output:
	// cities 4 rows in 2 row groups
	// row groups=1/2 all-true=1 (stats)
	// 2 NULL
	// 3 Nice
}
