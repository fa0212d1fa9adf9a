package sql

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// ectx is the context an expression is bound in.
type ectx struct {
	sp     span   // where the expression's text is, for error positions
	clause string // "WHERE", "GROUP BY", … for messages
	aggOK  bool   // aggregate calls allowed (select list, HAVING, ORDER BY)
	inAgg  bool   // inside an aggregate's argument
}

// bindExpr binds one expression; see bind_func.go for calls.
func (b *binder) bindExpr(e callexpr.Expr, c ectx) (planner.Expr, error) {
	switch e := e.(type) {
	case *syntaxSrc: // a syntax tree operand of a call, cast or CASE helper
		return b.bindAST(e.n, c)
	case *callexpr.ColName:
		return b.bindColumn(e, c)
	case *callexpr.SQLVal:
		return b.bindLiteral(e, false, c)
	case callexpr.BoolVal:
		return &planner.Const{Val: columnar.BoolValue(bool(e))}, nil
	case *callexpr.NullVal:
		return &planner.Const{Val: columnar.NullValue(columnar.TNull)}, nil
	case *callexpr.OrExpr:
		return b.logical("or", c, e.Left, e.Right)
	case *callexpr.IsExpr:
		return b.bindIs(e, c)
	case *callexpr.BinaryExpr:
		return b.bindBinary(e, c)
	case *callexpr.UnaryExpr:
		return b.bindUnary(e, c)
	case *callexpr.CaseExpr:
		return b.bindCase(e, c)
	case *callexpr.FuncExpr:
		return b.bindFunc(e, c)
	case *callexpr.FilterExpr:
		return b.bindFilterArg(e, c) // bind_window.go
	case *boundArg:
		return e.x, nil // bind_bound_arg.go
	}
	return nil, b.errAt(c.sp.lo, ErrUnsupported, fmt.Sprintf("expression %q is not supported", callexpr.String(e)))
}

// bindColumn resolves a column reference case-insensitively.
func (b *binder) bindColumn(e *callexpr.ColName, c ectx) (planner.Expr, error) {
	name := e.Name.String()
	qual := e.Qualifier.Name.String()
	return b.bindColumnName(qual, name, b.q.tok(e.At), c)
}

// bindColumnName resolves [qual.]name written at token at.
func (b *binder) bindColumnName(qual, name string, at int, c ectx) (planner.Expr, error) {
	if qual != "" {
		known := false
		for _, q := range b.quals {
			known = known || strings.EqualFold(q, qual)
		}
		if !known {
			if col, ok := b.lookupOuter(qual, name); ok {
				return &planner.ColRef{Col: col}, nil
			}
		}
		if !known && b.enclosingHas(qual, name, 0) {
			return nil, b.errAt(at, ErrUnsupported, fmt.Sprintf("a subquery in FROM or WITH that reads %q of an enclosing query (a correlated derived table) is not supported", qual+"."+name))
		}
		if !known && !b.expanding[strings.ToLower(qual)] {
			// s.a: field a of a struct column s (bind_ast_nested.go).
			if x, err := b.bindColumnName("", qual, at, c); err == nil && x.Type().ID == columnar.Struct {
				return b.field(x, name, nil, at, c)
			}
		}
		if !known {
			return nil, b.errAt(at, ErrUnknownTable, fmt.Sprintf("unknown table %q%s", qual, didYouMean(qual, b.quals)))
		}
	}
	var found []planner.Column
	for _, col := range b.scope {
		if qual == "" && b.hidden[col.ID]&hideBare != 0 {
			continue
		}
		if strings.EqualFold(col.Name, name) && (qual == "" || strings.EqualFold(col.Table, qual)) {
			found = append(found, col)
		}
	}
	switch len(found) {
	case 1:
		return &planner.ColRef{Col: found[0]}, nil
	case 0:
		if qual == "" {
			if it, ok := b.aliasFor(name); ok {
				// DuckDB lets WHERE, GROUP BY, HAVING and later select items
				// use a select alias that is not an input column; in GROUP
				// BY only as a whole key (bindGroupByAST), not inside one.
				if c.clause == "GROUP BY" {
					return nil, b.errAt(at, ErrGrouping, fmt.Sprintf("alias with name %q exists, but aliases cannot be used as part of an expression in the GROUP BY", name))
				}
				key := strings.ToLower(name)
				b.expanding[key] = true
				defer delete(b.expanding, key)
				ac := c
				ac.sp = it.sp
				return b.bindClauseExpr(it.src, ac)
			}
		}
		if col, ok := b.lookupOuter(qual, name); ok {
			return &planner.ColRef{Col: col}, nil
		}
		full := name
		if qual != "" {
			full = qual + "." + name
		}
		if b.enclosingHas(qual, name, 0) {
			return nil, b.errAt(at, ErrUnsupported, fmt.Sprintf("a subquery in FROM or WITH that reads %q of an enclosing query (a correlated derived table) is not supported", full))
		}
		if t, ok := b.unreadable[strings.ToLower(name)]; ok && (qual == "" || strings.EqualFold(qual, t)) {
			return nil, b.errAt(at, ErrUnsupported, fmt.Sprintf("column %q of %s is of a type b2sql does not read (a nested LIST, STRUCT or MAP, or a CTable column kind it cannot decode)", name, t))
		}
		names := make([]string, len(b.scope))
		for i, col := range b.scope {
			names[i] = col.Name
		}
		return nil, b.errAt(at, ErrUnknownColumn, fmt.Sprintf("unknown column %q%s", full, didYouMean(name, names)))
	}
	return nil, b.errAt(at, ErrAmbiguousColumn, fmt.Sprintf("column reference %q is ambiguous", name))
}

