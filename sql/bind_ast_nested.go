package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// Nested-value syntax bound from the syntax tree (issue 21), with DuckDB
// 1.5's meaning:
//
//	[a, b]            list_value(a, b)
//	{'k': v, …}       struct_pack(k := v, …)
//	MAP {k: v, …}     map([k, …], [v, …])
//	x[i]              a list's element i (from 1; negative from the end),
//	                  a string's character i, a struct's field i (a
//	                  constant name), a map's value under key i
//	x[a:b], x[a:b:s]  list_slice / a substring (bounds may be omitted)
//	x.f, t.x.f        a struct's field
//	[x FOR v IN l IF c]  list_transform(list_filter(l, v -> c), v -> x)
//	CAST(x AS T[])    and STRUCT(…), MAP(K, V) type names
//

// nestedBindable is astBindable for the nested-value nodes; ok is false
// for other nodes.
func nestedBindable(e ast.Expr) (bindable, ok bool) {
	switch e := e.(type) {
	case *ast.List:
		return allBindable(e.Elems...), true
	case *ast.Struct:
		for _, f := range e.Fields {
			if !astBindable(f.Value) {
				return false, true
			}
		}
		return true, true
	case *ast.Map:
		for _, m := range e.Entries {
			if !astBindable(m.Key) || !astBindable(m.Value) {
				return false, true
			}
		}
		return true, true
	case *ast.Index:
		return astBindable(e.X) && astBindable(e.Index), true
	case *ast.Slice:
		for _, x := range []ast.Expr{e.Lo, e.Hi, e.Step} {
			if x != nil && !astBindable(x) {
				return false, true
			}
		}
		return astBindable(e.X), true
	case *ast.Field:
		return astBindable(e.X), true
	case *ast.Comprehension:
		return astBindable(comprehensionCall(e)), true
	case *ast.Row:
		return allBindable(e.Elems...), true // () is an error of structPack
	}
	return false, false
}

// comprehensionCall is DuckDB's list comprehension [x FOR v IN l IF c]
// as the calls it stands for: list_transform(list_filter(l, v -> c),
// v -> x) (without IF, list_transform(l, v -> x)).
func comprehensionCall(e *ast.Comprehension) ast.Expr {
	sp := e.Span
	call := func(fn string, args ...ast.Expr) ast.Expr {
		return &ast.Func{Span: sp, Name: ast.Name{{Span: sp, Name: fn}}, Args: args}
	}
	lambda := func(body ast.Expr) ast.Expr {
		return &ast.Lambda{Span: sp, Params: []*ast.Ident{e.Var}, Body: body}
	}
	list := e.List
	if e.Cond != nil {
		list = call("list_filter", list, lambda(e.Cond))
	}
	return call("list_transform", list, lambda(e.X))
}

// bindASTNested binds a nested-value node; ok is false for other nodes.
func (b *binder) bindASTNested(e ast.Expr, c ectx) (planner.Expr, bool, error) {
	at := b.q.tokAt(e.Extent().Start)
	switch e := e.(type) {
	case *ast.List:
		xs, err := b.bindASTs(c, e.Elems...)
		if err != nil {
			return nil, true, err
		}
		x, err := b.callFunc("list_value", xs, srcsOf(e.Elems), at, c)
		return x, true, err
	case *ast.Struct:
		names := make([]string, len(e.Fields))
		vals := make([]ast.Expr, len(e.Fields))
		for i, f := range e.Fields {
			names[i], vals[i] = f.Key.Name, f.Value
		}
		x, err := b.structPack(names, vals, at, c)
		return x, true, err
	case *ast.Comprehension:
		x, err := b.bindAST(comprehensionCall(e), c)
		return x, true, err
	case *ast.Row:
		x, err := b.structPack(make([]string, len(e.Elems)), e.Elems, at, c)
		return x, true, err
	case *ast.Map:
		keys := make([]ast.Expr, len(e.Entries))
		vals := make([]ast.Expr, len(e.Entries))
		for i, m := range e.Entries {
			keys[i], vals[i] = m.Key, m.Value
		}
		x, err := b.mapLiteral(keys, vals, at, c)
		return x, true, err
	case *ast.Index:
		xs, err := b.bindASTs(c, e.X, e.Index)
		if err != nil {
			return nil, true, err
		}
		x, err := b.subscript(xs[0], xs[1], astSrc(e.X), astSrc(e.Index), at, c)
		return x, true, err
	case *ast.Slice:
		x, err := b.bindSlice(e, at, c)
		return x, true, err
	case *ast.Field:
		x, err := b.bindAST(e.X, c)
		if err != nil {
			return nil, true, err
		}
		x, err = b.field(x, e.Name.Name, astSrc(e.X), b.q.tokAt(e.Name.Start), c)
		return x, true, err
	}
	return nil, false, nil
}

