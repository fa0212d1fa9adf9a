package sql

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// knownFuncs are the names an unknown function's "did you mean" hint
// picks from: every name of the registry (package function), which
// TestFunctionNamesRegistered keeps a superset of the names the binder
// dispatches on.
func knownFuncs() []string { return function.Names() }

// callRules types a call by the registry's argument rules: the fallback
// of the hooks (bind_func_hooks.go). name is the function as written, or
// the one a hook rewrote the call to (locate is instr); a strptime format
// with %z or %Z reads an offset, so its result is an instant; one with
// %n (and no offset) is a TIMESTAMP_NS.
func (b *binder) callRules(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	fs, ok := function.Lookup(name)
	if !ok || fs.Internal {
		return nil, b.errAt(at, ErrUnknownFunction, fmt.Sprintf("unknown function %q%s", name, didYouMean(name, knownFuncs())))
	}
	x, err := b.callRegistered(fs, name, xs, srcs, at, c)
	if call, isCall := x.(*planner.Call); isCall && err == nil && (fs.Name == "strptime" || fs.Name == "try_strptime") {
		if k, isConst := planner.FoldExpr(call.Args[1]).(*planner.Const); isConst && !k.Val.Null {
			switch {
			case strings.Contains(k.Val.S, "%z") || strings.Contains(k.Val.S, "%Z"):
				call.T = columnar.TTimestampTZ
			case strings.Contains(k.Val.S, "%n"):
				call.T = columnar.TTimestampNS // nanoseconds are kept (DuckDB 1.5.6)
			}
		}
	}
	return x, err
}

// arity is the error of a call with the wrong number of arguments.
func (b *binder) arity(at int, name, want string) error {
	return b.errAt(at, ErrType, fmt.Sprintf("%s expects %s arguments", name, want))
}

// callRegistered types a call of a registered function: the overload
// for the arguments' types (function.Set.Choose), each argument converted
// by its rule, the session's defaults added (function.Default), and the
// result type of the overload. name is the name as written, for errors.
func (b *binder) callRegistered(s *function.Set, name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	ts := make([]columnar.Type, len(xs))
	for i, x := range xs {
		ts[i] = x.Type()
	}
	o, ok := s.Choose(ts)
	switch {
	case o == nil:
		return nil, b.arity(at, name, s.Arity())
	case !ok:
		return nil, b.noOverload(s, name, ts, at)
	case nullCall(o, xs):
		return &planner.Const{Val: columnar.NullValue(columnar.TNull)}, nil
	}
	if o.SameAs > 0 && o.Arg(o.SameAs-1) == function.Struct && ts[o.SameAs-1].ID == columnar.Null {
		// A NULL of no type where the struct goes: NULL, typed NULL as
		// DuckDB types struct_extract(NULL, 'a'), whatever the key.
		return &planner.Const{Val: columnar.NullValue(columnar.TNull)}, nil
	}
	for i := range xs {
		if o.Arg(i) == function.AggName {
			return b.listAggregate(name, i, xs, srcs, at, c)
		}
	}
	args := make([]planner.Expr, len(xs))
	if err := b.unifiedArgs(name, o, xs, srcs, args, c); err != nil {
		return nil, err
	}
	// The rules that take their type from another argument (an element
	// of a list, a map's key, a struct's field) go after the others.
	for _, nested := range []bool{false, true} {
		for i, x := range xs {
			rule := o.Arg(i)
			if rule.Nested() != nested || args[i] != nil {
				continue
			}
			var y planner.Expr
			var err error
			switch {
			case rule.IsList():
				y, err = b.listArg(name, o, xs, i, srcs[i], c)
			case nested:
				y, err = b.nestedArg(name, o, rule, args, x, srcs[i], c)
			default:
				y, err = b.convertArg(name, rule, x, srcs[i], c)
			}
			if err != nil {
				return nil, err
			}
			args[i] = y
		}
	}
	if o.SameAs > 0 {
		if k := o.SameAs - 1; xs[k].Type().ID == columnar.Null && !o.SeesNulls {
			switch o.Arg(k) {
			case function.List, function.ListOrString, function.Lists, function.Entries, function.Map:
				// A NULL of no type where a list or map goes: the call
				// is NULL, typed NULL as DuckDB types it
				// (list_reverse(NULL), map_keys(NULL) is "NULL"[]).
				return &planner.Const{Val: columnar.NullValue(o.Derive.OfNull())}, nil
			}
		}
	}
	types := make([]columnar.Type, len(args))
	consts := make([]*columnar.Value, len(args))
	for i, a := range args {
		types[i] = a.Type()
		if k, isConst := a.(*planner.Const); isConst {
			consts[i] = &k.Val
		}
	}
	t := o.Result(types, consts)
	args, err := b.withDefaults(o, args, at)
	if err != nil {
		return nil, err
	}
	return b.strictMath(&planner.Call{Fn: cmp.Or(o.Calls, s.Name), Args: args, T: t}), nil // bind_ieee.go
}

