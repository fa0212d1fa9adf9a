package executor

import "github.com/b2sql/b2sql/columnar"

// A window's list(x) FILTER (WHERE cond) OVER …: the frame must not hold
// the rows cond leaves out, not even as NULLs (a kept row's NULL x is an
// element). The binder (sql/bind_window_aggs.go) aggregates
// filter_box(x, cond), [x] on a kept row and NULL on the others, and
// list_unbox concatenates the frame's boxes: NULL when none is left, as
// DuckDB's list over no rows.

// fnFilterBox: [x] where cond is TRUE, else NULL (x may be NULL).
func fnFilterBox(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[1].Null || a[1].I == 0 {
		return columnar.NullValue(t), nil
	}
	return columnar.Value{Type: t, Elems: []columnar.Value{a[0]}}, nil
}

// fnListUnbox: the elements of the non-NULL boxes in order, NULL when
// there are none.
func fnListUnbox(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	var out []columnar.Value
	for _, box := range a[0].Elems {
		if !box.Null {
			out = append(out, box.Elems...)
		}
	}
	if out == nil {
		return columnar.NullValue(t), nil
	}
	return columnar.Value{Type: t, Elems: out}, nil
}