func srcsOf(es []ast.Expr) []callexpr.Expr {
	out := make([]callexpr.Expr, len(es))
	for i, e := range es {
		out[i] = astSrc(e)
	}
	return out
}

// structPack binds a struct of named values (struct literals,
// struct_pack); names must differ. Names all "" make an unnamed struct
// (row(…), (a, b)).
func (b *binder) structPack(names []string, vals []ast.Expr, at int, c ectx) (planner.Expr, error) {
	xs, err := b.bindASTs(c, vals...)
	if err != nil {
		return nil, err
	}
	fs := make([]columnar.Field, len(xs))
	seen := map[string]bool{}
	for i, x := range xs {
		if names[i] != "" && seen[strings.ToLower(names[i])] {
			return nil, b.errAt(at, ErrType, fmt.Sprintf("duplicate struct entry name %q", names[i]))
		}
		seen[strings.ToLower(names[i])] = true
		// A NULL field keeps the type "NULL", as in DuckDB: the common
		// type with any other struct's field is then that field's
		// ([{'y': {'z': 1}}, {'y': NULL}] is STRUCT(y STRUCT(z INTEGER))[]).
		fs[i] = columnar.Field{Name: names[i], Type: x.Type()}
	}
	if len(fs) == 0 {
		return nil, b.errAt(at, ErrType, "can't pack nothing into a struct")
	}
	return &planner.Call{Fn: "struct_pack", Args: xs, T: columnar.StructOf(fs...)}, nil
}

// mapLiteral binds MAP {k: v, …} as map([k, …], [v, …]).
func (b *binder) mapLiteral(keys, vals []ast.Expr, at int, c ectx) (planner.Expr, error) {
	ks, err := b.bindASTs(c, keys...)
	if err != nil {
		return nil, err
	}
	vs, err := b.bindASTs(c, vals...)
	if err != nil {
		return nil, err
	}
	kl, err := b.callFunc("list_value", ks, srcsOf(keys), at, c)
	if err != nil {
		return nil, err
	}
	vl, err := b.callFunc("list_value", vs, srcsOf(vals), at, c)
	if err != nil {
		return nil, err
	}
	return b.mapFromLists(kl, vl, at)
}

// mapFromLists is map(keys, values) over two bound lists.
func (b *binder) mapFromLists(k, v planner.Expr, at int) (planner.Expr, error) {
	kt, vt := k.Type(), v.Type()
	if kt.ID == columnar.Null {
		kt = columnar.ListOf(columnar.TNull)
	}
	if vt.ID == columnar.Null {
		vt = columnar.ListOf(columnar.TNull)
	}
	if kt.ID != columnar.List || vt.ID != columnar.List {
		return nil, b.errAt(at, ErrType, fmt.Sprintf("map expects two lists, got %s and %s", k.Type(), v.Type()))
	}
	// map() and MAP {} are MAP("NULL", "NULL"), as in DuckDB.
	ke, ve := kt.Elem(), vt.Elem()
	return &planner.Call{Fn: "map_from_lists", Args: []planner.Expr{k, v}, T: columnar.MapOf(ke, ve)}, nil
}

// subscript binds x[i] by the type of x.
func (b *binder) subscript(x, i planner.Expr, xs, is callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	switch t := x.Type(); t.ID {
	case columnar.List, columnar.Null, columnar.Varchar:
		s, _ := function.Lookup("list_extract")
		return b.callRegistered(s, "list_extract", []planner.Expr{x, i}, []callexpr.Expr{xs, is}, at, c)
	case columnar.Struct:
		k, ok := planner.FoldExpr(i).(*planner.Const)
		if ok && !k.Val.Null && k.Val.Type.IsInteger() {
			// s[2]: a field of an unnamed struct by its 1-based index.
			pos, err := b.fieldIndex("struct_extract", t, k.Val, is, c) // bind_func_args.go
			if err != nil {
				return nil, err
			}
			f := pos.(*planner.Const).Val.I
			return &planner.Call{Fn: "struct_extract", Args: []planner.Expr{x, pos}, T: t.Fields()[f].Type}, nil
		}
		if !ok || k.Val.Null || k.Val.Type.ID != columnar.Varchar {
			return nil, b.typeErr(is, c, "a struct is subscripted with a constant field name")
		}
		return b.field(x, k.Val.S, xs, b.leafTok(is, c.sp), c)
	case columnar.Map:
		s, _ := function.Lookup("map_extract_value")
		return b.callRegistered(s, "map_extract_value", []planner.Expr{x, i}, []callexpr.Expr{xs, is}, at, c)
	default:
		return nil, b.typeErr(xs, c, "cannot subscript a value of type %s", t)
	}
}

