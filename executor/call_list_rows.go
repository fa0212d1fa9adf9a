package executor

import (
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
)

// listRowFunc is a nested-value function evaluated on a row's Values;
// strict ones give NULL for a NULL argument without being called.
type listRowFunc struct {
	f      rowFunc
	strict bool
}

// listRowFuncs are the nested-value functions that work on whole values
// (DuckDB 1.5's definitions; the binder checks the argument types).
var listRowFuncs = map[string]listRowFunc{
	"list_position":         {fnListPosition, false},
	"map_extract":           {fnMapExtract(false), true},
	"map_extract_value":     {fnMapExtract(true), true},
	"list_concat":           {fnListConcat, false},
	"list_reverse":          {fnListReverse, true},
	"list_sort":             {fnListSort, true},
	"list_distinct":         {fnListDistinct, true},
	"list_slice":            {fnListSlice, true},
	"list_concat_op":        {fnListConcat, true},
	"string_index":          {fnStringIndex, true},
	"map_from_lists":        {fnMapFromLists, true},
	"map_from_entries":      {fnMapFromEntries, true},
	"list_sum":              {fnListAgg("sum"), true},
	"list_min":              {fnListAgg("min"), true},
	"list_max":              {fnListAgg("max"), true},
	"list_avg":              {fnListAgg("avg"), true},
	"list_count":            {fnListAgg("count"), true},
	"list_first":            {fnListAggOther("first"), true},
	"list_last":             {fnListAggOther("last"), true},
	"list_any_value":        {fnListAggOther("any_value"), true},
	"list_string_agg":       {fnListAggOther("string_agg"), true},
	"list_bool_and":         {fnListAggOther("bool_and"), true},
	"list_bool_or":          {fnListAggOther("bool_or"), true},
	"list_product":          {fnListAggOther("product"), true},
	"list_median":           {fnListAggOther("median"), true},
	"list_mode":             {fnListAggOther("mode"), true},
	"list_has_any":          {fnListHas(false), true},
	"list_has_all":          {fnListHas(true), true},
	"flatten":               {fnFlatten, true},
	"string_split":          {fnStringSplit, false},
	"regexp_split_to_array": {fnRegexpSplit, false},
	"list_range":            {fnListRange(false), true},
	"list_generate_series":  {fnListRange(true), true},
	"sorted_list":           {fnSortedList, true},
	"sorted_string_agg":     {fnSortedStringAgg, true},
	"filter_box":            {fnFilterBox, false},
	"list_unbox":            {fnListUnbox, true},
}

// elemEqual reports whether two elements are equal, NULL matching NULL
// (list_position) when nullMatch is set.
func elemEqual(a, b columnar.Value, nullMatch bool) bool {
	if a.Null || b.Null {
		return nullMatch && a.Null && b.Null
	}
	return columnar.Compare(a, b) == 0
}

// fnListPosition: the 1-based position of the first element equal to the
// value (a NULL value finds the first NULL element), or NULL.
func fnListPosition(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].Null {
		return columnar.NullValue(t), nil
	}
	for i, e := range a[0].Elems {
		if elemEqual(e, a[1], true) {
			return columnar.IntValue(t, int64(i+1)), nil
		}
	}
	return columnar.NullValue(t), nil
}

// fnMapExtract: the values under a key, as a list ([] when absent), or
// the first one (value: NULL when absent).
func fnMapExtract(value bool) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		var out []columnar.Value
		for _, e := range a[0].Elems {
			if elemEqual(e.Elems[0], a[1], false) {
				out = append(out, e.Elems[1])
			}
		}
		if value {
			if len(out) == 0 {
				return columnar.NullValue(t), nil
			}
			return out[0], nil
		}
		return columnar.Value{Type: t, Elems: out}, nil
	}
}

// fnListConcat: the lists one after the other, a NULL list as empty.
func fnListConcat(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	out := []columnar.Value{}
	for _, l := range a {
		out = append(out, l.Elems...)
	}
	return columnar.Value{Type: t, Elems: out}, nil
}

