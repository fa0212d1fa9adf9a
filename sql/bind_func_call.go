package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
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
// taking len(xs) arguments, each argument converted by its rule, and the
// result type of the overload. name is the name as written, for errors.
func (b *binder) callRegistered(s *function.Set, name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	o := s.Overload(len(xs))
	if o == nil {
		return nil, b.arity(at, name, s.Arity())
	}
	if nullCall(o, xs) {
		return &planner.Const{Val: columnar.NullValue(columnar.TNull)}, nil
	}
	args := make([]planner.Expr, len(xs))
	if err := b.unifiedArgs(name, o, xs, srcs, args, c); err != nil {
		return nil, err
	}
	// The rules that take their type from another argument (an element
	// of a list, a map's key) go after the others.
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
	t := o.Returns
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
		t = o.Derive.Of(args[o.SameAs-1].Type())
	}
	return &planner.Call{Fn: s.Name, Args: args, T: t}, nil
}

// nullCall reports whether the call is a NULL of type NULL, as DuckDB
// types it, because of NULLs of no type: a list aggregate of one
// (list_sum(NULL), list_count(NULL)), or lists to concatenate that are
// all such NULLs (list_concat(NULL, NULL); a typed NULL list makes []).
func nullCall(o *function.Overload, xs []planner.Expr) bool {
	lists, nulls := 0, 0
	for i, x := range xs {
		isNull := x.Type().ID == columnar.Null
		switch o.Arg(i) {
		case function.AggList, function.AggNumbers:
			if isNull {
				return true
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
	if rule == function.MapKey {
		from = function.Map
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
	}
	return b.coerce(x, t, src, c)
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
	case function.UUID:
		if t.ID != columnar.Uuid && t.ID != columnar.Null && !b.flexible(x, columnar.TUuid, false) {
			return nil, b.typeErr(src, c, "%s expects UUID, got %s", name, t)
		}
		return b.coerce(x, columnar.TUuid, src, c)
	}
	return nil, b.errAt(b.leafTok(src, c.sp), ErrUnsupported, fmt.Sprintf("%s: argument rule %d", strings.ToLower(name), rule))
}
