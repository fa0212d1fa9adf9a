package executor

import (
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// An ordered aggregate whose ORDER BY differs from the query's other
// ordered aggregates (the binder sorts the input once, for the first
// ORDER BY only) is computed as list(struct_pack(k1, …, kn, v)) and
// finished per group by one of these functions, DuckDB's sorted
// aggregate: sorted_list(entries, order) and
// sorted_string_agg(entries, order, sep) sort the entries stably by
// their first n fields and keep the last. order is a constant
// LIST<BOOLEAN> of 2n flags, DESC then NULLS FIRST for each key.

// sortEntries returns the last fields of the entries of list l, ordered
// by the keys before them.
func sortEntries(l, order columnar.Value) ([]columnar.Value, error) {
	n := len(order.Elems) / 2
	if len(order.Elems) != 2*n || l.Type.Elem().ID != columnar.Struct || len(l.Type.Elem().Fields()) != n+1 {
		return nil, errorf("sorted aggregate: %d order flags for entries of type %s", len(order.Elems), l.Type.Elem())
	}
	entries := slices.Clone(l.Elems)
	slices.SortStableFunc(entries, func(x, y columnar.Value) int {
		for k := range n {
			if c := orderCompare(x.Elems[k], y.Elems[k], order.Elems[2*k].I != 0, order.Elems[2*k+1].I != 0); c != 0 {
				return c
			}
		}
		return 0
	})
	out := make([]columnar.Value, len(entries))
	for i, e := range entries {
		out[i] = e.Elems[n]
	}
	return out, nil
}

// fnSortedList: list(v ORDER BY keys).
func fnSortedList(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	vals, err := sortEntries(a[0], a[1])
	if err != nil {
		return columnar.Value{}, err
	}
	return columnar.Value{Type: t, Elems: vals}, nil
}

// fnSortedStringAgg: string_agg(v, sep ORDER BY keys): the non-NULL
// values joined by sep, NULL when there are none.
func fnSortedStringAgg(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	vals, err := sortEntries(a[0], a[1])
	if err != nil {
		return columnar.Value{}, err
	}
	var sb strings.Builder
	some := false
	for _, v := range vals {
		if v.Null {
			continue
		}
		if some {
			sb.WriteString(a[2].S)
		}
		sb.WriteString(v.S)
		some = true
	}
	if !some {
		return columnar.NullValue(t), nil
	}
	return columnar.StringValue(sb.String()), nil
}
