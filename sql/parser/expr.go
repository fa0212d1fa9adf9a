package parser

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// Binding powers, lowest first, as DuckDB's grammar (PostgreSQL's, with
// the lambda arrow below OR): see doc.go for the table.
const (
	precLambda  = 1 + iota // -> ->>
	precOr                 // OR
	precAnd                // AND
	precNot                // NOT (prefix)
	precIs                 // IS, ISNULL, NOTNULL
	precCmp                // = <> < > <= >= (not associative)
	precLike               // BETWEEN IN LIKE ILIKE GLOB SIMILAR
	precEscape             // ESCAPE
	precOp                 // any other operator: || ~ ^@ << & …
	precAdd                // + -
	precMul                // * / // %
	precPow                // ^ **
	precAt                 // AT TIME ZONE
	precCollate            // COLLATE
	precUnary              // unary - +
)

// expr parses an expression.
func (p *parser) expr() ast.Expr { return p.exprPrec(precLambda) }

// exprPrec parses an expression whose binary operators all bind at least
// as tightly as min.
func (p *parser) exprPrec(min int) ast.Expr {
	p.enter()
	defer p.leave()
	s := p.start()
	var left ast.Expr
	if p.isWord("NOT") {
		p.advance()
		x := p.exprPrec(precNot)
		left = &ast.Unary{Span: p.span(s), Op: "NOT", X: x}
	} else {
		left = p.unary()
	}
	lastCmp := false
	for {
		t := p.tok()
		prec := p.binaryPrec()
		if prec == 0 || prec < min {
			return left
		}
		if prec == precCmp {
			if lastCmp {
				p.fail("comparison operators do not associate; add parentheses")
			}
			lastCmp = true
		} else {
			lastCmp = false
		}
		left = p.binary(left, t, prec, s)
	}
}

// binaryPrec returns the binding power of the operator at the current
// token, 0 if it is none.
func (p *parser) binaryPrec() int {
	t := p.tok()
	switch t.kind {
	case tOp:
		switch t.val {
		case "->", "->>":
			return precLambda
		case "=", "==", "<>", "!=", "<", ">", "<=", ">=":
			return precCmp
		case "+", "-":
			return precAdd
		case "*", "/", "//", "%":
			if t.val == "%" && p.percentEnds() {
				return 0
			}
			return precMul
		case "^", "**":
			return precPow
		}
		if strings.IndexByte(opChars, t.val[0]) >= 0 {
			return precOp
		}
	case tIdent:
		switch {
		case isKeyword(t.val, "OR"):
			return precOr
		case isKeyword(t.val, "AND"):
			return precAnd
		case isKeyword(t.val, "IS"), isKeyword(t.val, "ISNULL"), isKeyword(t.val, "NOTNULL"):
			return precIs
		case isKeyword(t.val, "NOT"):
			switch n := p.peek(1); {
			case n.kind != tIdent:
			case isKeyword(n.val, "NULL"):
				return precIs
			case isKeyword(n.val, "LIKE"), isKeyword(n.val, "ILIKE"), isKeyword(n.val, "GLOB"),
				isKeyword(n.val, "SIMILAR"), isKeyword(n.val, "BETWEEN"), isKeyword(n.val, "IN"):
				return precLike
			}
		case isKeyword(t.val, "LIKE"), isKeyword(t.val, "ILIKE"), isKeyword(t.val, "GLOB"),
			isKeyword(t.val, "BETWEEN"), isKeyword(t.val, "IN"):
			return precLike
		case isKeyword(t.val, "SIMILAR") && p.isWordAt(1, "TO"):
			return precLike
		case isKeyword(t.val, "AT") && p.isWordAt(1, "TIME") && p.isWordAt(2, "ZONE"):
			return precAt
		case isKeyword(t.val, "COLLATE"):
			return precCollate
		}
	}
	return 0
}