// noOverload is the error of a call whose argument types no overload of
// s takes, naming those that take as many, as DuckDB's "No function
// matches the given name and argument types".
func (b *binder) noOverload(s *function.Set, name string, ts []columnar.Type, at int) error {
	var got, cands []string
	for _, t := range ts {
		got = append(got, t.String())
	}
	for i := range s.Overloads {
		o := &s.Overloads[i]
		if !o.Takes(len(ts)) {
			continue
		}
		var as []string
		for _, a := range o.Args {
			as = append(as, a.TypeName())
		}
		if o.Variadic {
			as = append(as, "…")
		}
		cands = append(cands, name+"("+strings.Join(as, ", ")+")")
	}
	return b.errAt(at, ErrType, fmt.Sprintf("no overload of %s takes (%s): %s", name, strings.Join(got, ", "), strings.Join(cands, ", ")))
}

// withDefaults inserts the overload's Defaults into the bound arguments:
// the session's default_order and default_null_order (list_sort).
func (b *binder) withDefaults(o *function.Overload, args []planner.Expr, at int) ([]planner.Expr, error) {
	for _, d := range o.Defaults {
		var v string
		switch d.Value {
		case function.SortOrder, function.ReverseSortOrder:
			desc, _ := b.sortOrder(&ast.OrderItem{})
			v = map[bool]string{false: "ASC", true: "DESC"}[desc != (d.Value == function.ReverseSortOrder)]
		case function.NullOrder:
			// For the order before it, which must be a constant (DuckDB:
			// "Sorting order must be a constant").
			k, isConst := planner.FoldExpr(args[d.At-1]).(*planner.Const)
			if !isConst {
				return nil, b.errAt(at, ErrType, "the sorting order must be a constant")
			}
			desc, _ := ParseOrder(k.Val.S)
			_, first := b.sortOrder(&ast.OrderItem{Desc: desc, Asc: !desc})
			v = map[bool]string{false: "NULLS LAST", true: "NULLS FIRST"}[first]
		}
		args = slices.Insert(args, d.At, planner.Expr(&planner.Const{Val: columnar.StringValue(v)}))
	}
	return args, nil
}

// nullCall reports whether the call is a NULL of type NULL, as DuckDB
// types it, because of NULLs of no type: a list aggregate of one
// (list_sum(NULL), list_count(NULL)), lists to concatenate that are all
// such NULLs (list_concat(NULL, NULL); a typed NULL list makes []), or a
// NULL field name (struct_extract(s, NULL)).
func nullCall(o *function.Overload, xs []planner.Expr) bool {
	lists, nulls := 0, 0
	for i, x := range xs {
		isNull := x.Type().ID == columnar.Null
		switch o.Arg(i) {
		case function.AggList, function.AggNumbers, function.Texts, function.Bools, function.Doubles, function.Integers:
			if isNull {
				return true
			}
		case function.FieldName:
			if k, isConst := planner.FoldExpr(x).(*planner.Const); isNull || isConst && k.Val.Null {
				return true // struct_extract(s, NULL)
			}
		case function.UnifiedList:
			lists++
			if isNull {
				nulls++
			}
		}
	}
	return lists > 0 && nulls == lists
}

// listArg converts argument i of a call by the List rule (or
// ListOrString, which keeps a VARCHAR, or Lists, a list of lists): [] (a
// nestedArg converts x by a rule that takes its type from the overload's
// fieldArg converts struct_extract's key: a constant field name of the
// struct t, to the field's 0-based position. An index names a field of an

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

// listAggregate binds list_aggregate(l, name, args…): argument k is the
// constant name of an aggregate of the registry (any of its names), and
// the call is the registry's list form of that aggregate, list_<its
// name>, over the other arguments, typed by that set's rules
// (list_aggregate(l, 'mean') is list_avg(l), list_aggregate(l,
// 'group_concat', '-') is list_string_agg(l, '-')).
func (b *binder) listAggregate(name string, k int, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	kc, isConst := planner.FoldExpr(xs[k]).(*planner.Const)
	if !isConst {
		return nil, b.typeErr(srcs[k], c, "%s: the aggregate's name must be a constant", name)
	}
	aggName := "NULL"
	if !kc.Val.Null {
		aggName = kc.Val.S
	}
	agg, ok := function.Find(function.Aggregate, aggName)
	if !ok || kc.Val.Null {
		return nil, b.errAt(b.leafTok(srcs[k], c.sp), ErrUnknownFunction,
			fmt.Sprintf("aggregate function %q does not exist%s", aggName, didYouMean(aggName, function.Names(function.Aggregate))))
	}
	ls, ok := function.Lookup("list_" + agg.Name)
	if !ok {
		return nil, b.errAt(b.leafTok(srcs[k], c.sp), ErrUnsupported, fmt.Sprintf("%s of the aggregate %s is not supported", name, agg.Name))
	}
	rest := append(append([]planner.Expr(nil), xs[:k]...), xs[k+1:]...)
	restSrcs := append(append([]callexpr.Expr(nil), srcs[:k]...), srcs[k+1:]...)
	if ls.Overload(len(rest)) == nil {
		return nil, b.errAt(at, ErrType, fmt.Sprintf("%s of %s takes %s arguments besides the name", name, agg.Name, ls.Arity()))
	}
	if len(rest) > 0 && rest[0].Type().ID == columnar.Null {
		// A NULL of no type: NULL, typed NULL, whatever the aggregate.
		return &planner.Const{Val: columnar.NullValue(columnar.TNull)}, nil
	}
	return b.callRegistered(ls, name, rest, restSrcs, at, c)
}
