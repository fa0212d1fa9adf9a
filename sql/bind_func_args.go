package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// The argument rules of the registry (function.Arg): how callRegistered
// (bind_func_call.go) converts each argument of a call.

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
	case function.Doubles:
		switch {
		case t.ID == columnar.List && t.Elem().ID == columnar.Null:
			return b.coerce(x, columnar.ListOf(columnar.TFloat64), src, c)
		case t.ID == columnar.List && !t.Elem().IsNumeric() && !t.Elem().Wide():
			return nil, b.typeErr(src, c, "%s expects a list of numbers, got %s", name, t)
		case t.ID == columnar.List:
			return b.coerce(x, columnar.ListOf(columnar.TFloat64), src, c)
		}
	case function.Integers:
		switch {
		case t.ID == columnar.List && t.Elem().ID == columnar.Null:
			return b.coerce(x, columnar.ListOf(columnar.TInt32), src, c)
		case t.ID == columnar.List && !t.Elem().IsInteger() && t.Elem().ID != columnar.Bit:
			return nil, b.typeErr(src, c, "%s expects a list of integers or BITs, got %s", name, t)
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
		if t.ID == columnar.Null {
			return x, nil // map()'s MAP("NULL", "NULL") has no entry: any key finds none
		}
	case function.SameList:
		if xt := x.Type(); xt.ID != columnar.List && xt.ID != columnar.Null {
			return nil, b.typeErr(src, c, "%s expects a list, got %s", name, xt)
		}
	case function.FieldName, function.FieldIndex:
		return b.fieldArg(name, rule, t, x, src, c)
	}
	return b.coerce(x, t, src, c)
}

// fieldArg converts a struct function's field argument to the field's
// 0-based position, a BIGINT constant: a name (FieldName, any case) or,
// on an unnamed struct only, a 1-based index (FieldIndex), as DuckDB.
func (b *binder) fieldArg(name string, rule function.Arg, t columnar.Type, x planner.Expr, src callexpr.Expr, c ectx) (planner.Expr, error) {
	k, isConst := planner.FoldExpr(x).(*planner.Const)
	switch {
	case !isConst:
		return nil, b.typeErr(src, c, "%s expects a constant field name or index", name)
	case rule == function.FieldIndex:
		return b.fieldIndex(name, t, k.Val, src, c)
	}
	for i, f := range t.Fields() {
		if strings.EqualFold(f.Name, k.Val.S) {
			return &planner.Const{Val: columnar.IntValue(columnar.TInt64, int64(i))}, nil
		}
	}
	return nil, b.typeErr(src, c, "struct has no field %q", k.Val.S)
}

// fieldIndex converts the 1-based index k of a field of the unnamed
// struct t to its 0-based position (fieldArg, s[k]).
func (b *binder) fieldIndex(name string, t columnar.Type, k columnar.Value, src callexpr.Expr, c ectx) (planner.Expr, error) {
	if !t.IsUnnamedStruct() {
		return nil, b.typeErr(src, c, "%s with an integer key can only be used on unnamed structs, use a string key instead", name)
	}
	n := len(t.Fields())
	if k.Null || k.I < 1 || k.I > int64(n) {
		return nil, b.typeErr(src, c, "key index %s for %s out of range - expected an index between 1 and %d", k.String(), name, n)
	}
	return &planner.Const{Val: columnar.IntValue(columnar.TInt64, k.I-1)}, nil
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
	case function.Bit:
		if t.ID != columnar.Bit && t.ID != columnar.Null && !b.flexible(x, columnar.TBit, false) {
			return nil, b.typeErr(src, c, "%s expects BIT, got %s", name, t)
		}
		return b.coerce(x, columnar.TBit, src, c)
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
