package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The functions over LIST, STRUCT and MAP values, under DuckDB's names and
// aliases, with their kernels (call_list.go, call_list_rows.go), typed by
// their argument rules (function.List, Element, Map, MapKey, Struct, …)
// and result derivation. len and length of a list are the string
// function's names with a list overload (func_string.go); list_sort and
// list_reverse_sort take the session's defaults for what the call leaves
// out and both run list_sort; list_aggregate(l, name) is the list form
// list_<name> of the aggregate: the Internal sets at the end are those
// not listed on their own. struct_extract, map_keys, map_values and the
// lambda functions are special forms of NewCall: they read their
// argument's children instead of computing over its rows.
func init() {
	// The functions typed by the registry's rules take these.
	ll, le := param{"list", function.List}, param{"element", function.Element}
	m, mk := param{"map", function.Map}, param{"key", function.MapKey}
	nums := param{"list", function.AggNumbers}
	any, v, i64, b := columnar.TNull, columnar.TVarchar, columnar.TInt64, columnar.TBool
	// kernel is the Factory of a call named name: a kernel of call_list.go,
	// or a function of listRowFuncs (strict or seeing NULLs).
	kernel := func(name string) (function.Factory, bool) {
		switch name {
		case "array_length":
			return stateless(listLenKernel), false
		case "cardinality":
			return stateless(cardinalityKernel), false
		case "list_contains":
			return byType(func(t columnar.Type) kernel { return listContainsKernel(t.Elem()) }), false
		case "list_extract":
			// l[i] of a list, or the i-th character of a string.
			return func(ts []columnar.Type, _ []*columnar.Value, ret columnar.Type) (function.Kernel, error) {
				if ts[0].ID == columnar.Varchar {
					return function.Kernel(rowKernel(fnStringIndex, ret, true)), nil
				}
				return function.Kernel(listExtractKernel), nil
			}, false
		case "list_value":
			return stateless(listValueKernel), true
		case "struct_pack":
			return stateless(structPackKernel), true
		}
		if f, ok := listRowFuncs[name]; ok {
			if f.strict {
				return rows(f.f), false
			}
			return rowsNulls(f.f), true
		}
		return nil, false
	}
	// overloads are the overloads of a set: one taking the params, one more
	// for each of the optional ones after them.
	overloads := func(name string, ret columnar.Type, ps []param, optional ...param) []function.Overload {
		k, nulls := kernel(name)
		var os []function.Overload
		for i := 0; i <= len(optional); i++ {
			o := over(ret, k, append(append([]param(nil), ps...), optional[:i]...)...)
			o.SeesNulls = nulls
			if ret.ID == columnar.Null {
				o.SameAs = 1
			}
			os = append(os, o)
		}
		return os
	}
	list := func(name, desc, example string, ret columnar.Type, ps ...param) *function.Set {
		return customBind(scalar("list", name, desc, ex(example), overloads(name, ret, ps)...))
	}
	// listOpt is list with optional trailing parameters.
	listOpt := func(name, desc, example string, ret columnar.Type, ps, optional []param) *function.Set {
		return customBind(scalar("list", name, desc, ex(example), overloads(name, ret, ps, optional...)...))
	}
	variadic := func(s *function.Set) *function.Set { s.Overloads[0].Variadic = true; return s }
	// prepend types the result by the second argument, the list.
	prepend := func(s *function.Set) *function.Set { s.Overloads[0].SameAs = 2; return s }
	// ruled makes s a set the binder types by its rules alone, its result
	// derived from its first argument's type by d (when its ret is any).
	ruled := func(s *function.Set, d function.Derive) *function.Set {
		s.CustomBind = false
		for i := range s.Overloads {
			s.Overloads[i].Derive = d
		}
		return s
	}
	// emptyToo adds the overload without arguments: [] has NULL elements
	// until it meets a typed list.
	emptyToo := func(s *function.Set) *function.Set {
		o := s.Overloads[0]
		o.Params, o.Args, o.Variadic, o.SameAs, o.Returns = nil, nil, false, 0, columnar.ListOf(columnar.TNull)
		s.Overloads = append(s.Overloads, o)
		return s
	}
	// internalList is a call the binder makes itself, with any arguments.
	internalList := func(name, desc string) *function.Set {
		k, nulls := kernel(name)
		return internal(scalar("list", name, desc, nil, function.Overload{Args: []function.Arg{function.Any}, Variadic: true, Kernel: k, SeesNulls: nulls}))
	}
	function.Register(
		ruled(list("array_length", "The number of elements of a list (len and length of a list)", "array_length([1, 2, 3])", i64, ll), function.AsIs),
		ruled(list("cardinality", "The number of entries of a map", "cardinality(MAP {'a': 1})", columnar.TUint64, m), function.AsIs),
		aka(ruled(list("list_contains", "Whether the list holds the element (NULL elements never match)", "list_contains([1, 2], 2)", b, ll, le), function.AsIs), "list_has", "array_contains", "array_has"),
		aka(ruled(list("list_position", "The 1-based position of the element in the list, NULL if absent", "list_position([1, 2], 2)", columnar.TInt32, ll, le), function.AsIs), "list_indexof", "array_position", "array_indexof"),
		aka(ruled(list("list_extract", "The element at a 1-based index (negative from the end), NULL out of range; of a string, the character", "list_extract([1, 2, 3], 2)", any,
			param{"list", function.ListOrString}, param{"index", function.BigInt}), function.Elem), "list_element", "array_extract"),
		aka(emptyToo(variadic(ruled(list("list_value", "A list of the arguments", "list_value(1, 2)", any, param{"element", function.Unified}), function.ListOf))), "list_pack"),
		scalar("list", "struct_extract", "The field of a struct, by name (or 1-based index, of an unnamed struct)", ex("struct_extract({'a': 1}, 'a')"),
			function.Overload{Params: []string{"struct", "entry"}, Args: []function.Arg{function.Struct, function.FieldName}, SameAs: 1, Derive: function.Field},
			function.Overload{Params: []string{"struct", "entry"}, Args: []function.Arg{function.Struct, function.FieldIndex}, SameAs: 1, Derive: function.Field}),
		ruled(list("map_from_entries", "The map of a list of key-value structs (keys unique, not NULL)", "map_from_entries([{'k': 'a', 'v': 1}])", any,
			param{"entries", function.Entries}), function.FromEntries),
		ruled(list("map_keys", "The keys of a map, as a list", "map_keys(MAP {'a': 1})", any, m), function.Keys),
		ruled(list("map_values", "The values of a map, as a list", "map_values(MAP {'a': 1})", any, m), function.Values),
		ruled(list("map_entries", "The entries of a map, as a list of {'key': k, 'value': v} structs", "map_entries(MAP {'a': 1})", any, m), function.EntryList),
		aka(ruled(list("map_extract", "The values of a map under a key, as a list", "map_extract(MAP {'a': 1}, 'a')", any, m, mk), function.Values), "element_at"),
		ruled(list("map_extract_value", "The value of a map under a key, NULL if absent", "map_extract_value(MAP {'a': 1}, 'a')", any, m, mk), function.Value),
		aka(variadic(ruled(list("list_concat", "The lists one after the other (a NULL list counts as empty)", "list_concat([1], [2, 3])", any, param{"list", function.UnifiedList}), function.AsIs)), "list_cat", "array_concat", "array_cat"),
		aka(ruled(list("list_reverse", "The list in reverse order", "list_reverse([1, 2, 3])", any, ll), function.AsIs), "array_reverse"),
		aka(sorts("list_sort", "The list sorted (ASC or DESC, NULLS FIRST or LAST; by default the session's default_order and default_null_order)", "list_sort([3, 1, 2])",
			[]param{ll}, []param{{"order", function.Varchar}, {"nulls", function.Varchar}},
			[]function.Default{{At: 1, Value: function.SortOrder}, {At: 2, Value: function.NullOrder}}), "array_sort"),
		aka(sorts("list_reverse_sort", "The list sorted in the order opposite to the session's default_order", "list_reverse_sort([3, 1, 2])",
			[]param{ll}, []param{{"nulls", function.Varchar}},
			[]function.Default{{At: 1, Value: function.ReverseSortOrder}, {At: 2, Value: function.NullOrder}}), "array_reverse_sort"),
		aka(ruled(list("list_distinct", "The distinct non-NULL elements of the list", "list_distinct([1, 1, 2])", any, ll), function.AsIs), "array_distinct"),
		aka(ruled(listOpt("list_slice", "The elements from begin to end (1-based, inclusive), every step-th", "list_slice([1, 2, 3, 4, 5], 2, 5, 2)", any,
			[]param{{"list", function.ListOrString}, {"begin", function.BigInt}, {"end", function.BigInt}}, []param{{"step", function.BigInt}}), function.AsIs), "array_slice"),
		ruled(list("list_sum", "The sum of the list's elements", "list_sum([1, 2, 3])", any, nums), function.Sum),
		ruled(list("list_min", "The smallest element of the list", "list_min([1, 2, 3])", any, ll), function.Elem),
		ruled(list("list_max", "The largest element of the list", "list_max([1, 2, 3])", any, ll), function.Elem),
		ruled(list("list_avg", "The average of the list's elements", "list_avg([1, 2, 3])", columnar.TFloat64, nums), function.AsIs),
		ruled(list("list_count", "The number of non-NULL elements of the list", "list_count([1, NULL, 3])", i64, param{"list", function.AggList}), function.AsIs),
		aka(scalar("list", "list_aggregate", "The named aggregate over the list's elements (list_<name> of the aggregate's name)", ex("list_aggregate([1, 2, 3], 'max')", "list_aggregate(['a', 'b'], 'string_agg', '-')"),
			function.Overload{Params: []string{"list", "name"}, Args: []function.Arg{function.List, function.AggName}},
			function.Overload{Params: []string{"list", "name", "argument"}, Args: []function.Arg{function.List, function.AggName, function.Any}, Variadic: true}),
			"array_aggregate", "list_aggr", "array_aggr", "aggregate"),
		aka(ruled(list("list_has_any", "Whether the lists share an element", "list_has_any([1, 2], [2, 3])", b, ll, param{"list2", function.SameList}), function.AsIs), "array_has_any"),
		aka(ruled(list("list_has_all", "Whether the list holds every element of list2", "list_has_all([1, 2], [2])", b, ll, param{"list2", function.SameList}), function.AsIs), "array_has_all"),
		ruled(list("flatten", "The lists of a list of lists, concatenated", "flatten([[1], [2, 3]])", any, param{"lists", function.Lists}), function.Elem),
		aka(ruled(list("string_split", "The parts of the string between the separators", "string_split('a,b', ',')", columnar.ListOf(v),
			param{"string", function.Varchar}, param{"separator", function.Varchar}), function.AsIs), "str_split", "string_to_array", "split"),
		aka(ruled(list("regexp_split_to_array", "The parts of the string between the matches of the regular expression", "regexp_split_to_array('a1b2c', '[0-9]')", columnar.ListOf(v),
			param{"string", function.Varchar}, param{"regex", function.Varchar}), function.AsIs), "string_split_regex", "str_split_regex"),
		aka(ruled(series("list_range", "The list of BIGINTs from start up to end (exclusive) by step", "range(3)"), function.AsIs), "range"),
		aka(ruled(series("list_generate_series", "The list of BIGINTs from start through end (inclusive) by step", "generate_series(3)"), function.AsIs), "generate_series"),
		aka(ruled(list("list_append", "The list with the element added at its end (a NULL list as empty)", "list_append([1, 2], 3)", any, ll, le), function.AsIs), "array_append", "array_push_back"),
		aka(prepend(ruled(list("list_prepend", "The list with the element added at its start (a NULL list as empty)", "list_prepend(0, [1, 2])", any, le, ll), function.AsIs)), "array_prepend"),
		ruled(list("array_push_front", "The list with the element added at its start (list_prepend with the list first)", "array_push_front([1, 2], 0)", any, ll, le), function.AsIs),
		aka(ruled(list("list_intersect", "The distinct non-NULL elements of the first list that the second holds", "list_intersect([1, 2, 3], [2, 3, 4])", any, ll, param{"list2", function.SameList}), function.AsIs), "array_intersect"),
		ruled(list("array_to_string", "The text of the list's non-NULL elements, joined by the separator", "array_to_string([1, 2, 3], '-')", v, ll, param{"separator", function.Str}), function.AsIs),
		ruled(list("list_select", "The elements at the 1-based indexes, NULL for one out of range", "list_select([10, 20, 30], [3, 1])", any, ll, param{"indexes", function.List}), function.AsIs),
		ruled(list("list_where", "The elements whose entry in the boolean mask is true", "list_where([1, 2, 3], [true, false, true])", any, ll, param{"mask", function.List}), function.AsIs),
		aka(ruled(listOpt("list_resize", "The list cut or padded to size elements with value (NULL by default)", "list_resize([1, 2], 4, 0)", any,
			[]param{ll, {"size", function.BigInt}}, []param{{"value", function.Element}}), function.AsIs), "array_resize"),
		ruled(list("map_contains", "Whether the map has the key", "map_contains(MAP {'a': 1}, 'a')", b, m, mk), function.AsIs),
		aka(ruled(list("list_unique", "The number of distinct non-NULL elements of the list", "list_unique([1, 1, 2, NULL])", columnar.TUint64, ll), function.AsIs), "array_unique"),
		aka(ruled(listOpt("list_grade_up", "The 1-based positions of the elements in sorted order (ASC or DESC, NULLS FIRST or LAST)", "list_grade_up([30, 10, 20])",
			columnar.ListOf(i64), []param{ll}, []param{{"order", function.Str}, {"nulls", function.Str}}), function.AsIs), "array_grade_up"),
		ruled(list("list_first", "The first element of the list, NULL when empty", "list_first([3, 4])", any, ll), function.Elem),
		ruled(list("list_last", "The last element of the list, NULL when empty", "list_last([3, 4])", any, ll), function.Elem),
		ruled(list("list_any_value", "The first non-NULL element of the list", "list_any_value([NULL, 2])", any, ll), function.Elem),
		ruled(list("list_mode", "The most frequent non-NULL element of the list (the first seen on a tie)", "list_mode([1, 2, 2])", any, ll), function.Elem),
		internalList("struct_pack", "a struct of the arguments ({'k': v})"),
		internalList("map_from_lists", "a map of a list of keys and a list of values (MAP {k: v})"),
		internalList("list_concat_op", "l1 || l2: NULL when either is"),
		internalList("sorted_list", "the values of list(x ORDER BY …) in order"),
		internalList("sorted_string_agg", "string_agg(x, sep ORDER BY …) of the sorted values"),
		internalList("filter_box", "[x] where the condition is TRUE, else NULL (a window list's FILTER)"),
		internalList("list_unbox", "the elements of a list of boxes, NULL for none (a window list's FILTER)"),
	)
	// The other aggregates list_aggregate runs (list_first, list_last,
	// list_any_value and list_mode are above), public as in DuckDB 1.5.6.
	listAgg := func(agg, desc, example string, ret columnar.Type, d function.Derive, ps ...param) *function.Set {
		return ruled(list("list_"+agg, desc, example, ret, ps...), d)
	}
	function.Register(
		listAgg("string_agg", "list_aggregate(l, 'string_agg'[, sep]): the elements as text, joined", "list_string_agg(['a', 'b'], '-')", v, function.AsIs, param{"list", function.Texts}),
		listAgg("bool_and", "list_aggregate(l, 'bool_and'): whether every element is true", "list_bool_and([true, false])", b, function.AsIs, param{"list", function.Bools}),
		listAgg("bool_or", "list_aggregate(l, 'bool_or'): whether any element is true", "list_bool_or([true, false])", b, function.AsIs, param{"list", function.Bools}),
		listAgg("product", "list_aggregate(l, 'product'): the product of the elements", "list_product([2, 3])", columnar.TFloat64, function.AsIs, nums),
		listAgg("median", "list_aggregate(l, 'median'): the middle element (the mean of the two middle ones)", "list_median([1, 2, 4])", columnar.TFloat64, function.AsIs, nums),
	)
	sa, _ := function.Lookup("list_string_agg")
	sep := over(v, sa.Overloads[0].Kernel, param{"list", function.Texts}, param{"separator", function.Varchar})
	sep.SameAs = 0
	sa.Overloads = append(sa.Overloads, sep)
}

