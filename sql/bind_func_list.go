package sql

import (
	"fmt"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// callFunc binds a call of the registered scalar function fn, typed by
// its rules (bind_func_call.go): the binder's own calls of list_value
// ([a, b]) and list_concat (l1 || l2).
func (b *binder) callFunc(fn string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	s, ok := function.Lookup(fn)
	if !ok {
		return nil, fmt.Errorf("internal error: %s is not registered", fn)
	}
	return b.callRegistered(s, fn, xs, srcs, at, c)
}

// The functions over LIST, STRUCT and MAP values that the registry's
// rules do not type yet (executor/func_list.go marks the others ruled):
// len/length of a list (the names are the string functions'; the
// registry picks overloads by argument count, not type), struct_extract
// (its result is the field a constant names), list_sort and
// list_reverse_sort (their defaults are the session's default_order and
// default_null_order) and list_aggregate (it binds the aggregate a
// constant names). Binding works on bound arguments only.

// listFuncAliases maps each name a user writes to the function it binds.
var listFuncAliases = map[string]string{
	"len": "len", "length": "len",
	"struct_extract": "struct_extract",
	"list_sort":      "list_sort", "array_sort": "list_sort", "list_reverse_sort": "list_reverse_sort", "array_reverse_sort": "list_reverse_sort",
	"list_aggregate": "list_aggregate", "array_aggregate": "list_aggregate", "list_aggr": "list_aggregate", "array_aggr": "list_aggregate",
}

// bindListFunc binds a nested-value function; ok is false for other names
// and for len/length of a string (the string function's).
func (b *binder) bindListFunc(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	fn, ok := listFuncAliases[name]
	if !ok {
		return nil, false, nil
	}
	n := len(xs)
	// [] (elements of type NULL) is an INTEGER[] to these functions.
	for i, x := range xs {
		if t := x.Type(); t.ID == columnar.List && t.Elem().ID == columnar.Null {
			xs = append([]planner.Expr(nil), xs...)
			y, err := b.coerce(x, columnar.ListOf(columnar.TInt32), srcs[i], c)
			if err != nil {
				return nil, true, err
			}
			xs[i] = y
		}
	}
	typeOf := func(i int) columnar.Type { return xs[i].Type() }
	isList := func(i int) bool { return i < n && typeOf(i).ID == columnar.List }
	if fn == "len" && !isList(0) {
		return nil, false, nil // len and length of a string
	}
	// A NULL of no type where the list or struct goes gives a NULL of
	// type NULL, as in DuckDB (list_sort(NULL), struct_extract(NULL, 'a')).
	nullOf := func() (planner.Expr, bool, error) {
		return &planner.Const{Val: columnar.NullValue(columnar.TNull)}, true, nil
	}
	switch fn {
	case "list_aggregate", "list_sort", "list_reverse_sort", "struct_extract":
		if n >= 1 && typeOf(0).ID == columnar.Null {
			return nullOf()
		}
	}
	call := func(fn string, t columnar.Type, args ...planner.Expr) (planner.Expr, bool, error) {
		return &planner.Call{Fn: fn, Args: args, T: t}, true, nil
	}
	fail := func(i int, format string, args ...any) (planner.Expr, bool, error) {
		if i < len(srcs) {
			return nil, true, b.typeErr(srcs[i], c, format, args...)
		}
		return nil, true, b.errAt(at, ErrType, fmt.Sprintf(format, args...))
	}
	arity := func(want ...int) error {
		for _, w := range want {
			if n == w {
				return nil
			}
		}
		s := make([]string, len(want))
		for i, w := range want {
			s[i] = fmt.Sprint(w)
		}
		return b.arity(at, name, strings.Join(s, " or "))
	}
	// list(i) checks that argument i is a LIST (a NULL literal is taken as
	// a NULL list of elem).
	list := func(i int, elem columnar.Type) (planner.Expr, error) {
		if typeOf(i).ID == columnar.Null {
			return b.coerce(xs[i], columnar.ListOf(elem), srcs[i], c)
		}
		if !isList(i) {
			return nil, b.typeErr(srcs[i], c, "%s expects a list, got %s", name, typeOf(i))
		}
		return xs[i], nil
	}
	to := func(i int, t columnar.Type) (planner.Expr, error) { return b.coerce(xs[i], t, srcs[i], c) }
	str := func(i int) (planner.Expr, error) {
		if t := typeOf(i); t.ID != columnar.Varchar && t.ID != columnar.Null {
			return nil, b.typeErr(srcs[i], c, "%s expects VARCHAR, got %s", name, t)
		}
		return to(i, columnar.TVarchar)
	}
	switch fn {
	case "len":
		if err := arity(1); err != nil {
			return nil, true, err
		}
		return call("list_len", columnar.TInt64, xs[0])
	case "struct_extract":
		if err := arity(2); err != nil {
			return nil, true, err
		}
		t := typeOf(0)
		if t.ID != columnar.Struct {
			return fail(0, "%s expects a struct, got %s", name, t)
		}
		k, ok := xs[1].(*planner.Const)
		if !ok || k.Val.Null {
			return fail(1, "%s expects a constant field name or index", name)
		}
		f := -1
		if k.Val.Type.ID == columnar.Varchar {
			for i, fd := range t.Fields() {
				if strings.EqualFold(fd.Name, k.Val.S) {
					f = i
					break
				}
			}
			if f < 0 {
				return fail(1, "struct has no field %q", k.Val.S)
			}
		} else if k.Val.Type.IsInteger() { // every struct b2sql makes has names
			return fail(1, "struct_extract with an integer key can only be used on unnamed structs, use a string key instead")
		} else {
			return fail(1, "%s expects a field name or index, got %s", name, k.Val.Type)
		}
		return call(fn, t.Fields()[f].Type, xs[0], &planner.Const{Val: columnar.IntValue(columnar.TInt64, int64(f))})
	case "list_sort", "list_reverse_sort":
		max := 3
		if fn == "list_reverse_sort" {
			max = 2
		}
		if n < 1 || n > max {
			return nil, true, b.arity(at, name, fmt.Sprintf("1 to %d", max))
		}
		l, err := list(0, columnar.TInt32)
		if err != nil {
			return nil, true, err
		}
		args := []planner.Expr{l}
		for i := 1; i < n; i++ {
			s, err := str(i)
			if err != nil {
				return nil, true, err
			}
			args = append(args, s)
		}
		// What the call leaves out is the session's default_order (the
		// opposite for list_reverse_sort) and default_null_order, as DuckDB.
		o := &ast.OrderItem{}
		switch {
		case fn == "list_reverse_sort":
			desc, _ := b.sortOrder(o)
			o.Desc, o.Asc = !desc, desc
			args = slices.Insert(args, 1, nil)
		case len(args) > 1:
			if c, ok := args[1].(*planner.Const); ok {
				o.Desc, _ = ParseOrder(c.Val.S)
				o.Asc = !o.Desc
			}
		default:
			args = append(args, nil)
		}
		desc, nullsFirst := b.sortOrder(o)
		if args[1] == nil {
			dir := "ASC"
			if desc {
				dir = "DESC"
			}
			args[1] = &planner.Const{Val: columnar.StringValue(dir)}
		}
		if len(args) == 2 && nullsFirst {
			args = append(args, &planner.Const{Val: columnar.StringValue("NULLS FIRST")})
		}
		return call("list_sort", l.Type(), args...)
	case "list_aggregate":
		if n != 2 && n != 3 {
			return nil, true, arity(2, 3)
		}
		k, ok := planner.FoldExpr(xs[1]).(*planner.Const)
		if !ok || k.Val.Type.ID != columnar.Varchar {
			return fail(1, "%s expects a constant aggregate name", name)
		}
		agg := strings.ToLower(k.Val.S)
		if a, ok := listAggAliases[agg]; ok {
			agg = a
		}
		switch agg {
		case "sum", "min", "max", "avg", "count":
			// The list aggregates of the registry (list_sum, …), typed
			// by their rules.
			if n != 2 {
				return nil, true, arity(2)
			}
			s, _ := function.Lookup("list_" + agg)
			x, err := b.callRegistered(s, name, xs[:1], srcs[:1], at, c) // bind_func_call.go
			return x, true, err
		case "first", "last", "any_value", "string_agg", "bool_and", "bool_or", "product", "median", "mode":
			return b.bindListAggOther(agg, name, xs, srcs, c)
		}
		return fail(1, "list_aggregate: unknown aggregate %q", k.Val.S)
	}
	return nil, false, nil
}

// listAggAliases are other names of the aggregates list_aggregate runs.
var listAggAliases = map[string]string{
	"mean": "avg", "arbitrary": "first", "group_concat": "string_agg", "listagg": "string_agg",
	"bool_and": "bool_and", "bool_or": "bool_or",
}

// bindListAggOther types list_aggregate(l, agg[, sep]) for the
// aggregates of executor/call_list_aggs.go.
func (b *binder) bindListAggOther(agg, name string, xs []planner.Expr, srcs []callexpr.Expr, c ectx) (planner.Expr, bool, error) {
	l := xs[0]
	t := l.Type()
	if t.ID != columnar.List {
		return nil, true, b.typeErr(srcs[0], c, "%s expects a list, got %s", name, t)
	}
	e := t.Elem()
	args := []planner.Expr{l}
	ret := e
	switch agg {
	case "string_agg":
		if e.ID != columnar.Varchar {
			// The elements as text, as DuckDB's string_agg casts them.
			x, err := b.coerce(l, columnar.ListOf(columnar.TVarchar), srcs[0], c)
			if err != nil {
				return nil, true, err
			}
			args[0], ret = x, columnar.TVarchar
		}
		if len(xs) == 3 {
			sep, err := b.coerce(xs[2], columnar.TVarchar, srcs[2], c)
			if err != nil {
				return nil, true, err
			}
			args = append(args, sep)
		}
	case "bool_and", "bool_or":
		if e.ID != columnar.Bool {
			return nil, true, b.typeErr(srcs[0], c, "%s: %s expects a list of booleans, got %s", name, agg, t)
		}
	case "product", "median":
		if !e.IsNumeric() {
			return nil, true, b.typeErr(srcs[0], c, "%s: %s expects a list of numbers, got %s", name, agg, t)
		}
		ret = columnar.TFloat64
	}
	if len(xs) == 3 && agg != "string_agg" {
		return nil, true, b.arity(b.leafTok(srcs[0], c.sp), name, "2")
	}
	return &planner.Call{Fn: "list_" + agg, Args: args, T: ret}, true, nil
}
