package executor

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestSortedEntries: entries sort stably by their keys, each key with its
// own direction and NULL placement; string_agg skips NULL values.
func TestSortedEntries(t *testing.T) {
	entry := columnar.StructOf(columnar.Field{Name: "k1", Type: columnar.TInt64}, columnar.Field{Name: "k2", Type: columnar.TVarchar},
		columnar.Field{Name: "v", Type: columnar.TVarchar})
	e := func(k1 any, k2 any, v any) columnar.Value {
		x := columnar.Value{Type: entry, Elems: []columnar.Value{columnar.NullValue(columnar.TInt64), columnar.NullValue(columnar.TVarchar), columnar.NullValue(columnar.TVarchar)}}
		if k1 != nil {
			x.Elems[0] = columnar.IntValue(columnar.TInt64, int64(k1.(int)))
		}
		if k2 != nil {
			x.Elems[1] = columnar.StringValue(k2.(string))
		}
		if v != nil {
			x.Elems[2] = columnar.StringValue(v.(string))
		}
		return x
	}
	l := columnar.Value{Type: columnar.ListOf(entry), Elems: []columnar.Value{
		e(2, "b", "p"), e(1, "a", "q"), e(nil, "a", "r"), e(2, nil, "s"), e(1, "a", nil), e(2, "c", "t"),
	}}
	flags := func(fs ...bool) columnar.Value {
		out := columnar.Value{Type: columnar.ListOf(columnar.TBool)}
		for _, f := range fs {
			out.Elems = append(out.Elems, columnar.BoolValue(f))
		}
		return out
	}
	tests := []struct {
		name  string
		order columnar.Value // desc1, nullsFirst1, desc2, nullsFirst2
		list  string
		agg   string
	}{
		// k1 ASC NULLS LAST, k2 DESC NULLS LAST; ties keep input order.
		{"asc, desc", flags(false, false, true, false), "[q, NULL, t, p, s, r]", "q|t|p|s|r"},
		// k1 DESC NULLS FIRST, k2 ASC NULLS FIRST.
		{"desc nulls first, asc nulls first", flags(true, true, false, true), "[r, s, p, t, q, NULL]", "r|s|p|t|q"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := fnSortedList([]columnar.Value{l, tc.order}, columnar.ListOf(columnar.TVarchar))
			if err != nil {
				t.Fatal(err)
			}
			if s := got.String(); s != tc.list {
				t.Errorf("sorted_list: got %s, want %s", s, tc.list)
			}
			agg, err := fnSortedStringAgg([]columnar.Value{l, tc.order, columnar.StringValue("|")}, columnar.TVarchar)
			if err != nil {
				t.Fatal(err)
			}
			if agg.S != tc.agg {
				t.Errorf("sorted_string_agg: got %s, want %s", agg.S, tc.agg)
			}
		})
	}
	empty, err := fnSortedStringAgg([]columnar.Value{{Type: l.Type}, flags(false, false, false, false), columnar.StringValue(",")}, columnar.TVarchar)
	if err != nil || !empty.Null {
		t.Errorf("string_agg of no entries: got %v, %v; want NULL", empty, err)
	}
	if _, err := fnSortedList([]columnar.Value{l, flags(false, false)}, columnar.ListOf(columnar.TVarchar)); err == nil {
		t.Errorf("one key's flags for two keys: no error")
	}
}
