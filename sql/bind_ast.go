package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindClauseExpr binds a clause expression: a syntax tree node wrapped
// as syntaxSrc, or a node the binder built for the helpers shared with
// calls (bindExpr).
func (b *binder) bindClauseExpr(e callexpr.Expr, c ectx) (planner.Expr, error) {
	if s, ok := e.(*syntaxSrc); ok {
		return b.bindAST(s.n, c)
	}
	return b.bindExpr(e, c)
}

// astBindable reports whether bindAST has a case for every node of e.
func astBindable(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.ColumnRef:
		return true // bindASTColumn: a column, t.col, or a struct field path (s.a, t.s.a)
	case *ast.PositionalRef:
		return true // bindPositional (bind_ast_nested.go)
	case *ast.Collate:
		return astBindable(e.X) // bind_collate.go
	case *ast.Literal:
		switch e.Kind {
		case ast.LitString, ast.LitBool, ast.LitNull, ast.LitBlob:
			return true
		case ast.LitNumber:
			_, ok := plainNumber(e.Val)
			return ok
		}
	case *ast.Unary:
		return (e.Op == "-" || e.Op == "+" || e.Op == "NOT" || e.Op == "~") && astBindable(e.X)
	case *ast.Binary:
		if x, ok := matchCall(e, false); ok {
			return astBindable(x) // bind_match_ops.go
		}
		return (astBinaryFns[e.Op] != "" || astBitwiseOps[e.Op] != "" || e.Op == "&&") && astBindable(e.L) && astBindable(e.R)
	case *ast.Is:
		return e.What != "UNKNOWN" && astBindable(e.X)
	case *ast.Between:
		return !e.Symmetric && astBindable(e.X) && astBindable(e.Lo) && astBindable(e.Hi)
	case *ast.Like:
		if x, ok := matchCall(e, false); ok {
			return astBindable(x)
		}
		if e.Op != "LIKE" && e.Op != "ILIKE" || e.Escape != nil && !astBindable(e.Escape) {
			return false
		}
		return astBindable(e.X) && astBindable(e.Pattern)
	case *ast.InList:
		return astBindable(e.X) && allBindable(e.List...)
	case *ast.DistinctFrom:
		return astBindable(e.L) && astBindable(e.R)
	case *ast.Subquery:
		return queryBindable(e.Query)
	case *ast.InQuery:
		if x, ok := rowIn(e); ok {
			return astBindable(x) // bind_row_in.go
		}
		return astBindable(e.X) && queryBindable(e.Query)
	case *ast.Quantified:
		// x op ANY|ALL (q), or over a list (bind_quantified_list.go).
		if e.List != nil {
			return quantifiedListOp(e.Op) && astBindable(e.X) && astBindable(e.List)
		}
		if quantifiedIn(e) {
			return astBindable(&ast.InQuery{Span: e.Span, X: e.X, Query: e.Query, Not: e.Quant == "ALL"})
		}
		return astBindable(e.X) && queryBindable(e.Query)
	case *ast.Param:
		return true // ?, $n and $name (params.go)
	case *ast.Default:
		return true // a value of a VALUES row (bindValuesAST); refused elsewhere by bindAST
	case *ast.Columns:
		return true // expanded in the select list and WHERE (bind_columns.go); refused elsewhere by bindAST
	case *ast.Cast:
		return typeNameShape(e.Type) && astBindable(e.X)
	case *ast.TypedLit:
		// TYPE 'text' is CAST('text' AS TYPE).
		_, ok := castType(e.Type)
		return ok
	case *ast.Case:
		if e.Operand != nil && !astBindable(e.Operand) || e.Else != nil && !astBindable(e.Else) {
			return false
		}
		for _, w := range e.Whens {
			if !astBindable(w.Cond) || !astBindable(w.Then) {
				return false
			}
		}
		return true
	case *ast.Func:
		if x, ok := orderedAggRewrite(e); ok {
			return astBindable(x) // bind_agg_order_rewrite.go
		}
		if x, why, ok := rewriteCall(e); ok {
			return why != "" || astBindable(x)
		}
		if len(e.Name) > 1 {
			// v.lower(), main.lower('A'): methodCall decides which.
			call := *e
			call.Name = ast.Name{e.Name.Last()}
			return len(e.Name) <= 4 && astBindable(&call)
		}
		if e.Name[0].Quoted || len(e.OrderBy) > 0 && !orderBindable(e.OrderBy) ||
			len(e.WithinGroup) > 0 || e.Nulls != ast.NullsDefault && e.Over == nil || e.ExportState {
			return false
		}
		if e.Filter != nil && !astBindable(e.Filter) {
			return false
		}
		name := strings.ToLower(e.Name[0].Name)
		if e.Over != nil {
			return windowBindable(e.Over) && allBindable(e.Args...)
		}
		if ok, is := nestedCallBindable(name, e); is {
			return ok
		}
		return !FileFuncs[name] && allBindable(e.Args...)
	case *ast.Interval:
		return e.Value != nil && astBindable(e.Value)
	}
	ok, _ := nestedBindable(e)
	return ok
}