// field binds x.name on a struct x.
func (b *binder) field(x planner.Expr, name string, xs callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	t := x.Type()
	if t.ID != columnar.Struct {
		return nil, b.typeErr(xs, c, "cannot extract field %q from a value of type %s", name, t)
	}
	for f, fd := range t.Fields() {
		if strings.EqualFold(fd.Name, name) {
			return &planner.Call{Fn: "struct_extract", Args: []planner.Expr{x, &planner.Const{Val: columnar.IntValue(columnar.TInt64, int64(f))}}, T: fd.Type}, nil
		}
	}
	names := make([]string, len(t.Fields()))
	for i, fd := range t.Fields() {
		names[i] = fd.Name
	}
	return nil, b.errAt(at, ErrUnknownColumn, fmt.Sprintf("struct has no field %q%s", name, didYouMean(name, names)))
}

// bindSlice binds x[lo:hi[:step]]: an omitted lo is the first element, an
// omitted hi the last.
func (b *binder) bindSlice(e *ast.Slice, at int, c ectx) (planner.Expr, error) {
	x, err := b.bindAST(e.X, c)
	if err != nil {
		return nil, err
	}
	bound := func(n ast.Expr, dflt int64) (planner.Expr, error) {
		if n == nil {
			return &planner.Const{Val: columnar.IntValue(columnar.TInt64, dflt)}, nil
		}
		v, err := b.bindAST(n, c)
		if err != nil {
			return nil, err
		}
		return b.coerce(v, columnar.TInt64, astSrc(n), c)
	}
	args := []planner.Expr{x}
	for _, p := range []struct {
		n ast.Expr
		d int64
	}{{e.Lo, 0}, {e.Hi, -1}} {
		v, err := bound(p.n, p.d)
		if err != nil {
			return nil, err
		}
		args = append(args, v)
	}
	if e.Step != nil {
		v, err := bound(e.Step, 1)
		if err != nil {
			return nil, err
		}
		args = append(args, v)
	}
	switch t := x.Type(); t.ID {
	case columnar.Null:
		args[0], err = b.coerce(x, columnar.ListOf(columnar.TInt32), astSrc(e.X), c)
		if err != nil {
			return nil, err
		}
		return &planner.Call{Fn: "list_slice", Args: args, T: args[0].Type()}, nil
	case columnar.List, columnar.Varchar:
		return &planner.Call{Fn: "list_slice", Args: args, T: t}, nil
	default:
		return nil, b.typeErr(astSrc(e.X), c, "cannot slice a value of type %s", t)
	}
}