// sorts is list_sort or list_reverse_sort: an overload for each number of
// optional parameters given, the others the session's defaults (ds, in
// order), each running list_sort(list, order, nulls).
func sorts(name, desc, example string, ps, optional []param, ds []function.Default) *function.Set {
	k := rows(listRowFuncs["list_sort"].f)
	s := scalar("list", name, desc, ex(example))
	for i := 0; i <= len(optional); i++ {
		o := over(columnar.TNull, k, append(append([]param(nil), ps...), optional[:i]...)...)
		o.SameAs, o.Returns = 1, columnar.Type{}
		if name == "list_reverse_sort" {
			o.Defaults = ds[:len(ds)-i]
		} else {
			o.Defaults = ds[i:]
		}
		o.Calls = "list_sort"
		s.Overloads = append(s.Overloads, o)
	}
	return s
}

// series is range or generate_series of a list: end, start and end, or
// start, end and step.
func series(name, desc, example string) *function.Set {
	k := rows(listRowFuncs[name].f)
	big := func(n string) param { return param{n, function.Integer} }
	ret := columnar.ListOf(columnar.TInt64)
	ts := func(n string) param { return param{n, function.Temporal} }
	tsk := rows(fnListRangeTS(name == "list_generate_series"))
	return customBind(scalar("list", name, desc, ex(example),
		over(ret, k, big("end")), over(ret, k, big("start"), big("end")),
		over(columnar.ListOf(columnar.TTimestamp), tsk, ts("start"), ts("end"), param{"step", function.Interval}),
		over(ret, k, big("start"), big("end"), big("step"))))
}