func allBindable(es ...ast.Expr) bool {
	for _, e := range es {
		if !astBindable(e) {
			return false
		}
	}
	return true
}

// valueFuncs are the SQL value functions written without parentheses
// (CURRENT_DATE, LOCALTIMESTAMP, …): a bare name that is a call.
var valueFuncs = map[string]bool{
	"current_date": true, "current_time": true, "current_timestamp": true, "current_user": true,
	"localtime": true, "localtimestamp": true, "utc_date": true, "utc_time": true, "utc_timestamp": true,
}

// plainNumber reports how a number literal is typed: an
// integer (digits only) or a float (digits with a point or an exponent);
// ok is false for anything else.
func plainNumber(s string) (isInt bool, ok bool) {
	digits, point, exp := 0, false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point && !exp:
			point = true
		case (c == 'e' || c == 'E') && !exp && digits > 0:
			exp = true
			if i+1 < len(s) && (s[i+1] == '+' || s[i+1] == '-') {
				i++
			}
			if i+1 >= len(s) {
				return false, false
			}
		default:
			return false, false
		}
	}
	return !point && !exp, digits > 0
}

// astBinaryFns maps the binary operators bindAST binds to the binder's
// function names.
var astBinaryFns = map[string]string{
	"AND": "and", "OR": "or",
	"=": "=", "==": "=", "!=": "<>", "<>": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
	"+": "+", "-": "-", "*": "*", "/": "/", "%": "%", "//": "//", "||": "||",
}

// astBitwiseOps are DuckDB's integer operators (bindBitwise; ^ is
// power), by the callexpr operator bindBitwise reads.
var astBitwiseOps = map[string]string{
	"&": callexpr.BitAndStr, "|": bitwiseOrOp, "<<": callexpr.ShiftLeftStr, ">>": callexpr.ShiftRightStr, "^": callexpr.BitXorStr,
}