func fnListReverse(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	out := slices.Clone(a[0].Elems)
	slices.Reverse(out)
	return columnar.Value{Type: t, Elems: out}, nil
}

// fnListSort: list_sort(l[, 'ASC'|'DESC'[, 'NULLS FIRST'|'NULLS LAST']]),
// ascending with NULLs last by default, as DuckDB; list_reverse_sort is
// bound to it with 'DESC'.
func fnListSort(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	desc, nullsFirst, err := sortOrder(a[1:])
	if err != nil {
		return columnar.Value{}, err
	}
	out := slices.Clone(a[0].Elems)
	slices.SortStableFunc(out, func(x, y columnar.Value) int { return orderCompare(x, y, desc, nullsFirst) })
	return columnar.Value{Type: t, Elems: out}, nil
}

// sortOrder reads list_sort's optional order ('ASC', 'DESC') and null
// order ('NULLS FIRST', 'NULLS LAST') arguments: ascending, NULLs last by
// default.
func sortOrder(a []columnar.Value) (desc, nullsFirst bool, err error) {
	if len(a) > 0 {
		switch strings.ToUpper(strings.TrimSpace(a[0].S)) {
		case "ASC":
		case "DESC":
			desc = true
		default:
			return false, false, errorf("list_sort: sort order must be ASC or DESC, got %q", a[0].S)
		}
	}
	if len(a) > 1 {
		switch strings.ToUpper(strings.Join(strings.Fields(a[1].S), " ")) {
		case "NULLS FIRST":
			nullsFirst = true
		case "NULLS LAST":
		default:
			return false, false, errorf("list_sort: null order must be NULLS FIRST or NULLS LAST, got %q", a[1].S)
		}
	}
	return desc, nullsFirst, nil
}

// fnListDistinct: the distinct non-NULL elements, in first-seen order.
func fnListDistinct(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	var out []columnar.Value
	for _, e := range a[0].Elems {
		if e.Null || slices.ContainsFunc(out, func(o columnar.Value) bool { return columnar.Compare(o, e) == 0 }) {
			continue
		}
		out = append(out, e)
	}
	return columnar.Value{Type: t, Elems: out}, nil
}

// fnListSlice: elements begin..end (1-based, inclusive; negative from the
// end; clamped to the list), every step-th (from end down to begin when
// step is negative), as DuckDB's list_slice; on a string, its characters.
func fnListSlice(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	var runes []rune
	n := int64(len(a[0].Elems))
	if t.ID == columnar.Varchar {
		runes = []rune(a[0].S)
		n = int64(len(runes))
	}
	begin, end, step := a[1].I, a[2].I, int64(1)
	if len(a) > 3 {
		if step = a[3].I; step == 0 {
			return columnar.Value{}, errors.New("slice step cannot be zero")
		}
		if t.ID == columnar.Varchar { // even a step of 1, as DuckDB
			return columnar.Value{}, errors.New("slice with steps has not been implemented for string types")
		}
	}
	if begin < 0 {
		begin = n + begin + 1
	}
	if end < 0 {
		end = n + end + 1
	}
	if step < 0 {
		begin, end = end, begin
	}
	begin = max(begin, 1)
	end = min(end, n)
	if t.ID == columnar.Varchar {
		if begin > end {
			return columnar.StringValue(""), nil
		}
		return columnar.StringValue(string(runes[begin-1 : end])), nil
	}
	out := []columnar.Value{}
	switch {
	case begin > end:
	case step > 0:
		for i := begin; i <= end; i += step {
			out = append(out, a[0].Elems[i-1])
		}
	default:
		for i := end; i >= begin; i += step {
			out = append(out, a[0].Elems[i-1])
		}
	}
	return columnar.Value{Type: t, Elems: out}, nil
}

