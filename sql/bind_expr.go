package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// ectx is the context an expression is bound in.
type ectx struct {
	sp     span   // where the expression's text is, for error positions
	clause string // "WHERE", "GROUP BY", … for messages
	aggOK  bool   // aggregate calls allowed (select list, HAVING, ORDER BY)
	inAgg  bool   // inside an aggregate's argument
}

// bindExpr binds one expression; see bind_func.go for calls.
func (b *binder) bindExpr(e sqlparser.Expr, c ectx) (planner.Expr, error) {
	switch e := e.(type) {
	case *sqlparser.ColName:
		return b.bindColumn(e, c)
	case *sqlparser.SQLVal:
		return b.bindLiteral(e, false, c)
	case sqlparser.BoolVal:
		return &planner.Const{Val: columnar.BoolValue(bool(e))}, nil
	case *sqlparser.NullVal:
		return &planner.Const{Val: columnar.NullValue(columnar.TNull)}, nil
	case *sqlparser.ParenExpr:
		return b.bindExpr(e.Expr, c)
	case *sqlparser.AndExpr:
		return b.logical("and", c, e.Left, e.Right)
	case *sqlparser.OrExpr:
		return b.logical("or", c, e.Left, e.Right)
	case *sqlparser.NotExpr:
		return b.logical("not", c, e.Expr)
	case *sqlparser.ComparisonExpr:
		return b.bindComparison(e, c)
	case *sqlparser.RangeCond:
		return b.bindBetween(e, c)
	case *sqlparser.IsExpr:
		return b.bindIs(e, c)
	case *sqlparser.BinaryExpr:
		return b.bindBinary(e, c)
	case *sqlparser.UnaryExpr:
		return b.bindUnary(e, c)
	case *sqlparser.CaseExpr:
		return b.bindCase(e, c)
	case *sqlparser.CollateExpr:
		return b.bindCollate(e, c)
	case *sqlparser.IntervalExpr:
		return b.bindInterval(e, c)
	case *sqlparser.FuncExpr:
		return b.bindFunc(e, c)
	case *sqlparser.SubstrExpr:
		return b.bindSubstr(e, c)
	case *sqlparser.TrimExpr:
		return b.bindTrim(e, c)
	case *sqlparser.ExtractFuncExpr:
		return b.bindDatePart(strings.ToLower(e.Unit), e.Expr, b.q.findKeyword("EXTRACT", c.sp), c)
	case *sqlparser.Subquery, *sqlparser.ExistsExpr:
		return nil, b.errAt(b.subqueryTok(c.sp), ErrUnsupported, "subqueries are not supported")
	case *sqlparser.ConvertExpr:
		return nil, b.errAt(b.q.findKeyword("CONVERT", c.sp), ErrUnsupported, "CONVERT is not supported; use CAST")
	}
	return nil, b.errAt(c.sp.lo, ErrUnsupported, fmt.Sprintf("expression %q is not supported", sqlparser.String(e)))
}

// subqueryTok finds the SELECT of a nested query: the first SELECT in sp
// that is not the query's own.
func (b *binder) subqueryTok(sp span) int {
	return b.q.findToken(sp, func(t token) bool { return t.is("SELECT") && t.off > b.q.toks[0].off || t.is("EXISTS") })
}

