package sql

import (
	"strconv"

	"fmt"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
	"reflect"
	"sort"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/parser"
)

// Nested-value syntax on the vitess path (issue 21; it goes with that
// path, issue 15). The MySQL grammar has no list, struct or map
// constructors, subscripts, slices, field access on an expression,
// lambdas, named call arguments or nested type names. Each such
// expression of the statement's syntax tree is written for vitess as a
// call
//
//	b2sql_ast(start, end, child, …)
//
// where start and end are the expression's byte span in the statement
// text and the children are its operand expressions (their own text,
// rewritten as usual), so that what the vitess tree is searched for
// (aggregates, windows, subqueries, columns) is still there. The call
// itself is bound from the syntax tree node with that span
// (bindFunc → bindAST): the text of the call is never read for meaning.
const markAST = "b2sql_ast"

// nestedEdits are the token edits that write a statement's nested-value
// expressions as markAST calls.
type nestedEdits struct {
	drop   map[int]bool   // the expression's own tokens ([, ], {, :, keys, …)
	prefix map[int]string // text written before token i
	close  map[int]string // text written after token i (after its suffix)
}

// needsNestedEdits reports whether toks may hold nested-value syntax.
func needsNestedEdits(toks []token) bool {
	for i, t := range toks {
		switch {
		case t.kind == tkOp && (t.val == "[" || t.val == "{" || t.val == "->" || t.val == ":="):
			return true
		case t.is("STRUCT") || t.is("MAP") || t.is("UNION"):
			return true
		case t.isOp(")") && i+1 < len(toks) && toks[i+1].isOp(".") && i+2 < len(toks) && toks[i+2].kind != tkOp:
			return true // (s).a, f(x).a
		case t.isOp("=>") || t.is("LAMBDA"):
			return true
		}
	}
	return false
}

// nestedSyntax returns the edits for the nested-value expressions among
// toks, or nil when there are none or the statement text does not parse
// (vitess then reports the syntax error).
func nestedSyntax(src Source, toks []token) *nestedEdits {
	if len(toks) == 0 || !needsNestedEdits(toks) {
		return nil
	}
	tree, err := parser.Parse(src.Text)
	if err != nil {
		return nil
	}
	lo, hi := toks[0].off, toks[len(toks)-1].end
	ed := &nestedEdits{drop: map[int]bool{}, prefix: map[int]string{}, close: map[int]string{}}
	first := func(off int) int {
		return sort.Search(len(toks), func(i int) bool { return toks[i].off >= off })
	}
	last := func(end int) int { // the last token ending by end
		return sort.Search(len(toks), func(i int) bool { return toks[i].end > end }) - 1
	}
	var visit func(e ast.Expr)
	visit = func(e ast.Expr) {
		sp := e.Extent()
		if sp.Start < lo || sp.End > hi {
			return
		}
		kids, ok := nestedKids(e)
		if !ok {
			return
		}
		f, l := first(sp.Start), last(sp.End)
		if f > l || f >= len(toks) {
			return
		}
		own := make([]bool, l-f+1)
		for i := range own {
			own[i] = true
		}
		ed.prefix[f] += fmt.Sprintf("%s(%d, %d", markAST, sp.Start, sp.End)
		for _, k := range kids {
			ks := k.Extent()
			kf, kl := first(ks.Start), last(ks.End)
			for i := kf; i <= kl; i++ {
				own[i-f] = false
			}
			ed.prefix[kf] += ", "
		}
		for i, o := range own {
			if o {
				ed.drop[f+i] = true
			}
		}
		ed.close[l] += ")"
	}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		walkExprs(v, func(e ast.Expr) bool {
			kids, ok := nestedKids(e)
			if !ok {
				return true
			}
			visit(e)
			for _, k := range kids {
				walk(reflect.ValueOf(k))
			}
			return false // its operands were walked above
		})
	}
	walk(reflect.ValueOf(tree))
	if len(ed.prefix) == 0 {
		return nil
	}
	return ed
}

