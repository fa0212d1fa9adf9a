package spill

import (
	"context"
	"errors"
	"io"
	"testing"
)

// A file written with Index reads back from any batch: each range holds
// exactly its batches' rows (batch k of 7 rows holds rows 7k..7k+6), and
// an empty range none.
func TestOpenRange(t *testing.T) {
	ctx := context.Background()
	d := DirFor(t.TempDir())
	w, err := d.Create(testTypes, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Index()
	const per, batches = 7, 6
	for k := range batches {
		if err := w.Write(ctx, testBatch(k*per, per)); err != nil {
			t.Fatal(err)
		}
	}
	f, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Remove()
	if f.Batches() != batches {
		t.Fatalf("%d batches, want %d", f.Batches(), batches)
	}
	for _, rg := range [][2]int{{0, 1}, {0, batches}, {2, 5}, {5, 6}, {3, 3}, {1, 2}} {
		r, err := f.OpenRange(rg[0], rg[1])
		if err != nil {
			t.Fatal(err)
		}
		row := rg[0] * per
		for {
			b, err := r.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			for k := range b.Len {
				wantRow(t, b, k, row)
				row++
			}
		}
		r.Close()
		if row != rg[1]*per {
			t.Fatalf("range %v: read up to row %d, want %d", rg, row, rg[1]*per)
		}
	}
	var se *Error
	if _, err := f.OpenRange(2, batches+1); !errors.As(err, &se) {
		t.Fatalf("a range past the end: got %v", err)
	}
}
