package spill

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestNestedRoundTrip: LIST, STRUCT and MAP columns (nested two deep, with
// NULL rows, NULL elements and empty lists) read back as written, whole
// and through a selection.
func TestNestedRoundTrip(t *testing.T) {
	ctx := context.Background()
	it := columnar.TInt64
	lt := columnar.ListOf(columnar.TVarchar)
	st := columnar.StructOf(columnar.Field{Name: "a", Type: it}, columnar.Field{Name: "l", Type: columnar.ListOf(lt)})
	mt := columnar.MapOf(columnar.TVarchar, columnar.TFloat64)
	types := []columnar.Type{lt, st, mt}
	row := func(r int) []columnar.Value {
		if r%7 == 0 {
			return []columnar.Value{columnar.NullValue(lt), columnar.NullValue(st), columnar.NullValue(mt)}
		}
		var l []columnar.Value
		for j := range r % 4 {
			if j == 1 {
				l = append(l, columnar.NullValue(columnar.TVarchar))
			} else {
				l = append(l, columnar.StringValue(fmt.Sprint("s", r, j)))
			}
		}
		lv := columnar.Value{Type: lt, Elems: l}
		sv := columnar.Value{Type: st, Elems: []columnar.Value{columnar.IntValue(it, int64(r)), {Type: columnar.ListOf(lt), Elems: []columnar.Value{lv, columnar.NullValue(lt)}}}}
		entry := columnar.Value{Type: mt.Elem(), Elems: []columnar.Value{columnar.StringValue(fmt.Sprint("k", r)), columnar.FloatValue(columnar.TFloat64, float64(r)/2)}}
		mv := columnar.Value{Type: mt, Elems: []columnar.Value{entry}}
		return []columnar.Value{lv, sv, mv}
	}
	const total = 300
	for _, sel := range []bool{false, true} {
		d := DirFor(t.TempDir())
		w, err := d.Create(types, 0)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for base := 0; base < total; base += 7 {
			n := min(7, total-base)
			b := columnar.NewBatch(types, n)
			b.Len = n
			for k := range n {
				for c, v := range row(base + k) {
					b.Cols[c].SetValue(k, n, v)
				}
				if !sel || k%2 == 0 {
					want = append(want, fmt.Sprint(row(base+k)))
					if sel {
						b.Sel = append(b.Sel, k)
					}
				}
			}
			if err := w.Write(ctx, b); err != nil {
				t.Fatal(err)
			}
		}
		f, err := w.Finish()
		if err != nil {
			t.Fatal(err)
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			b, err := r.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			for k := range b.Len {
				var vals []columnar.Value
				for _, v := range b.Cols {
					vals = append(vals, v.Value(k))
				}
				got = append(got, fmt.Sprint(vals))
			}
		}
		r.Close()
		f.Remove()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("sel %v: got\n%v\nwant\n%v", sel, got, want)
		}
	}
}
