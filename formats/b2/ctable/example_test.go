package ctable_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/index"
)

// Open reads a CTable written by python-blosc2; deleted rows never appear.
func ExampleOpen() {
	t, err := ctable.Open("testdata/ctable_mixed.b2z")
	if err != nil {
		panic(err)
	}
	defer t.Close()
	fmt.Println(t.RowCount(), "rows")
	s := t.Schema()
	r, err := t.Scan(context.Background(), index.ScanSpec{
		Cols:    []int{s.Index("id"), s.Index("city"), s.Index("note")},
		Limit:   4,
		Threads: 1,
	})
	if err != nil {
		panic(err)
	}
	defer r.Close()
	for {
		b, err := r.Next(context.Background())
		if err == io.EOF {
			break
		}
		for i := 0; i < b.Live(); i++ {
			row := b.Row(i)
			fmt.Println(b.Cols[0].Value(row), b.Cols[1].Value(row), b.Cols[2].Value(row))
		}
	}
	// Output:
	// 996 rows
	// 0 Lyon NULL
	// 1 Paris note 1
	// 2 Nice note 2
	// 5 Paris NULL
}

// OpenArray exposes an N-d b2nd array as (dim0, dim1, …, value) rows.
func ExampleOpenArray() {
	t, err := ctable.OpenArray("../testdata/nd_S6_2d_lz4hc.b2nd")
	if err != nil {
		panic(err)
	}
	defer t.Close()
	for i, f := range t.Schema() {
		if i > 0 {
			fmt.Print(", ")
		}
		fmt.Print(f.Name, " ", f.Type)
	}
	fmt.Println()
	// dim0 = 7 lets the scan skip the chunks of other rows.
	p := index.Pred{Col: 0, Op: index.Eq, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 7)}}
	fmt.Println(t.DescribeScan(index.ScanSpec{Filter: []index.Pred{p}}))
	// Output:
	// dim0 BIGINT, dim1 BIGINT, nd_S6_2d_lz4hc VARCHAR
	// chunks=2/6 (positions: dim0 = 7)
}

// Create writes a CTable that python-blosc2 opens; the flavour of a
// VARCHAR column is chosen from its values.
func ExampleCreate() {
	dir, _ := os.MkdirTemp("", "ctable")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "cities.b2z")
	schema := columnar.Schema{{Name: "id", Type: columnar.TInt64}, {Name: "city", Type: columnar.TVarchar}}
	w, err := ctable.Create(path, schema, ctable.CreateOptions{})
	if err != nil {
		panic(err)
	}
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TVarchar}, 100)
	b.Len = 100
	for i := 0; i < 100; i++ {
		b.Cols[0].Ints[i] = int64(i)
		b.Cols[1].Bytes[i] = []byte([]string{"Lyon", "Paris"}[i%2])
	}
	if err := w.Write(b); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	t, err := ctable.Open(path)
	if err != nil {
		panic(err)
	}
	defer t.Close()
	fmt.Println(t.RowCount())
	// Output:
	// 100
}