// percentEnds reports whether a % ends a LIMIT (LIMIT 10%) rather than
// being the modulo operator.
func (p *parser) percentEnds() bool {
	if !p.inLimit {
		return false
	}
	n := p.peek(1)
	switch n.kind {
	case tEOF:
		return true
	case tOp:
		return n.val == ";" || n.val == ")" || n.val == ","
	case tIdent:
		return n.cat == catReserved && !startsExprWord(n.val) || isKeyword(n.val, "ROWS") || isKeyword(n.val, "ROW")
	}
	return false
}

// startsExprWord reports whether the reserved word w may start an expression.
func startsExprWord(w string) bool {
	for _, k := range []string{"NOT", "CASE", "CAST", "NULL", "TRUE", "FALSE", "EXISTS", "ARRAY", "LAMBDA", "DEFAULT"} {
		if isKeyword(w, k) {
			return true
		}
	}
	return false
}

// binary parses the right side of the operator at token t (binding power
// prec) applied to left, which started at s.
func (p *parser) binary(left ast.Expr, t token, prec, s int) ast.Expr {
	if t.kind == tOp {
		p.advance()
		op := t.val
		switch op {
		case "==":
			op = "="
		case "!=":
			op = "<>"
		case "**":
			op = "^"
		}
		if prec == precCmp || prec == precOp {
			if q := p.quantified(left, op, s); q != nil {
				return q
			}
		}
		r := p.operand(prec+1, t)
		if op == "->" {
			if params, ok := lambdaParams(left); ok {
				return &ast.Lambda{Span: p.span(s), Params: params, Body: r}
			}
		}
		return &ast.Binary{Span: p.span(s), Op: op, L: left, R: r}
	}
	switch {
	case p.acceptWord("OR"):
		r := p.operand(precOr+1, t) // before the span, which ends after it
		return &ast.Binary{Span: p.span(s), Op: "OR", L: left, R: r}
	case p.acceptWord("AND"):
		r := p.operand(precAnd+1, t)
		return &ast.Binary{Span: p.span(s), Op: "AND", L: left, R: r}
	case p.acceptWord("ISNULL"):
		return &ast.Is{Span: p.span(s), X: left, What: "NULL"}
	case p.acceptWord("NOTNULL"), p.acceptWords("NOT", "NULL"):
		return &ast.Is{Span: p.span(s), X: left, Not: true, What: "NULL"}
	case p.acceptWord("IS"):
		not := p.acceptWord("NOT")
		for _, w := range []string{"NULL", "TRUE", "FALSE", "UNKNOWN"} {
			if p.acceptWord(w) {
				return &ast.Is{Span: p.span(s), X: left, Not: not, What: w}
			}
		}
		if p.acceptWords("DISTINCT", "FROM") {
			r := p.operand(precIs+1, p.toks[p.i-1])
			return &ast.DistinctFrom{Span: p.span(s), L: left, R: r, Not: not}
		}
		p.fail("expected NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS")
	case p.acceptWord("COLLATE"):
		name := p.qualifiedName("a collation")
		return &ast.Collate{Span: p.span(s), X: left, Collation: name}
	case p.acceptWords("AT", "TIME", "ZONE"):
		z := p.operand(precAt+1, p.toks[p.i-1])
		name := ast.Name{&ast.Ident{Span: ast.Span{Start: t.start, End: t.start}, Name: "timezone"}}
		return &ast.Func{Span: p.span(s), Name: name, Args: []ast.Expr{z, left}}
	}
	not := p.acceptWord("NOT")
	switch {
	case p.acceptWord("BETWEEN"):
		sym := p.acceptWord("SYMMETRIC")
		if !sym {
			p.acceptWord("ASYMMETRIC")
		}
		lo := p.operand(precLike+1, p.toks[p.i-1])
		p.expectWord("AND")
		hi := p.operand(precLike+1, p.toks[p.i-1])
		return &ast.Between{Span: p.span(s), X: left, Lo: lo, Hi: hi, Not: not, Symmetric: sym}
	case p.acceptWord("IN"):
		return p.in(left, not, s)
	}
	op := ""
	switch {
	case p.acceptWord("LIKE"):
		op = "LIKE"
	case p.acceptWord("ILIKE"):
		op = "ILIKE"
	case p.acceptWord("GLOB"):
		op = "GLOB"
	case p.acceptWords("SIMILAR", "TO"):
		op = "SIMILAR TO"
	default:
		p.fail("")
	}
	return p.like(left, op, not, s)
}