// aliasFor returns the select item aliased name, unless it is being
// expanded already (SELECT y AS x, x AS y would loop).
func (b *binder) aliasFor(name string) (selItem, bool) {
	if b.expanding[strings.ToLower(name)] {
		return selItem{}, false
	}
	for _, it := range b.items {
		if it.alias != "" && it.src != nil && strings.EqualFold(it.alias, name) {
			return it, true
		}
	}
	return selItem{}, false
}

// bindLiteral types a literal: see types.go. neg folds a unary minus in.
func (b *binder) bindLiteral(e *callexpr.SQLVal, neg bool, c ectx) (planner.Expr, error) {
	text := string(e.Val)
	i := b.q.tok(e.At)
	switch e.Type {
	case callexpr.StrVal:
		k := &planner.Const{Val: columnar.StringValue(text)}
		b.lits[k] = litInfo{litString, text, i}
		return k, nil
	case callexpr.IntVal, callexpr.FloatVal:
		return b.numberLiteral(text, e.Type == callexpr.IntVal, neg, i)
	}
	return nil, b.errAt(i, ErrUnsupported, fmt.Sprintf("literal %s is not supported", callexpr.String(e)))
}

// bindParam binds marker p to its value, number n (1-based) of the
// statement's parameters.
func (b *binder) bindParam(n int, p *ast.Param) (planner.Expr, error) {
	at := b.q.tokAt(p.Start)
	if n < 1 || n > len(b.params) {
		what := b.q.src.Text[p.Start:p.End]
		if p.Index == 0 && p.Name == "" {
			what = strconv.Itoa(n) // ?, which the user counts
		}
		return nil, b.errAt(at, ErrParam, "no value for parameter "+what)
	}
	v := b.params[n-1]
	k := &planner.Const{Val: v}
	// A value adapts to what it meets, like the literal it stands for.
	switch {
	case v.Null:
	case v.Type.ID == columnar.Varchar:
		b.lits[k] = litInfo{litString, v.S, at}
	case v.Type.IsInteger():
		b.lits[k] = litInfo{litInt, v.String(), at}
	case v.Type.IsFloat() || v.Type.ID == columnar.Decimal:
		b.lits[k] = litInfo{litFloat, v.String(), at}
	}
	return k, nil
}

// decimalLiteralType returns the DECIMAL type of a literal written with a
// point and no exponent: precision is its digit count, scale its fraction
// digits. Literals of more than 38 digits are DOUBLE.
func decimalLiteralType(text string) (columnar.Type, bool) {
	if strings.ContainsAny(text, "eE") {
		return columnar.Type{}, false
	}
	// Every digit written counts, leading zeros too, as in DuckDB (0.5 is
	// DECIMAL(2,1), .5 DECIMAL(1,1)).
	whole, frac, _ := strings.Cut(text, ".")
	p := max(len(whole)+len(frac), 1)
	if p > columnar.MaxDecimal {
		return columnar.Type{}, false
	}
	return columnar.DecimalType(p, len(frac)), true
}

// leafTok returns a token to blame for an error in expression e: its
// leftmost name or literal.
func (b *binder) leafTok(e callexpr.Expr, sp span) int {
	switch e := e.(type) {
	case *syntaxSrc:
		return b.astLeaf(e.n)
	case *boundArg:
		return b.leafTok(e.src, sp)
	case *callexpr.ColName:
		return b.q.tok(e.At)
	case *callexpr.SQLVal:
		return b.q.tok(e.At)
	case *callexpr.FuncExpr:
		return b.q.tok(e.At)
	case *callexpr.BinaryExpr:
		return b.leafTok(e.Left, sp)
	case *callexpr.IsExpr:
		return b.leafTok(e.Expr, sp)
	case *callexpr.OrExpr:
		return b.leafTok(e.Left, sp)
	case *callexpr.UnaryExpr:
		return b.leafTok(e.Expr, sp)
	case *callexpr.CaseExpr:
		return b.q.tok(e.At)
	}
	return sp.lo
}

// typeErr reports a type error at expression e.
func (b *binder) typeErr(e callexpr.Expr, c ectx, format string, args ...any) error {
	return b.errAt(b.leafTok(e, c.sp), ErrType, fmt.Sprintf(format, args...))
}

// wideIntLiteral types an integer literal past BIGINT's range: HUGEINT
// when it fits 128 signed bits, else UHUGEINT when it fits 128 unsigned
// bits (DuckDB's literal types); false past that (a DOUBLE).
func wideIntLiteral(text string) (columnar.Value, bool) {
	n, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return columnar.Value{}, false
	}
	if v, ok := columnar.WideFromBig(columnar.THugeint, n); ok {
		return v, true
	}
	return columnar.WideFromBig(columnar.TUhugeint, n)
}