// bindColumn resolves a column reference case-insensitively.
func (b *binder) bindColumn(e *sqlparser.ColName, c ectx) (planner.Expr, error) {
	name := e.Name.String()
	qual := e.Qualifier.Name.String()
	at := b.q.findName(qual, name, c.sp)
	if qual != "" {
		known := false
		for _, q := range b.quals {
			known = known || strings.EqualFold(q, qual)
		}
		if !known {
			return nil, b.errAt(at, ErrUnknownTable, fmt.Sprintf("unknown table %q%s", qual, didYouMean(qual, b.quals)))
		}
	}
	var found []planner.Column
	for _, col := range b.scope {
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
				// use a select alias that is not an input column.
				key := strings.ToLower(name)
				b.expanding[key] = true
				defer delete(b.expanding, key)
				ac := c
				ac.sp = it.sp
				return b.bindExpr(it.src, ac)
			}
		}
		full := name
		if qual != "" {
			full = qual + "." + name
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
func (b *binder) bindLiteral(e *sqlparser.SQLVal, neg bool, c ectx) (planner.Expr, error) {
	text := string(e.Val)
	sign := ""
	if neg {
		sign = "-"
	}
	switch e.Type {
	case sqlparser.StrVal:
		i := b.q.findToken(c.sp, func(t token) bool { return t.kind == tkString && t.val == text })
		k := &planner.Const{Val: columnar.StringValue(text)}
		b.lits[k] = litInfo{litString, text, i}
		return k, nil
	case sqlparser.IntVal, sqlparser.FloatVal:
		i := b.q.findToken(c.sp, func(t token) bool { return t.kind == tkNumber && t.val == text })
		k := &planner.Const{}
		kind := litFloat
		if n, err := strconv.ParseInt(sign+text, 10, 64); err == nil && e.Type == sqlparser.IntVal {
			kind = litInt
			if n >= math.MinInt32 && n <= math.MaxInt32 {
				k.Val = columnar.IntValue(columnar.TInt32, n)
			} else {
				k.Val = columnar.IntValue(columnar.TInt64, n)
			}
		} else if u, err := strconv.ParseUint(text, 10, 64); err == nil && !neg && e.Type == sqlparser.IntVal {
			kind = litInt
			k.Val = columnar.UintValue(u)
		} else if t, ok := decimalLiteralType(text); ok && e.Type == sqlparser.FloatVal {
			// 1.5 is DECIMAL(2,1), as in DuckDB: 0.1 + 0.2 = 0.3 holds.
			n, _ := parseDecimal(sign+text, int(t.Precision), int(t.Scale), false)
			k.Val = columnar.IntValue(t, n)
		} else {
			f, err := strconv.ParseFloat(sign+text, 64)
			if err != nil && !isRangeErr(err) {
				return nil, b.errAt(i, ErrSyntax, fmt.Sprintf("invalid number %q", text))
			}
			k.Val = columnar.FloatValue(columnar.TFloat64, f)
		}
		b.lits[k] = litInfo{kind, sign + text, i}
		return k, nil
	}
	i := b.q.findToken(c.sp, func(t token) bool { return t.val == text })
	return nil, b.errAt(i, ErrUnsupported, fmt.Sprintf("literal %s is not supported", sqlparser.String(e)))
}

// decimalLiteralType returns the DECIMAL type of a literal written with a
// point and no exponent: precision is its digit count, scale its fraction
// digits. Literals needing more than 18 digits are DOUBLE.
func decimalLiteralType(text string) (columnar.Type, bool) {
	if strings.ContainsAny(text, "eE") {
		return columnar.Type{}, false
	}
	whole, frac, _ := strings.Cut(text, ".")
	whole = strings.TrimLeft(whole, "0")
	p := max(len(whole)+len(frac), 1)
	if p > maxDecimal {
		return columnar.Type{}, false
	}
	return columnar.DecimalType(p, len(frac)), true
}

// leafTok returns a token to blame for an error in expression e: its
// leftmost name or literal.
func (b *binder) leafTok(e sqlparser.Expr, sp span) int {
	switch e := e.(type) {
	case *sqlparser.ColName:
		return b.q.findName(e.Qualifier.Name.String(), e.Name.String(), sp)
	case *sqlparser.SQLVal:
		text := string(e.Val)
		return b.q.findToken(sp, func(t token) bool { return (t.kind == tkString || t.kind == tkNumber) && t.val == text })
	case *sqlparser.FuncExpr:
		return b.q.findName("", e.Name.String(), sp)
	case *sqlparser.ComparisonExpr:
		return b.leafTok(e.Left, sp)
	case *sqlparser.BinaryExpr:
		return b.leafTok(e.Left, sp)
	case *sqlparser.RangeCond:
		return b.leafTok(e.Left, sp)
	case *sqlparser.IsExpr:
		return b.leafTok(e.Expr, sp)
	case *sqlparser.AndExpr:
		return b.leafTok(e.Left, sp)
	case *sqlparser.OrExpr:
		return b.leafTok(e.Left, sp)
	case *sqlparser.CollateExpr:
		return b.leafTok(e.Expr, sp)
	case *sqlparser.ParenExpr:
		return b.leafTok(e.Expr, sp)
	case *sqlparser.UnaryExpr:
		return b.leafTok(e.Expr, sp)
	case *sqlparser.NotExpr:
		return b.q.findKeyword("NOT", sp)
	case *sqlparser.CaseExpr:
		return b.q.findKeyword("CASE", sp)
	}
	return sp.lo
}

// typeErr reports a type error at expression e.
func (b *binder) typeErr(e sqlparser.Expr, c ectx, format string, args ...any) error {
	return b.errAt(b.leafTok(e, c.sp), ErrType, fmt.Sprintf(format, args...))
}

// coerce converts x to type to, folding literal casts. src locates errors.
func (b *binder) coerce(x planner.Expr, to columnar.Type, src sqlparser.Expr, c ectx) (planner.Expr, error) {
	if x.Type() == to {
		return x, nil
	}
	if k, ok := x.(*planner.Const); ok {
		if info, isLit := b.lits[k]; isLit && info.kind == litFloat && to.ID == columnar.Decimal {
			// Exact decimal literals: 1.1 must not pick up binary rounding.
			if n, ok := parseDecimal(info.text, int(to.Precision), int(to.Scale), true); ok {
				return &planner.Const{Val: columnar.IntValue(to, n)}, nil
			}
		}
		v, done, err := castConst(k.Val, to)
		if err != nil {
			at := c.sp.lo
			if info, ok := b.lits[k]; ok {
				at = info.tok
			} else if src != nil {
				at = b.leafTok(src, c.sp)
			}
			return nil, b.errAt(at, ErrType, fmt.Sprintf("could not cast %s to %s", k, to))
		}
		if done {
			return &planner.Const{Val: v}, nil
		}
	}
	return &planner.Cast{Arg: x, To: to}, nil
}

// flexible reports whether x is an untyped literal that takes the type of
// what it meets: a string literal, NULL, or (when compare is set) a numeric
// literal exactly representable in type other.
func (b *binder) flexible(x planner.Expr, other columnar.Type, compare bool) bool {
	k, ok := x.(*planner.Const)
	if !ok {
		return false
	}
	if k.Val.Null && k.Val.Type.ID == columnar.Null {
		return true
	}
	info, ok := b.lits[k]
	if !ok {
		return false
	}
	switch info.kind {
	case litString:
		return other.ID != columnar.Varchar && other.ID != columnar.Null
	case litInt, litFloat:
		if !compare || !other.IsNumeric() {
			return false
		}
		if other.ID == columnar.Decimal {
			_, ok := parseDecimal(info.text, int(other.Precision), int(other.Scale), false)
			return ok
		}
		v, done, err := castConst(k.Val, other)
		if !done || err != nil {
			return false
		}
		back, _, err := castConst(v, k.Val.Type)
		return err == nil && columnar.Compare(back, k.Val) == 0
	}
	return false
}

// unify converts xs to one common type. compare selects the comparison
// rules (numeric literals fit to the other side).
func (b *binder) unify(xs []planner.Expr, srcs []sqlparser.Expr, c ectx, compare bool, what string) ([]planner.Expr, columnar.Type, error) {
	// The type of the non-flexible operands decides.
	var t columnar.Type
	have := false
	for _, x := range xs {
		if have && b.flexible(x, t, compare) {
			continue
		}
		if !have {
			// Decide whether x is flexible against any non-literal operand.
			flex := false
			for _, y := range xs {
				if y != x && !b.isLiteral(y) && b.flexible(x, y.Type(), compare) {
					flex = true
					break
				}
			}
			if flex || (b.isNullLit(x) && len(xs) > 1) {
				continue
			}
			t, have = x.Type(), true
			continue
		}
		st, ok := superType(t, x.Type())
		if !ok {
			return nil, t, b.typeErrAt(srcs, xs, c, what, t, x.Type())
		}
		t = st
	}
	if !have {
		// Only literals: strings win over NULL; numbers are typed already.
		t = columnar.TNull
		for _, x := range xs {
			if st, ok := superType(t, x.Type()); ok {
				t = st
			} else {
				return nil, t, b.typeErrAt(srcs, xs, c, what, t, x.Type())
			}
		}
	}
	out := make([]planner.Expr, len(xs))
	for i, x := range xs {
		var src sqlparser.Expr
		if i < len(srcs) {
			src = srcs[i]
		}
		y, err := b.coerce(x, t, src, c)
		if err != nil {
			return nil, t, err
		}
		out[i] = y
	}
	return out, t, nil
}

func (b *binder) typeErrAt(srcs []sqlparser.Expr, xs []planner.Expr, c ectx, what string, a, bt columnar.Type) error {
	at := c.sp.lo
	if len(srcs) > 0 && srcs[0] != nil {
		at = b.leafTok(srcs[0], c.sp)
	}
	return b.errAt(at, ErrType, fmt.Sprintf("cannot %s %s with %s", what, a, bt))
}

func (b *binder) isLiteral(x planner.Expr) bool {
	k, ok := x.(*planner.Const)
	if !ok {
		return false
	}
	_, lit := b.lits[k]
	return lit || (k.Val.Null && k.Val.Type.ID == columnar.Null)
}

func (b *binder) isNullLit(x planner.Expr) bool {
	k, ok := x.(*planner.Const)
	return ok && k.Val.Null && k.Val.Type.ID == columnar.Null
}

// logical binds AND, OR, NOT: BOOLEAN operands (NULL allowed).
func (b *binder) logical(fn string, c ectx, args ...sqlparser.Expr) (planner.Expr, error) {
	out := make([]planner.Expr, len(args))
	for i, a := range args {
		x, err := b.bindExpr(a, c)
		if err != nil {
			return nil, err
		}
		if x, err = b.boolean(x, a, c, strings.ToUpper(fn)); err != nil {
			return nil, err
		}
		out[i] = x
	}
	return &planner.Call{Fn: fn, Args: out, T: columnar.TBool}, nil
}

// boolean checks that x is BOOLEAN (a NULL or 'true' literal converts).
func (b *binder) boolean(x planner.Expr, src sqlparser.Expr, c ectx, where string) (planner.Expr, error) {
	if x.Type().ID == columnar.Bool {
		return x, nil
	}
	if b.isLiteral(x) && (x.Type().ID == columnar.Null || x.Type().ID == columnar.Varchar) {
		return b.coerce(x, columnar.TBool, src, c)
	}
	return nil, b.typeErr(src, c, "%s expects BOOLEAN, got %s", where, x.Type())
}

var comparisonFns = map[string]string{
	"=": "=", "!=": "<>", "<>": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
	"like": "like", "not like": "not_like", "regexp": "ilike", "not regexp": "not_ilike",
	"in": "in", "not in": "not_in",
}

func (b *binder) bindComparison(e *sqlparser.ComparisonExpr, c ectx) (planner.Expr, error) {
	fn, ok := comparisonFns[e.Operator]
	if !ok {
		return nil, b.errAt(b.leafTok(e.Right, c.sp), ErrUnsupported, fmt.Sprintf("operator %q is not supported", e.Operator))
	}
	if e.Escape != nil {
		return nil, b.errAt(b.q.findKeyword("ESCAPE", c.sp), ErrUnsupported, "LIKE … ESCAPE is not supported")
	}
	left, err := b.bindExpr(e.Left, c)
	if err != nil {
		return nil, err
	}
	if fn == "in" || fn == "not_in" {
		tuple, ok := e.Right.(sqlparser.ValTuple)
		if !ok {
			return nil, b.errAt(b.subqueryTok(c.sp), ErrUnsupported, "subqueries are not supported")
		}
		xs := []planner.Expr{left}
		srcs := []sqlparser.Expr{e.Left}
		for _, v := range tuple {
			x, err := b.bindExpr(v, c)
			if err != nil {
				return nil, err
			}
			xs = append(xs, x)
			srcs = append(srcs, v)
		}
		xs, _, err := b.unify(xs, srcs, c, true, "compare")
		if err != nil {
			return nil, err
		}
		return &planner.Call{Fn: fn, Args: xs, T: columnar.TBool}, nil
	}
	right, err := b.bindExpr(e.Right, c)
	if err != nil {
		return nil, err
	}
	if strings.Contains(fn, "like") {
		l, err := b.coerce(left, columnar.TVarchar, e.Left, c)
		if err != nil {
			return nil, err
		}
		r, err := b.coerce(right, columnar.TVarchar, e.Right, c)
		if err != nil {
			return nil, err
		}
		for i, x := range []planner.Expr{left, right} {
			if t := x.Type(); t.ID != columnar.Varchar && t.ID != columnar.Null {
				src := []sqlparser.Expr{e.Left, e.Right}[i]
				return nil, b.typeErr(src, c, "%s expects VARCHAR, got %s", strings.ToUpper(strings.ReplaceAll(fn, "_", " ")), t)
			}
		}
		return &planner.Call{Fn: fn, Args: []planner.Expr{l, r}, T: columnar.TBool}, nil
	}
	return b.compare(fn, left, right, e.Left, e.Right, c)
}

// compare builds left op right after unifying the operand types.
func (b *binder) compare(fn string, left, right planner.Expr, ls, rs sqlparser.Expr, c ectx) (planner.Expr, error) {
	xs, _, err := b.unify([]planner.Expr{left, right}, []sqlparser.Expr{ls, rs}, c, true, "compare")
	if err != nil {
		return nil, err
	}
	return &planner.Call{Fn: fn, Args: xs, T: columnar.TBool}, nil
}

// bindBetween rewrites x BETWEEN a AND b as x >= a AND x <= b, and NOT
// BETWEEN as x < a OR x > b (equal under three-valued logic).
func (b *binder) bindBetween(e *sqlparser.RangeCond, c ectx) (planner.Expr, error) {
	x, err := b.bindExpr(e.Left, c)
	if err != nil {
		return nil, err
	}
	lo, err := b.bindExpr(e.From, c)
	if err != nil {
		return nil, err
	}
	hi, err := b.bindExpr(e.To, c)
	if err != nil {
		return nil, err
	}
	xs, _, err := b.unify([]planner.Expr{x, lo, hi}, []sqlparser.Expr{e.Left, e.From, e.To}, c, true, "compare")
	if err != nil {
		return nil, err
	}
	geq, leq, join := ">=", "<=", "and"
	if e.Operator == sqlparser.NotBetweenStr {
		geq, leq, join = "<", ">", "or"
	}
	return &planner.Call{Fn: join, T: columnar.TBool, Args: []planner.Expr{
		&planner.Call{Fn: geq, Args: []planner.Expr{xs[0], xs[1]}, T: columnar.TBool},
		&planner.Call{Fn: leq, Args: []planner.Expr{xs[0], xs[2]}, T: columnar.TBool},
	}}, nil
}

func (b *binder) bindIs(e *sqlparser.IsExpr, c ectx) (planner.Expr, error) {
	x, err := b.bindExpr(e.Expr, c)
	if err != nil {
		return nil, err
	}
	switch e.Operator {
	case sqlparser.IsNullStr:
		return &planner.Call{Fn: "is_null", Args: []planner.Expr{x}, T: columnar.TBool}, nil
	case sqlparser.IsNotNullStr:
		return &planner.Call{Fn: "is_not_null", Args: []planner.Expr{x}, T: columnar.TBool}, nil
	}
	// x IS [NOT] TRUE|FALSE: never NULL, so COALESCE the test with FALSE.
	if x, err = b.boolean(x, e.Expr, c, "IS"); err != nil {
		return nil, err
	}
	if strings.HasSuffix(e.Operator, "false") {
		x = &planner.Call{Fn: "not", Args: []planner.Expr{x}, T: columnar.TBool}
	}
	var out planner.Expr = &planner.Call{Fn: "coalesce", Args: []planner.Expr{x, &planner.Const{Val: columnar.BoolValue(false)}}, T: columnar.TBool}
	if strings.Contains(e.Operator, "not") {
		out = &planner.Call{Fn: "not", Args: []planner.Expr{out}, T: columnar.TBool}
	}
	return out, nil
}

func (b *binder) bindUnary(e *sqlparser.UnaryExpr, c ectx) (planner.Expr, error) {
	switch e.Operator {
	case sqlparser.UMinusStr:
		if v, ok := e.Expr.(*sqlparser.SQLVal); ok && (v.Type == sqlparser.IntVal || v.Type == sqlparser.FloatVal) {
			return b.bindLiteral(v, true, c)
		}
		x, err := b.bindExpr(e.Expr, c)
		if err != nil {
			return nil, err
		}
		if x.Type().ID == columnar.Null {
			return x, nil
		}
		if !x.Type().IsNumeric() && x.Type().ID != columnar.Interval {
			return nil, b.typeErr(e.Expr, c, "cannot negate %s", x.Type())
		}
		return &planner.Call{Fn: "neg", Args: []planner.Expr{x}, T: x.Type()}, nil
	case sqlparser.UPlusStr:
		return b.bindExpr(e.Expr, c)
	}
	return nil, b.errAt(b.leafTok(e.Expr, c.sp), ErrUnsupported, fmt.Sprintf("operator %q is not supported", e.Operator))
}

// bindCase binds searched and simple CASE (the latter as x = v arms).
func (b *binder) bindCase(e *sqlparser.CaseExpr, c ectx) (planner.Expr, error) {
	var subject planner.Expr
	if e.Expr != nil {
		x, err := b.bindExpr(e.Expr, c)
		if err != nil {
			return nil, err
		}
		subject = x
	}
	out := &planner.Case{}
	var thens []planner.Expr
	var thenSrcs []sqlparser.Expr
	for _, w := range e.Whens {
		cond, err := b.bindExpr(w.Cond, c)
		if err != nil {
			return nil, err
		}
		if subject != nil {
			if cond, err = b.compare("=", subject, cond, e.Expr, w.Cond, c); err != nil {
				return nil, err
			}
		} else if cond, err = b.boolean(cond, w.Cond, c, "WHEN"); err != nil {
			return nil, err
		}
		then, err := b.bindExpr(w.Val, c)
		if err != nil {
			return nil, err
		}
		out.Whens = append(out.Whens, planner.When{Cond: cond})
		thens = append(thens, then)
		thenSrcs = append(thenSrcs, w.Val)
	}
	if e.Else != nil {
		x, err := b.bindExpr(e.Else, c)
		if err != nil {
			return nil, err
		}
		thens = append(thens, x)
		thenSrcs = append(thenSrcs, e.Else)
	}
	thens, t, err := b.unify(thens, thenSrcs, c, false, "mix")
	if err != nil {
		return nil, err
	}
	for i := range out.Whens {
		out.Whens[i].Then = thens[i]
	}
	if e.Else != nil {
		out.Else = thens[len(thens)-1]
	}
	out.T = t
	return out, nil
}

// bindCollate binds the casts the rewriter encoded as COLLATE markers.
func (b *binder) bindCollate(e *sqlparser.CollateExpr, c ectx) (planner.Expr, error) {
	var mark string
	for _, m := range []string{markCast, markTryCast, markLit} {
		if strings.HasPrefix(e.Collation, m) {
			mark = m
		}
	}
	if mark == "" {
		return nil, b.errAt(b.q.findKeyword("COLLATE", c.sp), ErrUnsupported, "COLLATE is not supported")
	}
	to, ok := typeFromMarker(strings.TrimPrefix(e.Collation, mark))
	if !ok {
		return nil, b.errAt(c.sp.lo, ErrType, fmt.Sprintf("unknown type %q", strings.TrimPrefix(e.Collation, mark)))
	}
	x, err := b.bindExpr(e.Expr, c)
	if err != nil {
		return nil, err
	}
	if !canCast(x.Type(), to) {
		return nil, b.typeErr(e.Expr, c, "cannot cast %s to %s", x.Type(), to)
	}
	if mark == markTryCast {
		if k, ok := x.(*planner.Const); ok {
			if v, done, err := castConst(k.Val, to); done {
				if err != nil {
					return &planner.Const{Val: columnar.NullValue(to)}, nil
				}
				return &planner.Const{Val: v}, nil
			}
		}
		if x.Type() == to {
			return x, nil
		}
		return &planner.Cast{Arg: x, To: to, Try: true}, nil
	}
	out, err := b.coerce(x, to, e.Expr, c)
	if err != nil {
		return nil, err
	}
	if k, ok := out.(*planner.Const); ok {
		if _, lit := b.lits[k]; lit {
			// An explicitly cast literal is typed: it no longer adapts.
			out = &planner.Const{Val: k.Val}
		}
	}
	return out, nil
}

// bindInterval binds INTERVAL 'text' and INTERVAL n unit to a constant.
func (b *binder) bindInterval(e *sqlparser.IntervalExpr, c ectx) (planner.Expr, error) {
	at := b.q.findKeyword("INTERVAL", c.sp)
	v, ok := e.Expr.(*sqlparser.SQLVal)
	neg := false
	if u, isU := e.Expr.(*sqlparser.UnaryExpr); isU && u.Operator == sqlparser.UMinusStr {
		v, ok = u.Expr.(*sqlparser.SQLVal)
		neg = true
	}
	if !ok {
		return nil, b.errAt(at, ErrUnsupported, "INTERVAL needs a constant")
	}
	text := string(v.Val)
	var us int64
	if e.Unit == markNoUnit {
		n, ok := parseInterval(text)
		if !ok || v.Type != sqlparser.StrVal {
			return nil, b.errAt(at, ErrType, fmt.Sprintf("could not cast %q to INTERVAL", text))
		}
		us = n
	} else {
		m, ok := intervalUnits[strings.ToLower(e.Unit)]
		if !ok {
			return nil, b.errAt(at, ErrType, fmt.Sprintf("unknown interval unit %q", e.Unit))
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || math.Abs(f*float64(m)) >= 1<<63 {
			return nil, b.errAt(at, ErrType, fmt.Sprintf("could not cast %q to INTERVAL", text))
		}
		us = int64(math.Round(f * float64(m)))
	}
	if neg {
		us = -us
	}
	return &planner.Const{Val: columnar.IntValue(columnar.TInterval, us)}, nil
}