// fnListAgg: an aggregate over a list's non-NULL elements (NULL for none,
// count 0).
func fnListAgg(agg string) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		var vals []columnar.Value
		for _, e := range a[0].Elems {
			if !e.Null {
				vals = append(vals, e)
			}
		}
		if agg == "count" {
			return columnar.IntValue(t, int64(len(vals))), nil
		}
		if len(vals) == 0 {
			return columnar.NullValue(t), nil
		}
		switch agg {
		case "min", "max":
			best := vals[0]
			for _, v := range vals[1:] {
				if c := columnar.Compare(v, best); agg == "min" && c < 0 || agg == "max" && c > 0 {
					best = v
				}
			}
			return best, nil
		}
		if e := vals[0].Type; exactListSum(e) {
			return listExactAgg(agg, vals, t)
		}
		s := 0.0
		for _, v := range vals {
			s += v.AsFloat()
		}
		if agg == "avg" {
			s /= float64(len(vals))
		}
		return columnar.FloatValue(t, s), nil
	}
}

// exactListSum reports whether list_sum and list_avg of elements of type e
// add exactly in 128 bits, as DuckDB's sum and avg states do: integers and
// DECIMALs (not UHUGEINT, which DuckDB sums as DOUBLE).
func exactListSum(e columnar.Type) bool {
	return e.IsInteger() || e.ID == columnar.Decimal || e.ID == columnar.Decimal128 || e.ID == columnar.Hugeint
}

// listExactAgg is list_sum (HUGEINT or DECIMAL(38,s)) or list_avg (the
// exact sum divided as DuckDB's avg divides, columnar.AvgFloat) of
// non-NULL integer or DECIMAL elements.
func listExactAgg(agg string, vals []columnar.Value, t columnar.Type) (columnar.Value, error) {
	e := vals[0].Type
	var sum columnar.Int128
	for _, v := range vals {
		var x columnar.Int128
		switch {
		case e.Wide():
			x = v.Wide128()
		case e.ID == columnar.Uint64:
			x = columnar.Uint128Of(uint64(v.I))
		default:
			x = columnar.Int128Of(v.I)
		}
		var ok bool
		if sum, ok = sum.Add(x); !ok {
			return columnar.Value{}, errorf("%s: overflow in SUM of %s", "list_"+agg, e)
		}
	}
	if agg == "avg" {
		return columnar.FloatValue(t, columnar.AvgFloat(sum, int64(len(vals)), int(e.Scale), columnar.AvgNarrow(e))), nil
	}
	return columnar.WideValue(t, sum), nil
}

// fnListHas: whether the first list holds any (all) of the second's
// non-NULL elements.
func fnListHas(all bool) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		has := func(x columnar.Value) bool {
			return slices.ContainsFunc(a[0].Elems, func(e columnar.Value) bool { return elemEqual(e, x, false) })
		}
		for _, x := range a[1].Elems {
			if x.Null {
				continue
			}
			if h := has(x); h != all {
				return columnar.BoolValue(h), nil
			}
		}
		return columnar.BoolValue(all), nil
	}
}

// fnFlatten: a list of lists as one list (NULL inner lists skipped).
func fnFlatten(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	out := []columnar.Value{}
	for _, l := range a[0].Elems {
		out = append(out, l.Elems...)
	}
	return columnar.Value{Type: t, Elems: out}, nil
}

// fnStringSplit: the parts between separators (an empty separator splits
// into characters).
// splitNulls: a NULL string splits to NULL, a NULL separator leaves the
// string whole ([s]), as DuckDB's string_split and regexp_split_to_array.
func splitNulls(a []columnar.Value, t columnar.Type) (columnar.Value, bool) {
	switch {
	case a[0].Null:
		return columnar.NullValue(t), true
	case a[1].Null:
		return stringList(t, []string{a[0].S}), true
	}
	return columnar.Value{}, false
}

func fnStringSplit(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if v, done := splitNulls(a, t); done {
		return v, nil
	}
	var parts []string
	if a[1].S == "" {
		for _, r := range a[0].S {
			parts = append(parts, string(r))
		}
	} else {
		parts = strings.Split(a[0].S, a[1].S)
	}
	return stringList(t, parts), nil
}