// bindASTColumn binds a name: a column, t.column, or either followed by
// struct fields (s.a, t.s.a.b), the table qualifier winning as in DuckDB.
func (b *binder) bindASTColumn(e *ast.ColumnRef, c ectx) (planner.Expr, error) {
	at := b.q.tokAt(e.Start)
	if len(e.Name) == 1 {
		return b.bindColumnName("", e.Name[0].Name, at, c)
	}
	var x planner.Expr
	var err error
	rest := e.Name[1:]
	if len(e.Name) >= 3 && b.schemaQualified(e.Name[0].Name, e.Name[1].Name) {
		// s.t.col: the first part names the schema of table t, which
		// DuckDB tries before a table or a column.
		x, err = b.schemaColumn(e.Name[0].Name, e.Name[1].Name, e.Name[2].Name, at)
		rest = e.Name[3:]
	} else if b.isQual(e.Name[0].Name) {
		x, err = b.bindColumnName(e.Name[0].Name, e.Name[1].Name, at, c)
		rest = e.Name[2:]
	} else if b.structCol(e.Name[0].Name, c) {
		x, err = b.bindColumnName("", e.Name[0].Name, at, c)
	} else {
		// An enclosing query's table, or the unknown-table error of t.x.
		x, err = b.bindColumnName(e.Name[0].Name, e.Name[1].Name, at, c)
		rest = e.Name[2:]
	}
	if err != nil {
		return nil, err
	}
	for _, f := range rest {
		if x, err = b.field(x, f.Name, astSrc(e), b.q.tokAt(f.Start), c); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// bindPositional binds #n, DuckDB's positional reference: the n-th column
// of the FROM clause, counted as SELECT * lists them (so a USING column
// once, virtual columns not at all). In the ORDER BY of a set operation
// #n is the n-th output column instead, as an ordinal is (bind_setop.go).
func (b *binder) bindPositional(e *ast.PositionalRef, c ectx) (planner.Expr, error) {
	at := b.q.tokAt(e.Start)
	var items []selItem
	if len(b.scope) > 0 {
		var err error
		if items, err = b.starItems(&ast.Star{Span: e.Span}); err != nil {
			return nil, err
		}
	}
	if e.Index < 1 || e.Index > len(items) {
		return nil, b.errAt(at, ErrUnknownColumn, fmt.Sprintf("positional reference %d out of range (total %d columns)", e.Index, len(items)))
	}
	it := items[e.Index-1]
	if it.star != nil {
		return &planner.ColRef{Col: *it.star}, nil
	}
	ic := c
	ic.sp = it.sp
	return b.bindClauseExpr(it.src, ic)
}

// structCol reports whether name is a column of this query whose value
// is a struct.
func (b *binder) structCol(name string, c ectx) bool {
	for _, col := range b.scope {
		if strings.EqualFold(col.Name, name) && b.hidden[col.ID]&hideBare == 0 {
			return col.Type.ID == columnar.Struct
		}
	}
	return false
}

// isQual reports whether name is a table name or alias in scope.
func (b *binder) isQual(name string) bool {
	for _, q := range b.quals {
		if strings.EqualFold(q, name) {
			return true
		}
	}
	return false
}

// astTypeName is the type a type name as written means; ok is false for
// the types b2sql does not have (UNION, fixed-size arrays, qualified or
// unknown names, names of CREATE TYPE types: see resolveTypeName).
func astTypeName(t *ast.TypeName) (columnar.Type, bool) { return resolveTypeName(t, nil) }

// typeNameShape reports whether t reads as a type once the names of
// CREATE TYPE types are known: a built-in type, or an unqualified name
// without parameters where a user's type may stand (the binder looks it
// up, and refuses it there when it names no type).
func typeNameShape(t *ast.TypeName) bool {
	_, ok := resolveTypeName(t, func(string) (columnar.Type, bool) { return columnar.TVarchar, true })
	return ok
}

// resolveTypeName is astTypeName with user looking up the names a built-in
// type does not take (nil: no user types), at any depth (mood[],
// STRUCT(m mood)).
func resolveTypeName(t *ast.TypeName, user func(name string) (columnar.Type, bool)) (columnar.Type, bool) {
	if t.Qualifier != "" || t.Schema != "" && user == nil {
		return columnar.Type{}, false
	}
	var base columnar.Type
	switch {
	case t.Schema != "":
		return columnar.Type{}, false // main.mood: one schema, named types are unqualified
	case t.Name == "STRUCT" || t.Name == "ROW":
		if len(t.Fields) == 0 {
			return columnar.Type{}, false
		}
		fs := make([]columnar.Field, len(t.Fields))
		for i, f := range t.Fields {
			ft, ok := resolveTypeName(f.Type, user)
			if !ok {
				return columnar.Type{}, false
			}
			fs[i] = columnar.Field{Name: f.Name.Name, Type: ft}
		}
		base = columnar.StructOf(fs...)
	case t.Name == "MAP":
		if len(t.Args) != 2 {
			return columnar.Type{}, false
		}
		k, ok1 := resolveTypeName(t.Args[0], user)
		v, ok2 := resolveTypeName(t.Args[1], user)
		if !ok1 || !ok2 {
			return columnar.Type{}, false
		}
		base = columnar.MapOf(k, v)
	case t.Name == "LIST":
		if len(t.Args) != 1 {
			return columnar.Type{}, false
		}
		e, ok := resolveTypeName(t.Args[0], user)
		if !ok {
			return columnar.Type{}, false
		}
		base = columnar.ListOf(e)
	case t.Name == "ENUM":
		e, ok := enumTypeName(t)
		if !ok {
			return columnar.Type{}, false
		}
		base = e
	case t.Name == "GEOMETRY" && len(t.Params) > 0:
		g, why, _ := geometryTypeName(t) // types_geometry.go
		if why != "" {
			return columnar.Type{}, false
		}
		base = g
	default:
		if len(t.Fields)+len(t.Args) > 0 {
			return columnar.Type{}, false
		}
		var params []int
		for _, p := range t.Params {
			l, ok := p.(*ast.Literal)
			if !ok || l.Kind != ast.LitNumber {
				return columnar.Type{}, false
			}
			n, err := strconv.Atoi(l.Val)
			if err != nil || n < 0 || n > 1<<20 {
				return columnar.Type{}, false
			}
			params = append(params, n)
		}
		var err error
		if base, err = parseTypeName(strings.Fields(t.Name), params); err != nil {
			if user == nil || len(params) > 0 || strings.Contains(t.Name, " ") {
				return columnar.Type{}, false
			}
			ut, ok := user(t.Name)
			if !ok {
				return columnar.Type{}, false
			}
			base = ut
		}
	}
	for _, n := range t.Array {
		if n >= 0 {
			return columnar.Type{}, false // INTEGER[3] is DuckDB's ARRAY type
		}
		base = columnar.ListOf(base)
	}
	return base, true
}

// enumTypeName reads ENUM('a', 'b', …): string literals, each once. ENUM()
// is refused here as in DuckDB, but CREATE TYPE e AS ENUM () makes a type
// without values (TypeRef.Resolve).
func enumTypeName(t *ast.TypeName) (columnar.Type, bool) {
	if len(t.Fields)+len(t.Args) > 0 || len(t.Params) == 0 {
		return columnar.Type{}, false
	}
	vals := make([]string, len(t.Params))
	seen := make(map[string]bool, len(t.Params))
	for i, p := range t.Params {
		l, ok := p.(*ast.Literal)
		if !ok || l.Kind != ast.LitString || seen[l.Val] {
			return columnar.Type{}, false
		}
		vals[i], seen[l.Val] = l.Val, true
	}
	return columnar.EnumOf(vals...), true
}

// nestedCallBindable reports, for the calls bindNestedCall binds (is),
// whether every argument is bindable.
func nestedCallBindable(name string, e *ast.Func) (bindable, is bool) {
	if _, ok := lambdaFuncs[name]; ok {
		return lambdaCallBindable(e), true // bind_lambda.go
	}
	switch name {
	case "struct_pack":
		for _, a := range e.Args {
			if n, ok := a.(*ast.NamedArg); ok {
				a = n.Value
			} else if _, ok := a.(*ast.Columns); ok {
				continue // expanded into column references first (bind_columns.go)
			} else if _, ok := a.(*ast.ColumnRef); !ok {
				return false, true
			}
			if !astBindable(a) {
				return false, true
			}
		}
		return !e.Distinct && !e.Star, true
	case "map":
		return (len(e.Args) == 0 || len(e.Args) == 2) && allBindable(e.Args...), true
	case "row":
		_, ok := rowElems(e) // bind_row_in.go: no named arguments, DISTINCT, FILTER or OVER
		return (ok || len(e.Args) == 0) && allBindable(e.Args...), true
	case "unnest":
		for _, a := range e.Args {
			if n, ok := a.(*ast.NamedArg); ok {
				a = n.Value
			}
			if !astBindable(a) {
				return false, true
			}
		}
		return true, true
	}
	return false, false
}

// bindNestedCall binds struct_pack(name := value, …), row(value, …)
// (an unnamed struct) and map(keys, values); ok is false for other calls.
func (b *binder) bindNestedCall(e *ast.Func, c ectx) (planner.Expr, bool, error) {
	at := b.q.tokAt(e.Start)
	name := strings.ToLower(e.Name[0].Name)
	if fn, ok := lambdaFuncs[name]; ok {
		x, err := b.bindLambdaCall(fn, e, c)
		return x, true, err
	}
	switch name {
	case "unnest":
		x, err := b.bindUnnest(e, c) // bind_unnest.go
		return x, true, err
	case "struct_pack":
		names := make([]string, len(e.Args))
		vals := make([]ast.Expr, len(e.Args))
		for i, a := range e.Args {
			switch a := a.(type) {
			case *ast.NamedArg:
				names[i], vals[i] = a.Name.Name, a.Value
			case *ast.ColumnRef:
				names[i], vals[i] = a.Name.Last().Name, a
			}
		}
		x, err := b.structPack(names, vals, at, c)
		return x, true, err
	case "row":
		x, err := b.structPack(make([]string, len(e.Args)), e.Args, at, c)
		return x, true, err
	case "map":
		if len(e.Args) == 0 {
			k := &planner.Const{Val: columnar.NullValue(columnar.ListOf(columnar.TNull))}
			x, err := b.mapFromLists(&planner.Call{Fn: "list_value", T: k.Val.Type}, &planner.Call{Fn: "list_value", T: k.Val.Type}, at)
			return x, true, err
		}
		xs, err := b.bindASTs(c, e.Args...)
		if err != nil {
			return nil, true, err
		}
		x, err := b.mapFromLists(xs[0], xs[1], at)
		return x, true, err
	}
	return nil, false, nil
}