// bindAST binds a syntax tree expression (astBindable holds for it).
func (b *binder) bindAST(e ast.Expr, c ectx) (planner.Expr, error) {
	if x, ok := b.subqueryKey(e); ok { // bind_group_subquery.go
		return x, nil
	}
	if x, ok, err := b.collateOperands(e); err != nil || ok { // bind_collate.go
		if err != nil {
			return nil, err
		}
		return b.bindAST(x, c)
	}
	switch e := e.(type) {
	case *ast.Collate:
		return b.bindCollate(e, c)
	case *ast.ColumnRef:
		if n := e.Name[0]; len(e.Name) == 1 && !n.Quoted && valueFuncs[strings.ToLower(n.Name)] {
			// CURRENT_DATE, LOCALTIMESTAMP, …: a call written without
			// parentheses.
			return b.bindFunc(&callexpr.FuncExpr{At: n.Span, Name: callexpr.NewColIdent(n.Name)}, c)
		}
		return b.bindASTColumn(e, c) // bind_ast_nested.go
	case *ast.PositionalRef:
		return b.bindPositional(e, c) // bind_ast_nested.go
	case *ast.Literal:
		return b.bindASTLiteral(e, false)
	case *ast.Unary:
		return b.bindASTUnary(e, c)
	case *ast.Binary:
		if x, ok := matchCall(e, b.regexFull()); ok {
			return b.bindAST(x, c)
		}
		if op := astBitwiseOps[e.Op]; op != "" {
			x, _, err := b.bindBitwise(&callexpr.BinaryExpr{Operator: op, Left: astSrc(e.L), Right: astSrc(e.R)}, c)
			return x, err
		}
		fn := astBinaryFns[e.Op]
		switch fn {
		case "and", "or":
			return b.astLogical(fn, c, e.L, e.R)
		}
		xs, err := b.bindASTs(c, e.L, e.R)
		if err != nil {
			return nil, err
		}
		if e.Op == "&&" {
			return b.bindOverlap(xs[0], xs[1], astSrc(e.L), astSrc(e.R), c) // bind_func_geometry.go
		}
		if _, cmp := comparisonFns[fn]; cmp {
			return b.compare(fn, xs[0], xs[1], astSrc(e.L), astSrc(e.R), c)
		}
		return b.arith(fn, xs[0], xs[1], astSrc(e.L), astSrc(e.R), c)
	case *ast.Is:
		x, err := b.bindAST(e.X, c)
		if err != nil {
			return nil, err
		}
		return b.isTest(x, e.What, e.Not, astSrc(e.X), c)
	case *ast.Between:
		xs, err := b.bindASTs(c, e.X, e.Lo, e.Hi)
		if err != nil {
			return nil, err
		}
		return b.between(xs, []callexpr.Expr{astSrc(e.X), astSrc(e.Lo), astSrc(e.Hi)}, e.Not, c)
	case *ast.Like:
		if x, ok := matchCall(e, b.regexFull()); ok {
			return b.bindAST(x, c)
		}
		fn := strings.ToLower(e.Op)
		if e.Not {
			fn = "not_" + fn
		}
		if e.Escape != nil {
			// x [NOT] [I]LIKE p ESCAPE e is DuckDB's [not_][i]like_escape(x, p, e).
			return b.bindFunc(&callexpr.FuncExpr{At: e.Span, Name: callexpr.NewColIdent(fn + "_escape"), Exprs: callexpr.SelectExprs{
				&callexpr.AliasedExpr{Expr: astSrc(e.X)}, &callexpr.AliasedExpr{Expr: astSrc(e.Pattern)}, &callexpr.AliasedExpr{Expr: astSrc(e.Escape)}}}, c)
		}
		xs, err := b.bindASTs(c, e.X, e.Pattern)
		if err != nil {
			return nil, err
		}
		return b.like(fn, xs[0], xs[1], astSrc(e.X), astSrc(e.Pattern), c)
	case *ast.Columns:
		return nil, b.errAt(b.q.tokAt(e.Start), ErrUnsupported, "COLUMNS(…) is supported in the select list and WHERE")
	case *ast.Default:
		return nil, b.errAt(b.q.tokAt(e.Start), ErrSyntax, "DEFAULT is allowed only as a value of INSERT … VALUES or UPDATE … SET")
	case *ast.Param:
		return b.bindParamAST(e, c) // params.go
	case *ast.DistinctFrom:
		xs, err := b.bindASTs(c, e.L, e.R)
		if err != nil {
			return nil, err
		}
		return b.distinctFrom(xs[0], xs[1], astSrc(e.L), astSrc(e.R), !e.Not, c)
	case *ast.Cast:
		to, err := b.castType(e.Type)
		if err != nil {
			return nil, err
		}
		x, err := b.bindAST(e.X, c)
		if err != nil {
			return nil, err
		}
		return b.castTo(x, astSrc(e.X), to, e.Try, c)
	case *ast.TypedLit:
		// DATE '…' is CAST('…' AS DATE).
		to, _ := castType(e.Type)
		k := &planner.Const{Val: columnar.StringValue(e.Val)}
		b.lits[k] = litInfo{litString, e.Val, b.q.tokAt(e.Start) + 1}
		return b.castTo(k, astSrc(e), to, false, c)
	case *ast.Case:
		// The CASE helper, over syntax tree operands.
		ce := &callexpr.CaseExpr{At: ast.Span{Start: e.Start, End: e.Start + len("CASE")}, Expr: optSrc(e.Operand), Else: optSrc(e.Else)}
		for _, w := range e.Whens {
			ce.Whens = append(ce.Whens, &callexpr.When{Cond: astSrc(w.Cond), Val: astSrc(w.Then)})
		}
		return b.bindCase(ce, c)
	case *ast.Func:
		if len(e.Name) > 1 {
			x, err := b.methodCall(e, c) // bind_method_call.go
			if err != nil {
				return nil, err
			}
			return b.bindAST(x, c)
		}
		if x, ok := orderedAggRewrite(e); ok {
			return b.bindAST(x, c) // bind_agg_order_rewrite.go
		}
		if x, why, ok := rewriteCall(e); ok {
			if why != "" {
				return nil, b.errAt(b.q.tokAt(e.Start), ErrType, why)
			}
			return b.bindAST(x, c)
		}
		if e.Over != nil {
			return b.bindWindowAST(e, c) // bind_window_ast.go
		}
		if x, ok, err := b.bindNestedCall(e, c); ok { // bind_ast_nested.go
			return x, err
		}
		// The call helpers, over syntax tree arguments; constant
		// arguments as callexpr literals, which some functions
		// read (date_part's part name). They find the call's name
		// in c.sp: narrowed to the call, the name they find is its
		// own (in upper('a') || upper('a', 2) the clause's first
		// upper took the second's arity error).
		c.sp = b.q.spanOf(e)
		name := e.Name[0].Name
		if strings.EqualFold(name, "position") {
			// POSITION(needle IN haystack), which the parser gives as
			// position(haystack, needle): instr's order.
			name = "instr"
		}
		fe := &callexpr.FuncExpr{At: e.Name.Last().Span, Name: callexpr.NewColIdent(name), Distinct: e.Distinct}
		if starCall(e) {
			fe.Exprs = callexpr.SelectExprs{&callexpr.StarExpr{}}
		}
		for _, a := range e.Args {
			fe.Exprs = append(fe.Exprs, &callexpr.AliasedExpr{Expr: callArg(a)})
		}
		bind := func() (planner.Expr, error) { return b.bindFunc(fe, c) }
		if len(e.OrderBy) > 0 {
			order := make([]winOrder, len(e.OrderBy))
			for i, o := range e.OrderBy {
				b.collateOrderKey(o.X) // a sort key: COLLATE orders by the collation
				desc, nullsFirst := b.sortOrder(o)
				order[i] = winOrder{expr: astSrc(o.X), desc: desc, nullsFirst: nullsFirst}
			}
			bind = func() (planner.Expr, error) {
				return b.bindOrderedAgg(strings.ToLower(e.Name[0].Name), fe, order, c) // bind_agg_ordered.go
			}
		}
		if e.Filter != nil {
			return b.bindFilteredAgg(e, c, bind) // bind_agg_filter.go
		}
		return bind()
	case *ast.Interval:
		return b.bindASTInterval(e, c) // bind_interval_ast.go
	case *ast.InQuery:
		if x, ok := listSubquery(e); ok {
			return b.bindAST(x, c) // bind_subquery_list.go
		}
		if x, ok, err := b.rowInAST(e); ok {
			if err != nil {
				return nil, err
			}
			return b.bindAST(x, c) // bind_row_in.go
		}
		return b.bindSubqueryAST(e, c)
	case *ast.Subquery:
		e = b.anyRowSubquery(e) // bind_subquery_first.go
		if x, ok := listSubquery(e); ok {
			return b.bindAST(x, c)
		}
		return b.bindSubqueryAST(e, c)
	case *ast.Quantified:
		if x, ok := listSubquery(e); ok {
			return b.bindAST(x, c)
		}
		return b.bindQuantified(e, c) // bind_subquery_quantified.go
	case *ast.InList:
		if e.Expr {
			return b.bindAST(inListExpr(e), c)
		}
		if len(e.List) == 0 {
			// x IN () is FALSE (NOT IN: TRUE) whatever x is, as in SQLite.
			return &planner.Const{Val: columnar.BoolValue(e.Not)}, nil
		}
		xs, err := b.bindASTs(c, append([]ast.Expr{e.X}, e.List...)...)
		if err != nil {
			return nil, err
		}
		srcs := []callexpr.Expr{astSrc(e.X)}
		for _, v := range e.List {
			srcs = append(srcs, astSrc(v))
		}
		fn := "in"
		if e.Not {
			fn = "not_in"
		}
		return b.inList(fn, xs, srcs, c)
	}
	if x, ok, err := b.bindASTNested(e, c); ok {
		return x, err
	}
	return nil, b.errAt(b.q.tokAt(e.Extent().Start), ErrUnsupported, "expression is not supported")
}