func fnRegexpSplit(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if v, done := splitNulls(a, t); done {
		return v, nil
	}
	re, err := regexp.Compile(a[1].S)
	if err != nil {
		return columnar.Value{}, errorf("regexp_split_to_array: %v", err)
	}
	return stringList(t, regexpSplit(re, a[0].S)), nil
}

// regexpSplit splits s at the matches of re as DuckDB does: an empty
// match ends a piece after one more character, so ” splits into
// characters and ',?' splits 'a,b' into a, ”, b.
func regexpSplit(re *regexp.Regexp, s string) []string {
	var out []string
	afterEmpty := false // the last piece ended at an empty match
	for p := 0; ; {
		m := re.FindStringIndex(s[p:])
		if m == nil {
			out = append(out, s[p:])
			break
		}
		lo, hi := p+m[0], p+m[1]
		if lo == hi {
			if lo >= len(s) {
				if p < len(s) || !afterEmpty && len(out) > 0 {
					out = append(out, s[p:])
				}
				break
			}
			_, w := utf8.DecodeRuneInString(s[lo:])
			out = append(out, s[p:lo+w])
			p, afterEmpty = lo+w, true
			continue
		}
		out = append(out, s[p:lo])
		p, afterEmpty = hi, false
	}
	if len(out) == 0 {
		out = append(out, "")
	}
	return out
}

func stringList(t columnar.Type, parts []string) columnar.Value {
	out := make([]columnar.Value, len(parts))
	for i, p := range parts {
		out[i] = columnar.StringValue(p)
	}
	return columnar.Value{Type: t, Elems: out}
}

// maxListRange bounds the lists range() builds, as memory must.
const maxListRange = 1 << 27

// fnListRange: range(stop), range(start, stop[, step]) as a list (stop
// excluded; generate_series includes it).
func fnListRange(inclusive bool) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		start, stop, step := int64(0), a[0].I, int64(1)
		if len(a) > 1 {
			start, stop = a[0].I, a[1].I
		}
		if len(a) > 2 {
			step = a[2].I
		}
		out := []columnar.Value{}
		if step == 0 { // DuckDB: an empty list, not an error
			return columnar.Value{Type: t, Elems: out}, nil
		}
		for x := start; step > 0 && (x < stop || inclusive && x == stop) || step < 0 && (x > stop || inclusive && x == stop); x += step {
			if len(out) == maxListRange {
				return columnar.Value{}, errorf("range: more than %d elements", maxListRange)
			}
			out = append(out, columnar.IntValue(columnar.TInt64, x))
			if step > 0 && x > math.MaxInt64-step || step < 0 && x < math.MinInt64-step {
				break
			}
		}
		return columnar.Value{Type: t, Elems: out}, nil
	}
}

// fnListRangeTS is range/generate_series(start, end, step) over
// TIMESTAMPs (DATE bounds read as midnight): the list of the rows the
// table function gives (Series: each step adds its months, clamped, then
// its days and microseconds); a zero step is an empty list, as for
// integers.
func fnListRangeTS(inclusive bool) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		var bound [2]int64
		for i := range bound {
			bound[i] = a[i].I
			if a[i].Type.ID == columnar.Date {
				us, ok := columnar.DateToTimestampChecked(a[i].I)
				if !ok {
					return columnar.Value{}, errorf("range: date %s out of the TIMESTAMP range", a[i])
				}
				bound[i] = us
			}
		}
		step := a[2].Interval()
		s := Series{Start: bound[0], Stop: bound[1], Months: int64(step.Months), Step: int64(step.Days)*columnar.MicrosPerDay + step.Micros, Inclusive: inclusive}
		out := []columnar.Value{}
		if s.Months == 0 && s.Step == 0 {
			return columnar.Value{Type: t, Elems: out}, nil
		}
		for v, ok := s.Start, true; ok && s.inside(v); v, ok = s.next(v) {
			if len(out) == maxListRange {
				return columnar.Value{}, errorf("range: more than %d elements", maxListRange)
			}
			out = append(out, columnar.IntValue(columnar.TTimestamp, v))
		}
		return columnar.Value{Type: t, Elems: out}, nil
	}
}
