package hashtab

import (
	"fmt"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestIntervalKeys: intervals equal after normalization (a month as 30
// days, a day as 24 hours) get one id, alone or beside another column, and
// Keys gives back the form of the row that created each id.
func TestIntervalKeys(t *testing.T) {
	iv := func(m, d int32, us int64) columnar.IntervalParts {
		return columnar.IntervalParts{Months: m, Days: d, Micros: us}
	}
	const hour = 3600 * columnar.MicrosPerSecond
	rows := []columnar.IntervalParts{
		iv(0, 0, 24*hour), iv(0, 1, 0), iv(1, 0, 0), iv(0, 30, 0), iv(0, 29, 24*hour), iv(0, 2, 0),
	}
	wantIDs := []int32{0, 0, 1, 1, 1, 2}
	wantKeys := []columnar.IntervalParts{rows[0], rows[2], rows[5]}
	for _, types := range [][]columnar.Type{{columnar.TInterval}, {columnar.TInt64, columnar.TInterval}} {
		for _, size := range batchSizes {
			m := New(types)
			c := len(types) - 1
			var got []int32
			for from := 0; from < len(rows); from += size {
				n := min(size, len(rows)-from)
				b := &columnar.Batch{Len: n}
				for k, typ := range types {
					v := columnar.NewVector(typ, n)
					for r := range n {
						if k == c {
							v.SetInterval(r, rows[from+r])
						} else {
							v.Ints[r] = 7
						}
					}
					b.Cols = append(b.Cols, v)
				}
				keys := make([]*columnar.Vector, len(types))
				for k := range keys {
					keys[k] = b.Cols[k]
				}
				gids := make([]int32, n)
				m.Assign(b, keys, gids)
				got = append(got, gids...)
			}
			if len(got) != len(wantIDs) {
				t.Fatalf("types %v size %d: %d ids", types, size, len(got))
			}
			for i := range got {
				if got[i] != wantIDs[i] {
					t.Fatalf("types %v size %d: ids %v, want %v", types, size, got, wantIDs)
				}
			}
			cols := make([]*columnar.Vector, len(types))
			for k, typ := range types {
				cols[k] = columnar.NewVector(typ, 0)
			}
			m.Keys(cols, 0, m.Len())
			for g, want := range wantKeys {
				if k := cols[c].IntervalAt(g); k != want {
					t.Errorf("types %v size %d: key %d = %+v, want %+v", types, size, g, k, want)
				}
			}
		}
	}
}

// TestNestedKeys: nested keys are equal when their elements are (NULL
// elements equal, -0 = 0), alone or beside another column, through Assign,
// Find and an Index; Keys gives back the creating row's value.
func TestNestedKeys(t *testing.T) {
	lt := columnar.ListOf(columnar.TFloat64)
	st := columnar.StructOf(columnar.Field{Name: "a", Type: lt}, columnar.Field{Name: "b", Type: columnar.TVarchar})
	f := func(x float64) columnar.Value { return columnar.FloatValue(columnar.TFloat64, x) }
	null := columnar.NullValue(columnar.TFloat64)
	list := func(xs ...columnar.Value) columnar.Value { return columnar.Value{Type: lt, Elems: xs} }
	strct := func(l columnar.Value, s string) columnar.Value {
		return columnar.Value{Type: st, Elems: []columnar.Value{l, columnar.StringValue(s)}}
	}
	rows := []columnar.Value{
		strct(list(f(1), f(2)), "x"),
		strct(list(f(1), null), "x"),
		strct(list(f(1), f(2)), "x"),
		strct(list(f(1), null), "x"),
		columnar.NullValue(st),
		strct(list(), "x"),
		strct(list(f(-0.0)), "x"),
		strct(list(f(0)), "x"),
		strct(list(f(1), f(2)), "y"),
		columnar.NullValue(st),
		strct(list(f(1)), "x"),
	}
	wantIDs := []int32{0, 1, 0, 1, 2, 3, 4, 4, 5, 2, 6}
	for _, types := range [][]columnar.Type{{st}, {columnar.TInt64, st}} {
		for _, size := range batchSizes {
			m := New(types)
			c := len(types) - 1
			var got []int32
			build := func(from, n int) *columnar.Batch {
				b := &columnar.Batch{Len: n}
				for k, typ := range types {
					v := columnar.NewVector(typ, n)
					for r := range n {
						if k == c {
							v.SetValue(r, n, rows[from+r])
						} else {
							v.Ints[r] = 7
						}
					}
					b.Cols = append(b.Cols, v)
				}
				return b
			}
			for from := 0; from < len(rows); from += size {
				n := min(size, len(rows)-from)
				b := build(from, n)
				gids := make([]int32, n)
				m.Assign(b, b.Cols, gids)
				got = append(got, gids...)
			}
			if fmt.Sprint(got) != fmt.Sprint(wantIDs) {
				t.Fatalf("types %v size %d: ids %v, want %v", types, size, got, wantIDs)
			}
			b := build(0, len(rows))
			gids := make([]int32, len(rows))
			m.Find(b, b.Cols, gids)
			if fmt.Sprint(gids) != fmt.Sprint(wantIDs) {
				t.Fatalf("types %v: Find %v, want %v", types, gids, wantIDs)
			}
			cols := make([]*columnar.Vector, len(types))
			for k, typ := range types {
				cols[k] = columnar.NewVector(typ, 0)
			}
			m.Keys(cols, 0, m.Len())
			for g, i := range []int{0, 1, 4, 5, 6, 8, 10} {
				want := rows[i].String()
				if got := cols[c].Value(g).String(); got != want {
					t.Errorf("types %v size %d: key %d = %s, want %s", types, size, g, got, want)
				}
			}
		}
	}
}