// bindASTs binds es in order.
func (b *binder) bindASTs(c ectx, es ...ast.Expr) ([]planner.Expr, error) {
	xs := make([]planner.Expr, len(es))
	for i, e := range es {
		x, err := b.bindAST(e, c)
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	return xs, nil
}

// bindASTLiteral types a literal as bindLiteral does; neg folds a unary
// minus in.
func (b *binder) bindASTLiteral(e *ast.Literal, neg bool) (planner.Expr, error) {
	at := b.q.tokAt(e.Start)
	switch e.Kind {
	case ast.LitBool:
		return &planner.Const{Val: columnar.BoolValue(strings.EqualFold(e.Val, "true"))}, nil
	case ast.LitNull:
		return &planner.Const{Val: columnar.NullValue(columnar.TNull)}, nil
	case ast.LitString:
		k := &planner.Const{Val: columnar.StringValue(e.Val)}
		b.lits[k] = litInfo{litString, e.Val, at}
		return k, nil
	case ast.LitBlob:
		// X'…' is a BLOB (the lexer decoded its hex digits), as DuckDB's
		// test suite has it: X'41'::VARCHAR is 'A'.
		return &planner.Const{Val: columnar.Value{Type: columnar.TBlob, S: e.Val}}, nil
	}
	isInt, _ := plainNumber(e.Val)
	return b.numberLiteral(e.Val, isInt, neg, at)
}

func (b *binder) bindASTUnary(e *ast.Unary, c ectx) (planner.Expr, error) {
	switch e.Op {
	case "NOT":
		return b.astLogical("not", c, e.X)
	case "~":
		return b.bindBitNot(&callexpr.UnaryExpr{Operator: callexpr.TildaStr, Expr: astSrc(e.X)}, c)
	case "+":
		return b.bindAST(e.X, c)
	}
	if v, ok := e.X.(*ast.Literal); ok && v.Kind == ast.LitNumber {
		return b.bindASTLiteral(v, true)
	}
	x, err := b.bindAST(e.X, c)
	if err != nil {
		return nil, err
	}
	return b.negate(x, astSrc(e.X), c)
}

// astLogical binds AND, OR, NOT over syntax tree operands, as logical.
func (b *binder) astLogical(fn string, c ectx, args ...ast.Expr) (planner.Expr, error) {
	out := make([]planner.Expr, len(args))
	for i, a := range args {
		x, err := b.bindAST(a, c)
		if err != nil {
			return nil, err
		}
		if x, err = b.boolean(x, astSrc(a), c, strings.ToUpper(fn)); err != nil {
			return nil, err
		}
		out[i] = x
	}
	return &planner.Call{Fn: fn, Args: out, T: columnar.TBool}, nil
}

// syntaxSrc carries a syntax tree expression through the call, cast and
// CASE helpers, which take a callexpr.Expr (bindExpr binds it from the
// tree) and position errors with it (leafTok). Its embedded interface is
// nil: no callexpr method may be called on it.
type syntaxSrc struct {
	callexpr.Expr
	n ast.Expr
}

func astSrc(e ast.Expr) callexpr.Expr { return &syntaxSrc{n: e} }

// optSrc is astSrc of an optional expression (nil: nil).
func optSrc(e ast.Expr) callexpr.Expr {
	if e == nil {
		return nil
	}
	return astSrc(e)
}

// callArg is a call argument for the call helpers: a literal as the
// callexpr literal (which some helpers read: date_part's part name),
// anything else wrapped.
func callArg(e ast.Expr) callexpr.Expr {
	if l, ok := e.(*ast.Literal); ok {
		switch l.Kind {
		case ast.LitString:
			return callexpr.NewStrVal([]byte(l.Val), l.Span)
		case ast.LitNumber:
			if isInt, _ := plainNumber(l.Val); isInt {
				return callexpr.NewIntVal([]byte(l.Val), l.Span)
			}
			return callexpr.NewFloatVal([]byte(l.Val), l.Span)
		}
	}
	return astSrc(e)
}

// castType is the type a cast names; ok is false for types b2sql does
// not have (bind_ast_nested.go).
func castType(t *ast.TypeName) (columnar.Type, bool) { return astTypeName(t) }

// astLeaf is the token an error in e points at: its leftmost name or
// literal, as leafTok finds in a call helper expression.
func (b *binder) astLeaf(e ast.Expr) int {
	switch e := e.(type) {
	case *ast.Binary:
		return b.astLeaf(e.L)
	case *ast.Between:
		return b.astLeaf(e.X)
	case *ast.Is:
		return b.astLeaf(e.X)
	case *ast.Like:
		return b.astLeaf(e.X)
	case *ast.InList:
		return b.astLeaf(e.X)
	case *ast.DistinctFrom:
		return b.astLeaf(e.L)
	case *ast.Cast:
		return b.astLeaf(e.X)
	case *ast.TypedLit:
		return b.q.tokAt(e.Start) + 1 // the string after the type's name
	case *ast.Unary:
		if e.Op != "NOT" {
			return b.astLeaf(e.X)
		}
	}
	return b.q.tokAt(e.Extent().Start)
}

// numberLiteral types a number literal of the given text (isInt: digits
// only) at token at, folding a unary minus in (neg): see types.go.
func (b *binder) numberLiteral(text string, isInt, neg bool, at int) (planner.Expr, error) {
	sign := ""
	if neg {
		sign = "-"
	}
	k := &planner.Const{}
	kind := litFloat
	if n, err := strconv.ParseInt(sign+text, 10, 64); err == nil && isInt {
		kind = litInt
		if n >= math.MinInt32 && n <= math.MaxInt32 {
			k.Val = columnar.IntValue(columnar.TInt32, n)
		} else {
			k.Val = columnar.IntValue(columnar.TInt64, n)
		}
	} else if v, ok := wideIntLiteral(sign + text); ok && isInt {
		// Past BIGINT: HUGEINT, then UHUGEINT, as in DuckDB.
		kind = litInt
		k.Val = v
	} else if t, ok := decimalLiteralType(text); ok && !isInt {
		// 1.5 is DECIMAL(2,1), as in DuckDB: 0.1 + 0.2 = 0.3 holds.
		if t.Wide() {
			n, _ := columnar.ParseBigDecimal(sign+text, int(t.Scale))
			k.Val, _ = columnar.WideFromBig(t, n)
		} else {
			n, _ := parseDecimal(sign+text, int(t.Precision), int(t.Scale), false)
			k.Val = columnar.IntValue(t, n)
		}
	} else {
		f, err := strconv.ParseFloat(sign+text, 64)
		if err != nil && !isRangeErr(err) {
			return nil, b.errAt(at, ErrSyntax, fmt.Sprintf("invalid number %q", text))
		}
		k.Val = columnar.FloatValue(columnar.TFloat64, f)
	}
	b.lits[k] = litInfo{kind, sign + text, at}
	return k, nil
}

// quantifiedIn reports x = ANY (q) and x <> ALL (q), which are x IN (q)
// and x NOT IN (q), NULLs included.
func quantifiedIn(e *ast.Quantified) bool {
	if e.Query == nil {
		return false
	}
	return e.Op == "=" && e.Quant == "ANY" || (e.Op == "<>" || e.Op == "!=") && e.Quant == "ALL"
}

// inListExpr is x [NOT] IN list_expression as DuckDB reads it:
// list_contains(list, x), NULL for a NULL x or list, and a NULL element
// no reason for NULL (3 IN [NULL, 2] is false).
func inListExpr(e *ast.InList) ast.Expr {
	call := &ast.Func{Span: e.Span, Name: ast.Name{{Span: e.Span, Name: "list_contains"}}, Args: []ast.Expr{e.List[0], e.X}}
	if e.Not {
		return &ast.Unary{Span: e.Span, Op: "NOT", X: call}
	}
	return call
}

// starCall reports a call of f(*): count(*), and count() with no
// argument, which DuckDB reads as count(*).
func starCall(f *ast.Func) bool {
	return f.Star || len(f.Args) == 0 && len(f.Name) == 1 && strings.EqualFold(f.Name[0].Name, "count")
}
