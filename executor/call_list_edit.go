package executor

import (
	"errors"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// The list functions that build a list out of another one element by
// element (append, prepend, select, where, resize, intersect), join its
// elements into a string, or test a map's keys: DuckDB 1.5's definitions,
// NULL handling included (a NULL list is an empty one for append and
// prepend, a NULL everywhere else).

// editFuncs adds these functions to listRowFuncs. Package variables are
// set before any init runs, so func_list.go's registration finds them.
var editFuncs = func() bool {
	for name, f := range map[string]listRowFunc{
		"list_append":      {fnListAppend, false},
		"list_prepend":     {fnListPrepend, false},
		"array_push_front": {fnArrayPushFront, false},
		"list_intersect":   {fnListIntersect, true},
		"array_to_string":  {fnArrayToString, false},
		"list_select":      {fnListSelect, true},
		"list_where":       {fnListWhere, true},
		"list_resize":      {fnListResize, false},
		"map_contains":     {fnMapContains, true},
		"list_unique":      {fnListUnique, true},
		"list_grade_up":    {fnListGradeUp, true},
	} {
		listRowFuncs[name] = f
	}
	return true
}()

// fnListAppend: list_append(l, e), l with e at its end.
func fnListAppend(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	out := append(slices.Clone(a[0].Elems), a[1])
	return columnar.Value{Type: t, Elems: out}, nil
}

// fnListPrepend: list_prepend(e, l), l with e at its start.
func fnListPrepend(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	out := append([]columnar.Value{a[0]}, a[1].Elems...)
	return columnar.Value{Type: t, Elems: out}, nil
}

// fnArrayPushFront: array_push_front(l, e), list_prepend(e, l).
func fnArrayPushFront(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return fnListPrepend([]columnar.Value{a[1], a[0]}, t)
}

// fnListIntersect: the distinct non-NULL elements of the first list that
// the second holds, in the first list's order (DuckDB's order is its hash
// table's: unspecified).
func fnListIntersect(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	out := []columnar.Value{}
	for _, e := range a[0].Elems {
		if e.Null || slices.ContainsFunc(out, func(o columnar.Value) bool { return columnar.Compare(o, e) == 0 }) {
			continue
		}
		if slices.ContainsFunc(a[1].Elems, func(o columnar.Value) bool { return elemEqual(o, e, false) }) {
			out = append(out, e)
		}
	}
	return columnar.Value{Type: t, Elems: out}, nil
}

// fnArrayToString: array_to_string(l, sep), the text of the non-NULL
// elements joined by sep (a NULL sep is ',', as DuckDB's string_agg).
func fnArrayToString(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].Null {
		return columnar.NullValue(t), nil
	}
	sep := ","
	if !a[1].Null {
		sep = a[1].S
	}
	var b strings.Builder
	first := true
	for _, e := range a[0].Elems {
		if e.Null {
			continue
		}
		if !first {
			b.WriteString(sep)
		}
		first = false
		b.WriteString(e.String())
	}
	return columnar.StringValue(b.String()), nil
}

// errNullSecond is DuckDB's refusal of a NULL in list_select's indexes or
// list_where's mask.
var errNullSecond = errors.New("NULLs are not allowed as list elements in the second input parameter")

// fnListSelect: list_select(l, indexes), the elements at the 1-based
// indexes, NULL for one out of range.
func fnListSelect(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if !a[1].Type.Elem().IsInteger() && a[1].Type.Elem().ID != columnar.Null {
		return columnar.Value{}, errorf("list_select expects a list of integer indexes, got %s", a[1].Type)
	}
	out := make([]columnar.Value, len(a[1].Elems))
	for i, x := range a[1].Elems {
		if x.Null {
			return columnar.Value{}, errNullSecond
		}
		if x.I < 1 || x.I > int64(len(a[0].Elems)) {
			out[i] = columnar.NullValue(t.Elem())
			continue
		}
		out[i] = a[0].Elems[x.I-1]
	}
	return columnar.Value{Type: t, Elems: out}, nil
}

// fnListWhere: list_where(l, mask), the elements whose mask entry is true
// (NULL for a true entry past the list's end).
func fnListWhere(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if e := a[1].Type.Elem(); e.ID != columnar.Bool && e.ID != columnar.Null {
		return columnar.Value{}, errorf("list_where expects a list of booleans, got %s", a[1].Type)
	}
	out := []columnar.Value{}
	for i, m := range a[1].Elems {
		if m.Null {
			return columnar.Value{}, errNullSecond
		}
		if m.I == 0 {
			continue
		}
		if i < len(a[0].Elems) {
			out = append(out, a[0].Elems[i])
		} else {
			out = append(out, columnar.NullValue(t.Elem()))
		}
	}
	return columnar.Value{Type: t, Elems: out}, nil
}

// fnListResize: list_resize(l, n[, fill]), l cut or padded to n elements
// with fill (NULL when not given); a NULL n is 0.
func fnListResize(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].Null {
		return columnar.NullValue(t), nil
	}
	n := int64(0)
	if !a[1].Null {
		n = a[1].I
	}
	if n < 0 {
		return columnar.Value{}, errorf("list_resize: size %d is negative", n)
	}
	if n > maxListRange {
		return columnar.Value{}, errorf("list_resize: more than %d elements", maxListRange)
	}
	fill := columnar.NullValue(t.Elem())
	if len(a) > 2 {
		fill = a[2]
	}
	out := slices.Clone(a[0].Elems[:min(int64(len(a[0].Elems)), n)])
	for int64(len(out)) < n {
		out = append(out, fill)
	}
	return columnar.Value{Type: t, Elems: out}, nil
}

// fnMapContains: map_contains(m, k), whether m has the key k.
func fnMapContains(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	for _, e := range a[0].Elems {
		if elemEqual(e.Elems[0], a[1], false) {
			return columnar.BoolValue(true), nil
		}
	}
	return columnar.BoolValue(false), nil
}

// fnListUnique: list_unique(l), the number of distinct non-NULL elements.
func fnListUnique(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	d, err := fnListDistinct(a, a[0].Type)
	if err != nil {
		return columnar.Value{}, err
	}
	return columnar.IntValue(t, int64(len(d.Elems))), nil
}

// fnListGradeUp: list_grade_up(l[, order[, nulls]]), the 1-based positions
// of l's elements in the order list_sort would put them (ties in list
// order).
func fnListGradeUp(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	pos := make([]columnar.Value, len(a[0].Elems))
	for i := range pos {
		pos[i] = columnar.IntValue(columnar.TInt64, int64(i+1))
	}
	// Sort the positions by their elements: list_sort of (element,
	// position) pairs, keeping the positions.
	pairs := make([]columnar.Value, len(pos))
	pt := columnar.StructOf(columnar.Field{Name: "e", Type: a[0].Type.Elem()}, columnar.Field{Name: "p", Type: columnar.TInt64})
	for i, e := range a[0].Elems {
		pairs[i] = columnar.Value{Type: pt, Elems: []columnar.Value{e, pos[i]}}
	}
	desc, nullsFirst, err := sortOrder(a[1:])
	if err != nil {
		return columnar.Value{}, err
	}
	slices.SortStableFunc(pairs, func(x, y columnar.Value) int { return orderCompare(x.Elems[0], y.Elems[0], desc, nullsFirst) })
	for i, p := range pairs {
		pos[i] = p.Elems[1]
	}
	return columnar.Value{Type: t, Elems: pos}, nil
}
