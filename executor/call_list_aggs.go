package executor

import (
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// list_aggregate(l, name) for the aggregates beyond list_sum/min/max/avg/
// count, as DuckDB's aggregates define them over the list's elements:
// first and last take the first or last element even when NULL,
// any_value the first non-NULL one; string_agg joins the non-NULL
// strings (a[1] is the separator); bool_and/bool_or, median (the middle
// value, or the mean of the two middle ones), mode (the most frequent,
// first seen on a tie) and product skip NULLs; NULL when nothing is left.
func fnListAggOther(agg string) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		elems := a[0].Elems
		switch agg {
		case "first":
			if len(elems) == 0 {
				return columnar.NullValue(t), nil
			}
			return elems[0], nil
		case "last":
			if len(elems) == 0 {
				return columnar.NullValue(t), nil
			}
			return elems[len(elems)-1], nil
		}
		var vals []columnar.Value
		for _, e := range elems {
			if !e.Null {
				vals = append(vals, e)
			}
		}
		if len(vals) == 0 {
			return columnar.NullValue(t), nil
		}
		switch agg {
		case "any_value":
			return vals[0], nil
		case "string_agg":
			parts := make([]string, len(vals))
			for i, v := range vals {
				parts[i] = v.S
			}
			sep := ","
			if len(a) > 1 {
				sep = a[1].S
			}
			return columnar.StringValue(strings.Join(parts, sep)), nil
		case "bool_and", "bool_or":
			and := agg == "bool_and"
			for _, v := range vals {
				if (v.I != 0) != and {
					return columnar.BoolValue(!and), nil
				}
			}
			return columnar.BoolValue(and), nil
		case "product":
			p := 1.0
			for _, v := range vals {
				p *= v.AsFloat()
			}
			return columnar.FloatValue(t, p), nil
		case "median":
			fs := make([]float64, len(vals))
			for i, v := range vals {
				fs[i] = v.AsFloat()
			}
			slices.Sort(fs)
			m := len(fs) / 2
			if len(fs)%2 == 1 {
				return columnar.FloatValue(t, fs[m]), nil
			}
			return columnar.FloatValue(t, fs[m-1]+(fs[m]-fs[m-1])/2), nil
		}
		// mode
		best, bestN := 0, 0
		for i, v := range vals {
			n := 0
			for _, w := range vals {
				if columnar.Compare(v, w) == 0 {
					n++
				}
			}
			if n > bestN {
				best, bestN = i, n
			}
		}
		return vals[best], nil
	}
}