// like parses the pattern and ESCAPE of x [NOT] LIKE … (x may be nil for
// * LIKE …).
func (p *parser) like(x ast.Expr, op string, not bool, s int) *ast.Like {
	if (p.isWord("ANY") || p.isWord("SOME") || p.isWord("ALL")) && p.isOpAt(1, "(") {
		// DuckDB's grammar reads x LIKE ANY (…) and refuses it: ANY and
		// ALL take the comparison operators only.
		p.failMsg(p.tok().start, fmt.Sprintf("%s %s (…) is not DuckDB SQL: ANY and ALL take =, <>, <, <=, > or >= (write x %s p1 OR x %s p2)",
			op, strings.ToUpper(p.src[p.tok().start:p.tok().end]), op, op))
	}
	pat := p.operand(precLike+1, p.toks[p.i-1])
	var esc ast.Expr
	if p.acceptWord("ESCAPE") {
		esc = p.operand(precEscape+1, p.toks[p.i-1])
	}
	return &ast.Like{Span: p.span(s), Op: op, Not: not, X: x, Pattern: pat, Escape: esc}
}

// in parses what follows x [NOT] IN.
func (p *parser) in(x ast.Expr, not bool, s int) ast.Expr {
	if !p.isOp("(") {
		// DuckDB: x IN list_expression, a primary expression only: a
		// prefix operator there is a syntax error (0 IN -1), an operator
		// or a cast after it applies to the IN (1 IN [1] || [2] is
		// (1 IN [1]) || [2]); an operator inside would print as a
		// parenthesized one-element list.
		if prefixOp(p.tok()) {
			p.fail("x IN takes (…), a subquery or a list expression")
		}
		p.after = p.toks[p.i-1]
		l := p.primary()
		return &ast.InList{Span: p.span(s), X: x, List: []ast.Expr{l}, Not: not, Expr: true}
	}
	if p.startsQueryAt(1, false) {
		p.advance()
		q := p.query()
		p.expectOp(")")
		return &ast.InQuery{Span: p.span(s), X: x, Query: q, Not: not}
	}
	p.advance()
	var list []ast.Expr
	for !p.isOp(")") {
		list = append(list, p.expr())
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return &ast.InList{Span: p.span(s), X: x, List: list, Not: not}
}

// quantified parses ANY|SOME|ALL (…) after a comparison, or returns nil.
func (p *parser) quantified(x ast.Expr, op string, s int) ast.Expr {
	if !(p.isWord("ANY") || p.isWord("SOME") || p.isWord("ALL")) || !p.isOpAt(1, "(") {
		return nil
	}
	quant := strings.ToUpper(p.advance().val)
	if quant == "SOME" {
		quant = "ANY"
	}
	q := &ast.Quantified{X: x, Op: op, Quant: quant}
	if p.startsQueryAt(1, false) {
		p.advance()
		q.Query = p.query()
	} else {
		p.advance()
		q.List = p.expr()
	}
	p.expectOp(")")
	q.Span = p.span(s)
	return q
}

// operand parses the right operand of operator token after.
func (p *parser) operand(min int, after token) ast.Expr {
	p.after = after
	return p.exprPrec(min)
}

// lambdaParams returns the parameters of a lambda whose left side is x:
// one name or a row of names.
func lambdaParams(x ast.Expr) ([]*ast.Ident, bool) {
	switch x := x.(type) {
	case *ast.ColumnRef:
		if len(x.Name) == 1 {
			return []*ast.Ident{x.Name[0]}, true
		}
	case *ast.Row:
		var ps []*ast.Ident
		for _, e := range x.Elems {
			c, ok := e.(*ast.ColumnRef)
			if !ok || len(c.Name) != 1 {
				return nil, false
			}
			ps = append(ps, c.Name[0])
		}
		return ps, len(ps) > 0
	}
	return nil, false
}

// unary parses prefix operators and a postfix expression.
func (p *parser) unary() ast.Expr {
	p.enter()
	defer p.leave()
	s := p.start()
	t := p.tok()
	if t.kind == tOp && (t.val == "-" || t.val == "+") { // see prefixOp
		p.advance()
		p.after = t
		x := p.unary()
		return &ast.Unary{Span: p.span(s), Op: t.val, X: x}
	}
	if t.kind == tOp && strings.IndexByte(opChars, t.val[0]) >= 0 && !notPrefix[t.val] {
		p.advance()
		x := p.operand(precOp+1, t)
		return &ast.Unary{Span: p.span(s), Op: t.val, X: x}
	}
	return p.postfix(p.primary(), s)
}

// prefixOp reports whether t is an operator unary reads as a prefix.
func prefixOp(t token) bool {
	return t.kind == tOp && (t.val == "-" || t.val == "+" || strings.IndexByte(opChars, t.val[0]) >= 0 && !notPrefix[t.val])
}

// notPrefix are the operators that never start an expression.
var notPrefix = map[string]bool{"=": true, "==": true, "<": true, ">": true, "<=": true, ">=": true, "<>": true,
	"!=": true, "*": true, "/": true, "//": true, "%": true, "^": true, "**": true, "->": true, "->>": true}

// postfix parses subscripts, slices, field access, method calls and ::
// casts after x, which started at s.
func (p *parser) postfix(x ast.Expr, s int) ast.Expr {
	for {
		switch {
		case p.isOp("["):
			p.advance()
			var lo, hi, step ast.Expr
			if !p.isOp(":") {
				lo = p.expr()
			}
			if !p.acceptOp(":") {
				p.expectOp("]")
				x = &ast.Index{Span: p.span(s), X: x, Index: lo}
				continue
			}
			if !p.isOp("]") && !p.isOp(":") {
				hi = p.expr()
			}
			if p.acceptOp(":") && !p.isOp("]") {
				step = p.expr()
			}
			p.expectOp("]")
			x = &ast.Slice{Span: p.span(s), X: x, Lo: lo, Hi: hi, Step: step}
		case p.isOp(".") && isLabel(p.peek(1)):
			p.advance()
			name := identOf(p.advance())
			if p.isOp("(") {
				f := p.call(ast.Name{name}, name.Start)
				f.Args = append([]ast.Expr{x}, f.Args...)
				f.Span = p.span(s)
				f.Method = true
				x = f
				continue
			}
			x = &ast.Field{Span: p.span(s), X: x, Name: name}
		case p.isOp("::"):
			p.advance()
			typ := p.typeName()
			x = &ast.Cast{Span: p.span(s), X: x, Type: typ}
		default:
			return x
		}
	}
}

// typedLiteralTypes are the type names that may precede a string
// literal (DATE '2024-01-01').
var typedLiteralTypes = map[string]bool{
	"DATE": true, "TIME": true, "TIMESTAMP": true, "TIMESTAMPTZ": true, "TIMETZ": true, "DATETIME": true,
	"TIMESTAMP_S": true, "TIMESTAMP_MS": true, "TIMESTAMP_NS": true, "TIMESTAMP_US": true,
	"BOOLEAN": true, "BOOL": true, "INTEGER": true, "INT": true, "INT4": true, "INT8": true, "INT2": true,
	"BIGINT": true, "SMALLINT": true, "TINYINT": true, "HUGEINT": true, "UHUGEINT": true, "UBIGINT": true,
	"UINTEGER": true, "USMALLINT": true, "UTINYINT": true, "VARCHAR": true, "TEXT": true, "STRING": true,
	"CHAR": true, "BPCHAR": true, "DOUBLE": true, "FLOAT": true, "FLOAT4": true, "FLOAT8": true, "REAL": true,
	"DECIMAL": true, "NUMERIC": true, "BLOB": true, "BYTEA": true, "UUID": true, "JSON": true, "BIT": true,
	"BITSTRING": true, "VARINT": true, "BIGNUM": true,
}

// primary parses a literal, name, call, parenthesized expression or
// special form.
func (p *parser) primary() ast.Expr {
	s := p.start()
	t := p.tok()
	switch t.kind {
	case tNumber:
		p.advance()
		return &ast.Literal{Span: p.span(s), Kind: ast.LitNumber, Val: strings.ReplaceAll(t.val, "_", "")} // 1_000 is 1000
	case tString:
		p.advance()
		return &ast.Literal{Span: p.span(s), Kind: ast.LitString, Val: t.val}
	case tBlob:
		p.advance()
		return &ast.Literal{Span: p.span(s), Kind: ast.LitBlob, Val: t.val}
	case tParam:
		p.advance()
		prm := &ast.Param{Span: p.span(s)}
		if len(t.val) > 1 {
			if n, err := strconv.Atoi(t.val[1:]); err == nil {
				prm.Index = n
			} else {
				prm.Name = t.val[1:]
			}
		}
		return prm
	case tPosRef:
		p.advance()
		n, err := strconv.Atoi(t.val[1:])
		if err != nil || n < 1 {
			p.failMsg(t.start, "positional reference "+t.val+" must be at least #1")
		}
		return &ast.PositionalRef{Span: p.span(s), Index: n}
	case tQIdent:
		return p.nameExpr()
	case tOp:
		switch t.val {
		case "(":
			return p.paren()
		case "[":
			return p.list(s)
		case "{":
			return p.structLit()
		case "*":
			return p.star(nil, s)
		}
	case tIdent:
		if e := p.keywordExpr(t); e != nil {
			return e
		}
		if t.cat != catReserved {
			return p.nameExpr()
		}
	}
	want := "expected an expression"
	if p.i > 0 && p.after.end == t.start && p.after.end > 0 {
		want += " after " + quote(p.src[p.after.start:p.after.end])
	} else if p.i > 0 {
		prev := p.toks[p.i-1]
		want += " after " + quote(p.src[prev.start:prev.end])
	}
	p.fail(want)
	return nil
}

// keywordExpr parses the expressions that start with a keyword, or
// returns nil.
func (p *parser) keywordExpr(t token) ast.Expr {
	s := t.start
	w := strings.ToUpper(t.val)
	switch w {
	case "NULL":
		p.advance()
		return &ast.Literal{Span: p.span(s), Kind: ast.LitNull}
	case "TRUE", "FALSE":
		p.advance()
		return &ast.Literal{Span: p.span(s), Kind: ast.LitBool, Val: strings.ToLower(w)}
	case "DEFAULT":
		p.advance()
		return &ast.Default{Span: p.span(s)}
	case "CASE":
		return p.caseExpr()
	case "CAST", "TRY_CAST":
		if !p.isOpAt(1, "(") {
			return nil
		}
		p.advance()
		p.advance()
		x := p.expr()
		p.expectWord("AS")
		typ := p.typeName()
		p.expectOp(")")
		return &ast.Cast{Span: p.span(s), X: x, Type: typ, Try: w == "TRY_CAST"}
	case "EXISTS":
		if !p.isOpAt(1, "(") {
			return nil
		}
		p.advance()
		p.advance()
		q := p.query()
		p.expectOp(")")
		return &ast.Subquery{Span: p.span(s), Kind: ast.SubExists, Query: q}
	case "ARRAY":
		switch {
		case p.isOpAt(1, "["):
			p.advance()
			return p.list(s)
		case p.isOpAt(1, "(") && p.startsQueryAt(2, false):
			p.advance()
			p.advance()
			q := p.query()
			p.expectOp(")")
			return &ast.Subquery{Span: p.span(s), Kind: ast.SubArray, Query: q}
		}
	case "INTERVAL":
		return p.interval()
	case "MAP":
		if p.isOpAt(1, "{") {
			return p.mapLit()
		}
	case "LAMBDA":
		p.advance()
		var params []*ast.Ident
		for {
			params = append(params, p.colIDOrLabel("a lambda parameter"))
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(":")
		body := p.exprPrec(precOr)
		return &ast.Lambda{Span: p.span(s), Params: params, Body: body}
	case "COLUMNS":
		if p.isOpAt(1, "(") {
			p.advance()
			p.advance()
			arg := p.expr()
			p.expectOp(")")
			return &ast.Columns{Span: p.span(s), Arg: arg}
		}
	}
	if p.peek(1).kind == tString && typedLiteralTypes[w] {
		p.advance()
		v := p.advance().val
		typ := &ast.TypeName{Span: ast.Span{Start: t.start, End: t.end}, Name: w}
		return &ast.TypedLit{Span: p.span(s), Type: typ, Val: v}
	}
	return nil
}

// nameExpr parses a column reference, qualified star or function call.
func (p *parser) nameExpr() ast.Expr {
	s := p.start()
	name := ast.Name{identOf(p.advance())}
	for p.isOp(".") {
		switch n := p.peek(1); {
		case isLabel(n):
			p.advance()
			name = append(name, identOf(p.advance()))
			continue
		case n.kind == tOp && n.val == "*":
			p.advance()
			return p.star(name, s)
		}
		break
	}
	if p.isOp("(") {
		return p.call(name, s)
	}
	return &ast.ColumnRef{Span: p.span(s), Name: name}
}

// paren parses ( … ): a subquery, a row, or a parenthesized expression
// (whose node is the inner expression's).
func (p *parser) paren() ast.Expr {
	s := p.start()
	if p.startsQueryAt(1, false) {
		p.advance()
		q := p.query()
		p.expectOp(")")
		return &ast.Subquery{Span: p.span(s), Query: q}
	}
	p.advance()
	if p.acceptOp(")") {
		return &ast.Row{Span: p.span(s)}
	}
	x := p.expr()
	if !p.isOp(",") {
		p.expectOp(")")
		return x
	}
	elems := []ast.Expr{x}
	for p.acceptOp(",") {
		if p.isOp(")") {
			break
		}
		elems = append(elems, p.expr())
	}
	p.expectOp(")")
	return &ast.Row{Span: p.span(s), Elems: elems}
}

// list parses [a, b, …] (the current token is "[").
func (p *parser) list(s int) ast.Expr {
	p.expectOp("[")
	var elems []ast.Expr
	for !p.isOp("]") {
		x := p.expr()
		if len(elems) == 0 && p.acceptWord("FOR") {
			c := &ast.Comprehension{X: x, Var: p.colIDOrLabel("a variable name")}
			p.expectWord("IN")
			c.List = p.exprPrec(precOr)
			if p.acceptWord("IF") {
				c.Cond = p.expr()
			}
			p.expectOp("]")
			c.Span = p.span(s)
			return c
		}
		elems = append(elems, x)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp("]")
	return &ast.List{Span: p.span(s), Elems: elems}
}

// structLit parses {key: value, …}.
func (p *parser) structLit() ast.Expr {
	s := p.start()
	p.expectOp("{")
	st := &ast.Struct{}
	for !p.isOp("}") {
		fs := p.start()
		t := p.tok()
		if t.kind != tString && !isLabel(t) {
			p.fail("expected a struct key")
		}
		p.advance()
		key := identOf(t)
		key.Quoted = t.kind != tIdent
		p.expectOp(":")
		v := p.expr()
		st.Fields = append(st.Fields, &ast.StructField{Span: p.span(fs), Key: key, Value: v})
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp("}")
	st.Span = p.span(s)
	return st
}

// mapLit parses MAP {k: v, …}.
func (p *parser) mapLit() ast.Expr {
	s := p.start()
	p.advance()
	p.expectOp("{")
	m := &ast.Map{}
	for !p.isOp("}") {
		es := p.start()
		k := p.expr()
		p.expectOp(":")
		v := p.expr()
		m.Entries = append(m.Entries, &ast.MapEntry{Span: p.span(es), Key: k, Value: v})
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp("}")
	m.Span = p.span(s)
	return m
}

// star parses * (or q.*, q given) and its EXCLUDE/REPLACE/RENAME/LIKE
// modifiers, or *COLUMNS(…).
func (p *parser) star(q ast.Name, s int) ast.Expr {
	p.expectOp("*")
	if q == nil && p.isWord("COLUMNS") && p.isOpAt(1, "(") {
		c := p.primary().(*ast.Columns)
		c.Span, c.Unpack = p.span(s), true
		return c
	}
	st := &ast.Star{Qualifier: q}
	for {
		switch {
		case p.acceptWord("EXCLUDE") || p.isWord("EXCEPT") && p.starExcept():
			if !p.acceptOp("(") {
				st.Exclude = append(st.Exclude, p.excludedName())
				continue
			}
			for {
				st.Exclude = append(st.Exclude, p.excludedName())
				if !p.acceptOp(",") {
					break
				}
			}
			p.expectOp(")")
		case p.acceptWord("REPLACE"):
			paren := p.acceptOp("(")
			for {
				is := p.start()
				x := p.expr()
				if !p.isWord("AS") {
					p.failMsg(is, "REPLACE expects a list of expr AS column")
				}
				p.advance()
				st.Replace = append(st.Replace, &ast.SelectItem{X: x, Alias: p.label("a column name"), Span: p.span(is)})
				if !paren || !p.acceptOp(",") {
					break
				}
			}
			if paren {
				p.expectOp(")")
			}
		case p.acceptWord("RENAME"):
			paren := p.acceptOp("(")
			for {
				rs := p.start()
				from := p.qualifiedName("a column name")
				p.expectWord("AS")
				st.Rename = append(st.Rename, &ast.Rename{From: from, To: p.label("a column name"), Span: p.span(rs)})
				if !paren || !p.acceptOp(",") {
					break
				}
			}
			if paren {
				p.expectOp(")")
			}
		case p.isWord("LIKE") || p.isWord("ILIKE") || p.isWord("GLOB") || p.isWord("SIMILAR") && p.isWordAt(1, "TO") ||
			p.isWord("NOT") && (p.isWordAt(1, "LIKE") || p.isWordAt(1, "ILIKE") || p.isWordAt(1, "GLOB")):
			not := p.acceptWord("NOT")
			op := strings.ToUpper(p.advance().val)
			if op == "SIMILAR" {
				p.advance()
				op = "SIMILAR TO"
			}
			st.Like = p.like(nil, op, not, p.toks[p.i-1].start)
		case p.isOp("~") || p.isOp("~*") || p.isOp("!~") || p.isOp("!~*") || p.isOp("~~") || p.isOp("~~*") || p.isOp("!~~") || p.isOp("!~~*"):
			// * ~ 'regex' and the other spellings of the matching
			// operators, as DuckDB's grammar takes them after a star.
			st.Like = p.like(nil, p.advance().val, false, p.toks[p.i-1].start)
		default:
			st.Span = p.span(s)
			p.checkStar(st)
			return st
		}
	}
}

// checkStar rejects what DuckDB's parser rejects in * modifiers: a
// column twice in EXCLUDE or REPLACE, or in both.
func (p *parser) checkStar(st *ast.Star) {
	excluded := map[string]bool{} // by the name as written (t.a and u.a differ)
	for _, n := range st.Exclude {
		var parts []string
		for _, id := range n {
			parts = append(parts, strings.ToLower(id.Name))
		}
		k := strings.Join(parts, ".")
		if excluded[k] {
			p.failMsg(n[0].Start, "column "+quote(n.Last().Name)+" is excluded twice")
		}
		excluded[k] = true
	}
	replaced := map[string]bool{}
	for _, r := range st.Replace {
		k := strings.ToLower(r.Alias.Name)
		switch {
		case replaced[k]:
			p.failMsg(r.Alias.Start, "duplicate entry "+quote(r.Alias.Name)+" in REPLACE list")
		case excluded[k]:
			p.failMsg(r.Alias.Start, "column "+quote(r.Alias.Name)+" cannot occur in both EXCLUDE and REPLACE list")
		}
		replaced[k] = true
	}
}

// starExcept reports whether the EXCEPT at the current token is * EXCEPT
// (columns), DuckDB's synonym of EXCLUDE, rather than the set operation;
// it consumes the EXCEPT if so.
func (p *parser) starExcept() bool {
	n := p.peek(1)
	if n.kind == tOp && n.val == "(" {
		if p.startsQueryAt(2, true) {
			return false
		}
	} else if !isColID(n) || p.startsQueryAt(1, false) || isKeyword(n.val, "ALL") || isKeyword(n.val, "DISTINCT") ||
		isKeyword(n.val, "BY") {
		return false
	}
	p.advance()
	return true
}

// excludedName parses a column name of EXCLUDE, also written as a string.
func (p *parser) excludedName() ast.Name {
	if t := p.tok(); t.kind == tString {
		p.advance()
		id := identOf(t)
		id.Quoted = true
		return ast.Name{id}
	}
	return p.qualifiedName("a column name")
}

// caseExpr parses CASE … END.
func (p *parser) caseExpr() ast.Expr {
	s := p.start()
	p.advance()
	c := &ast.Case{}
	if !p.isWord("WHEN") {
		c.Operand = p.expr()
	}
	for p.isWord("WHEN") {
		ws := p.start()
		p.advance()
		cond := p.expr()
		p.expectWord("THEN")
		then := p.expr()
		c.Whens = append(c.Whens, &ast.When{Span: p.span(ws), Cond: cond, Then: then})
	}
	if len(c.Whens) == 0 {
		p.fail("expected WHEN")
	}
	if p.acceptWord("ELSE") {
		c.Else = p.expr()
	}
	p.expectWord("END")
	c.Span = p.span(s)
	return c
}

// intervalUnits are the units of INTERVAL literals.
var intervalUnits = map[string]bool{}

func init() {
	for _, u := range []string{"YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND",
		"MICROSECOND", "WEEK", "QUARTER", "DECADE", "CENTURY", "MILLENNIUM"} {
		intervalUnits[u] = true
		intervalUnits[u+"S"] = true
	}
	intervalUnits["CENTURIES"] = true
	intervalUnits["MILLENNIA"] = true
	intervalUnits["MILLENNIUMS"] = true
}

// interval parses INTERVAL value [unit [TO unit]], or returns nil when
// INTERVAL is a name here.
func (p *parser) interval() ast.Expr {
	s := p.start()
	var v ast.Expr
	switch n := p.peek(1); {
	case n.kind == tString || n.kind == tNumber || n.kind == tParam:
		p.advance()
		v = p.primary()
	case n.kind == tOp && n.val == "(":
		p.advance()
		p.advance()
		v = p.expr()
		p.expectOp(")")
	case n.kind == tOp && n.val == "-" && p.peek(2).kind == tNumber:
		p.advance()
		v = p.unary()
	default:
		return nil
	}
	iv := &ast.Interval{Value: v}
	if t := p.tok(); t.kind == tIdent && intervalUnits[strings.ToUpper(t.val)] {
		iv.Unit = strings.ToUpper(p.advance().val)
		if p.isWord("TO") && p.peek(1).kind == tIdent && intervalUnits[strings.ToUpper(p.peek(1).val)] {
			// DuckDB rejects unit ranges in interval literals.
			p.failMsg(p.toks[p.i-1].start, iv.Unit+" TO "+strings.ToUpper(p.peek(1).val)+" is not supported")
		}
	}
	iv.Span = p.span(s)
	return iv
}