// nestedKids returns the operands of an expression the MySQL grammar
// cannot read (ok), in text order; a lambda has none (its body is bound
// from the syntax tree only).
func nestedKids(e ast.Expr) (kids []ast.Expr, ok bool) {
	add := func(es ...ast.Expr) {
		for _, x := range es {
			if x != nil {
				kids = append(kids, x)
			}
		}
	}
	switch e := e.(type) {
	case *ast.List:
		add(e.Elems...)
	case *ast.Struct:
		for _, f := range e.Fields {
			add(f.Value)
		}
	case *ast.Map:
		for _, m := range e.Entries {
			add(m.Key, m.Value)
		}
	case *ast.Index:
		add(e.X, e.Index)
	case *ast.Slice:
		add(e.X, e.Lo, e.Hi, e.Step)
	case *ast.Field:
		add(e.X)
	case *ast.NamedArg:
		add(e.Value)
	case *ast.Lambda, *ast.Comprehension:
	case *ast.Cast:
		if !nestedTypeName(e.Type) {
			return nil, false
		}
		add(e.X)
	default:
		return nil, false
	}
	return kids, true
}

// nestedTypeName reports whether a type as written is a LIST, STRUCT,
// MAP or UNION (or holds one).
func nestedTypeName(t *ast.TypeName) bool {
	if t == nil {
		return false
	}
	switch strings.ToUpper(t.Name) {
	case "STRUCT", "MAP", "UNION", "LIST", "ROW":
		return true
	}
	return len(t.Array)+len(t.Fields)+len(t.Args) > 0
}

// walkExprs calls f on every expression under v, outermost first; f
// returning false skips the expression's insides.
func walkExprs(v reflect.Value, f func(ast.Expr) bool) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type().Implements(exprType) {
			if e, ok := v.Interface().(ast.Expr); ok && !f(e) {
				return
			}
		}
		walkExprs(v.Elem(), f)
	case reflect.Slice:
		for i := range v.Len() {
			walkExprs(v.Index(i), f)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkExprs(v.Field(i), f)
			}
		}
	}
}

// markedCall returns the syntax tree call of a vitess call one of whose
// arguments is a lambda or a name := value (a markAST call standing for
// one), or nil: such calls bind from the syntax tree as a whole.
func (b *binder) markedCall(e *sqlparser.FuncExpr) *ast.Func {
	for _, a := range e.Exprs {
		ae, ok := a.(*sqlparser.AliasedExpr)
		if !ok {
			continue
		}
		m, ok := ae.Expr.(*sqlparser.FuncExpr)
		if !ok || m.Name.Lowered() != markAST {
			continue
		}
		sp, ok := markSpan(m)
		if !ok {
			continue
		}
		x := b.q.syntax()
		switch x.exprs[sp].(type) {
		case *ast.Lambda, *ast.NamedArg:
		default:
			continue
		}
		for _, n := range x.exprs {
			if f, ok := n.(*ast.Func); ok {
				for _, arg := range f.Args {
					if arg.Extent() == sp {
						return f
					}
				}
			}
		}
	}
	return nil
}

// markSpan reads the span of a markAST call.
func markSpan(e *sqlparser.FuncExpr) (ast.Span, bool) {
	var sp [2]int
	for i := range sp {
		if i >= len(e.Exprs) {
			return ast.Span{}, false
		}
		a, ok := e.Exprs[i].(*sqlparser.AliasedExpr)
		var v *sqlparser.SQLVal
		if ok {
			v, ok = a.Expr.(*sqlparser.SQLVal)
		}
		if !ok || v.Type != sqlparser.IntVal {
			return ast.Span{}, false
		}
		n, err := strconv.Atoi(string(v.Val))
		if err != nil {
			return ast.Span{}, false
		}
		sp[i] = n
	}
	return ast.Span{Start: sp[0], End: sp[1]}, true
}

// bindMarkedAST binds a markAST call: the syntax tree expression with the
// span its first two arguments give.
func (b *binder) bindMarkedAST(e *sqlparser.FuncExpr, c ectx) (planner.Expr, error) {
	sp, ok := markSpan(e)
	var n ast.Expr
	if ok {
		n = b.q.syntax().exprs[sp]
	}
	if n == nil {
		return nil, b.errAt(c.sp.lo, ErrSyntax, "malformed nested-value expression")
	}
	return b.bindAST(n, c)
}
