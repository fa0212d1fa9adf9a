package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// x COLLATE name changes how x compares, as DuckDB's collations do:
// NOCASE compares lower-cased, NOACCENT without accents, NFC in Unicode
// normal form C, C / POSIX / BINARY byte-wise (no change), combined with
// dots (NOCASE.NOACCENT). The collation applies where x is compared:
//
//   - an operand of =, <>, <, <=, >, >=, BETWEEN, IN (…), IS [NOT]
//     DISTINCT FROM or a simple CASE: every operand of that comparison is
//     compared collated (collateOperands), as DuckDB pushes the collation
//     onto both sides; two different collations are an error;
//   - a key of a query's ORDER BY, a window's PARTITION BY or ORDER BY,
//     or an aggregate's ORDER BY (collateOrderKey).
//
// There the operand binds to its collated form (lower(x), …), a key that
// only compares. Anywhere else (the select list, GROUP BY, DISTINCT)
// DuckDB also groups or picks by the collation; b2sql refuses the
// collation there rather than ignoring it.

// collationFuncs are the functions that make a value's collated form.
var collationFuncs = map[string]string{"nocase": "lower", "noaccent": "strip_accents", "nfc": "nfc_normalize", "c": "", "posix": "", "binary": ""}

// collation returns the functions, innermost first, of collation name,
// and its normalized text.
func (b *binder) collation(name ast.Name) ([]string, string, error) {
	var fns, parts []string
	for _, id := range name {
		p := strings.ToLower(id.Name)
		fn, ok := collationFuncs[p]
		if !ok {
			known := make([]string, 0, len(collationFuncs))
			for k := range collationFuncs {
				known = append(known, k)
			}
			return nil, "", b.errSpan(id.Span, ErrUnknownFunction, fmt.Sprintf("collation %q does not exist%s", id.Name, didYouMean(p, known)))
		}
		parts = append(parts, p)
		if fn != "" {
			fns = append(fns, fn)
		}
	}
	return fns, strings.Join(parts, "."), nil
}

// collateOperands returns e with every operand of its comparison made a
// COLLATE of the collation one of them has (ok false: no operand has
// one).
func (b *binder) collateOperands(e ast.Expr) (ast.Expr, bool, error) {
	var ops []*ast.Expr
	switch e := e.(type) {
	case *ast.Binary:
		if _, cmp := comparisonFns[astBinaryFns[e.Op]]; !cmp {
			return nil, false, nil
		}
		n := *e
		ops = []*ast.Expr{&n.L, &n.R}
		return b.collateAll(&n, ops)
	case *ast.Between:
		n := *e
		return b.collateAll(&n, []*ast.Expr{&n.X, &n.Lo, &n.Hi})
	case *ast.DistinctFrom:
		n := *e
		return b.collateAll(&n, []*ast.Expr{&n.L, &n.R})
	case *ast.InList:
		if e.Expr {
			return nil, false, nil
		}
		n := *e
		n.List = append([]ast.Expr(nil), e.List...)
		ops = []*ast.Expr{&n.X}
		for i := range n.List {
			ops = append(ops, &n.List[i])
		}
		return b.collateAll(&n, ops)
	case *ast.Case:
		if e.Operand == nil {
			return nil, false, nil
		}
		n := *e
		n.Whens = make([]*ast.When, len(e.Whens))
		ops = []*ast.Expr{&n.Operand}
		for i, w := range e.Whens {
			wc := *w
			n.Whens[i] = &wc
			ops = append(ops, &wc.Cond)
		}
		return b.collateAll(&n, ops)
	}
	return nil, false, nil
}

// collateAll gives every operand *ops[i] of n the one collation they
// name, if any.
func (b *binder) collateAll(n ast.Expr, ops []*ast.Expr) (ast.Expr, bool, error) {
	var name ast.Name
	norm := ""
	for _, op := range ops {
		c, ok := (*op).(*ast.Collate)
		if !ok {
			continue
		}
		_, text, err := b.collation(c.Collation)
		if err != nil {
			return nil, false, err
		}
		if norm != "" && text != norm {
			return nil, false, b.errSpan(c.Collation.Span(), ErrType, fmt.Sprintf("cannot combine collations %s and %s", norm, text))
		}
		name, norm = c.Collation, text
	}
	if name == nil {
		return nil, false, nil
	}
	if b.collated == nil {
		b.collated = map[*ast.Collate]bool{}
	}
	done := true // bound before: every operand collated already
	for _, op := range ops {
		c, ok := (*op).(*ast.Collate)
		done = done && ok && b.collated[c]
	}
	if done {
		return nil, false, nil
	}
	for _, op := range ops {
		c, ok := (*op).(*ast.Collate)
		if !ok {
			c = &ast.Collate{Span: (*op).Extent(), X: *op, Collation: name}
			*op = c
		}
		b.collated[c] = true
	}
	return n, true, nil
}

// collateOrderKey makes a sort or partition key written x COLLATE name
// compare collated.
func (b *binder) collateOrderKey(x ast.Expr) {
	if c, ok := x.(*ast.Collate); ok {
		if b.collated == nil {
			b.collated = map[*ast.Collate]bool{}
		}
		b.collated[c] = true
	}
}

// bindCollate binds x COLLATE name where collateOperands or
// collateOrderKey allowed it: x's collated form.
func (b *binder) bindCollate(e *ast.Collate, c ectx) (planner.Expr, error) {
	fns, _, err := b.collation(e.Collation)
	if err != nil {
		return nil, err
	}
	if !b.collated[e] {
		return nil, b.errSpan(e.Collation.Span(), ErrUnsupported,
			"COLLATE applies to comparisons (=, <, BETWEEN, IN, IS DISTINCT FROM, CASE x WHEN), ORDER BY keys and window keys; elsewhere it is not supported")
	}
	x, err := b.bindAST(e.X, c)
	if err != nil {
		return nil, err
	}
	switch t := x.Type(); {
	case t.ID == columnar.Null:
		x = &planner.Const{Val: columnar.NullValue(columnar.TVarchar)}
	case !t.IsString():
		return nil, b.errAt(b.q.tokAt(e.Start), ErrType, fmt.Sprintf("collations are only supported for type VARCHAR, not %s", t))
	}
	for _, fn := range fns {
		x = &planner.Call{Fn: fn, Args: []planner.Expr{x}, T: columnar.TVarchar}
	}
	return x, nil
}
