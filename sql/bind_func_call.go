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
// with %z or %Z reads an offset, so its result is an instant.
func (b *binder) callRules(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	fs, ok := function.Lookup(name)
	if !ok || fs.Internal {
		return nil, b.errAt(at, ErrUnknownFunction, fmt.Sprintf("unknown function %q%s", name, didYouMean(name, knownFuncs())))
	}
	x, err := b.callRegistered(fs, name, xs, srcs, at, c)
	if call, isCall := x.(*planner.Call); isCall && err == nil && (fs.Name == "strptime" || fs.Name == "try_strptime") {
		if k, isConst := planner.FoldExpr(call.Args[1]).(*planner.Const); isConst && !k.Val.Null &&
			(strings.Contains(k.Val.S, "%z") || strings.Contains(k.Val.S, "%Z")) {
			call.T = columnar.TTimestampTZ
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
			return b.listAggregate(name, i, xs, srcs, at, c) // bind_func_list.go
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
	return &planner.Call{Fn: cmp.Or(o.Calls, s.Name), Args: args, T: t}, nil
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
		case function.AggList, function.AggNumbers, function.Texts, function.Bools:
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

// unifiedArgs converts the call's Unified and UnifiedList arguments into
// args: each to the common type of its rule's arguments.
func (b *binder) unifiedArgs(name string, o *function.Overload, xs []planner.Expr, srcs []callexpr.Expr, args []planner.Expr, c ectx) error {
	var at []int
	for i := range xs {
		if r := o.Arg(i); r == function.Unified || r == function.UnifiedList {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return nil
	}
	sub, subSrcs := make([]planner.Expr, len(at)), make([]callexpr.Expr, len(at))
	for k, i := range at {
		sub[k], subSrcs[k] = xs[i], srcs[i]
	}
	var t columnar.Type
	if o.Arg(at[0]) == function.Unified {
		var err error
		if sub, t, err = b.unify(sub, subSrcs, c, false, name); err != nil {
			return err
		}
	} else {
		seen := false
		for k, x := range sub {
			xt := x.Type()
			switch {
			case xt.ID == columnar.Null:
				continue
			case xt.ID != columnar.List:
				return b.typeErr(subSrcs[k], c, "%s expects lists, got %s", name, xt)
			case !seen:
				t, seen = xt, true
				continue
			}
			st, ok := superType(t, xt)
			if !ok {
				return b.typeErr(subSrcs[k], c, "cannot concatenate lists of types %s and %s", t, xt)
			}
			t = st
		}
	}
	for k, i := range at {
		y, err := b.coerce(sub[k], t, subSrcs[k], c)
		if err != nil {
			return err
		}
		args[i] = y
	}
	return nil
}

// listArg converts argument i of a call by the List rule (or
// ListOrString, which keeps a VARCHAR, or Lists, a list of lists): [] (a
// list of NULLs) and a NULL are lists of the Element argument's type
// (list_contains(NULL, 'a') and list_contains([], 'a') look for a
// VARCHAR), or of INTEGER.
func (b *binder) listArg(name string, o *function.Overload, xs []planner.Expr, i int, src callexpr.Expr, c ectx) (planner.Expr, error) {
	x := xs[i]
	t := x.Type()
	elem := columnar.TInt32
	for k := range xs {
		if o.Arg(k) == function.Element && xs[k].Type().ID != columnar.Null {
			elem = xs[k].Type()
			break
		}
	}
	if o.Arg(i) == function.Entries {
		entry := columnar.StructOf(columnar.Field{Name: "k", Type: columnar.TInt32}, columnar.Field{Name: "v", Type: columnar.TInt32})
		switch {
		case t.ID == columnar.Null, t.ID == columnar.List && t.Elem().ID == columnar.Null:
			return b.coerce(x, columnar.ListOf(entry), src, c)
		case t.ID == columnar.List && t.Elem().ID == columnar.Struct && len(t.Elem().Fields()) == 2:
			return x, nil
		}
		return nil, b.typeErr(src, c, "%s expects a list of key-value structs, STRUCT(K, V)[], got %s", name, t)
	}
	if o.Arg(i) == function.Lists {
		switch {
		case t.ID == columnar.Null, t.ID == columnar.List && t.Elem().ID == columnar.Null:
			return b.coerce(x, columnar.ListOf(columnar.ListOf(columnar.TNull)), src, c)
		case t.ID == columnar.List && t.Elem().ID == columnar.List:
			return x, nil
		}
		return nil, b.typeErr(src, c, "%s expects a list of lists, got %s", name, t)
	}
	switch o.Arg(i) {
	case function.Texts:
		if t.ID == columnar.List {
			return b.coerce(x, columnar.ListOf(columnar.TVarchar), src, c) // as string_agg casts
		}
	case function.Bools:
		switch {
		case t.ID == columnar.List && t.Elem().ID == columnar.Null:
			return b.coerce(x, columnar.ListOf(columnar.TBool), src, c)
		case t.ID == columnar.List && t.Elem().ID != columnar.Bool:
			return nil, b.typeErr(src, c, "%s expects a list of booleans, got %s", name, t)
		}
	}
	switch {
	case t.ID == columnar.List && t.Elem().ID == columnar.Null, t.ID == columnar.Null:
		return b.coerce(x, columnar.ListOf(elem), src, c)
	case t.ID == columnar.Varchar && o.Arg(i) == function.ListOrString:
		return x, nil
	case t.ID != columnar.List:
		return nil, b.typeErr(src, c, "%s expects a list, got %s", name, t)
	case o.Arg(i) == function.AggNumbers && !t.Elem().IsNumeric() && !t.Elem().Wide():
		return nil, b.typeErr(src, c, "%s expects a list of numbers, got %s", name, t)
	}
	return x, nil
}

// nestedArg converts x by a rule that takes its type from the overload's
// first List or Map argument, already converted in args.
func (b *binder) nestedArg(name string, o *function.Overload, rule function.Arg, args []planner.Expr, x planner.Expr, src callexpr.Expr, c ectx) (planner.Expr, error) {
	from := function.List
	switch rule {
	case function.MapKey:
		from = function.Map
	case function.FieldName, function.FieldIndex:
		from = function.Struct
	}
	var t columnar.Type
	for k := range args {
		if o.Arg(k) == from {
			t = args[k].Type()
			break
		}
	}
	switch rule {
	case function.Element:
		t = t.Elem()
	case function.MapKey:
		t = t.Fields()[0].Type
	case function.SameList:
		if xt := x.Type(); xt.ID != columnar.List && xt.ID != columnar.Null {
			return nil, b.typeErr(src, c, "%s expects a list, got %s", name, xt)
		}
	case function.FieldName, function.FieldIndex:
		return b.fieldArg(name, rule, t, x, src, c)
	}
	return b.coerce(x, t, src, c)
}

// fieldArg converts struct_extract's key: a constant field name of the
// struct t, to the field's 0-based position. An index names a field of an
// unnamed struct, which b2sql does not make (DuckDB's message).
func (b *binder) fieldArg(name string, rule function.Arg, t columnar.Type, x planner.Expr, src callexpr.Expr, c ectx) (planner.Expr, error) {
	k, isConst := planner.FoldExpr(x).(*planner.Const)
	switch {
	case !isConst:
		return nil, b.typeErr(src, c, "%s expects a constant field name or index", name)
	case rule == function.FieldIndex:
		return nil, b.typeErr(src, c, "%s with an integer key can only be used on unnamed structs, use a string key instead", name)
	}
	for i, f := range t.Fields() {
		if strings.EqualFold(f.Name, k.Val.S) {
			return &planner.Const{Val: columnar.IntValue(columnar.TInt64, int64(i))}, nil
		}
	}
	return nil, b.typeErr(src, c, "struct has no field %q", k.Val.S)
}

// convertArg converts one argument by its rule (function.Arg).
func (b *binder) convertArg(name string, rule function.Arg, x planner.Expr, src callexpr.Expr, c ectx) (planner.Expr, error) {
	t := x.Type()
	switch rule {
	case function.Varchar:
		// An ENUM is its text here, as DuckDB casts it implicitly.
		if t.ID != columnar.Varchar && t.ID != columnar.Null && t.ID != columnar.Enum {
			return nil, b.typeErr(src, c, "%s expects VARCHAR, got %s", name, t)
		}
		return b.coerce(x, columnar.TVarchar, src, c)
	case function.Text, function.Str:
		return b.coerce(x, columnar.TVarchar, src, c)
	case function.Number:
		if t.ID == columnar.Null || b.flexible(x, columnar.TFloat64, false) {
			return b.coerce(x, columnar.TFloat64, src, c)
		}
		if !isNum(t) { // HUGEINT, UHUGEINT, DECIMAL(19..38) too
			return nil, b.typeErr(src, c, "%s expects a number, got %s", name, t)
		}
		return x, nil
	case function.Integer, function.Int32:
		to := columnar.TInt64
		if rule == function.Int32 {
			to = columnar.TInt32
		}
		if t.ID != columnar.Null && !t.IsInteger() && !b.flexible(x, to, false) {
			return nil, b.typeErr(src, c, "%s expects an integer, got %s", name, t)
		}
		return b.coerce(x, to, src, c)
	case function.BigInt, function.Double:
		if t.ID == columnar.Varchar && !b.isLiteral(x) {
			return nil, b.typeErr(src, c, "%s expects a number, got %s", name, t)
		}
		to := columnar.TInt64
		if rule == function.Double {
			to = columnar.TFloat64
		}
		return b.coerce(x, to, src, c)
	case function.Temporal, function.Instant:
		switch t.ID {
		case columnar.TimestampTZ:
			if rule == function.Instant {
				return utcPayload(x), nil // the instant's
			}
			return b.localTime(x), nil // fields of the session's local time
		case columnar.Date, columnar.Timestamp:
			return x, nil
		case columnar.TimestampS, columnar.TimestampMS, columnar.TimestampNS:
			if keepsUnit(name, t) { // types_timestamp_unit.go
				return x, nil
			}
			return asTimestamp(x), nil
		case columnar.Time: // DuckDB has no implicit TIME to TIMESTAMP
			return nil, b.typeErr(src, c, "%s expects DATE or TIMESTAMP, got TIME", name)
		case columnar.Varchar:
			if !b.isLiteral(x) {
				return nil, b.typeErr(src, c, "%s expects a number, got %s", name, t)
			}
		}
		return b.coerce(x, columnar.TTimestamp, src, c)
	case function.Interval:
		if t.ID != columnar.Interval && t.ID != columnar.Null {
			return nil, b.typeErr(src, c, "%s expects INTERVAL, got %s", name, t)
		}
		return b.coerce(x, columnar.TInterval, src, c)
	case function.Any:
		return x, nil
	case function.Map:
		switch t.ID {
		case columnar.Map:
			return x, nil
		case columnar.Null: // a NULL map, of INTEGER keys and values
			return b.coerce(x, columnar.MapOf(columnar.TInt32, columnar.TInt32), src, c)
		}
		return nil, b.typeErr(src, c, "%s expects a map, got %s", name, t)
	case function.Struct:
		if t.ID != columnar.Struct {
			return nil, b.typeErr(src, c, "%s expects a struct, got %s", name, t)
		}
		return x, nil
	case function.UUID:
		if t.ID != columnar.Uuid && t.ID != columnar.Null && !b.flexible(x, columnar.TUuid, false) {
			return nil, b.typeErr(src, c, "%s expects UUID, got %s", name, t)
		}
		return b.coerce(x, columnar.TUuid, src, c)
	}
	return nil, b.errAt(b.leafTok(src, c.sp), ErrUnsupported, fmt.Sprintf("%s: argument rule %d", strings.ToLower(name), rule))
}
