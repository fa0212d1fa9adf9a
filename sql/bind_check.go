package sql

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/sql/ast"
)

// A query binds from its syntax tree when every node has a bind case
// (queryBindable and astBindable say which). For the others the binder
// refuses the statement before binding any of it, with an error at the
// innermost node that has no case: its children all bind, it does not.

// checkQueryAST returns a positioned ErrUnsupported for the first part of
// q with no bind case, or nil.
func (b *binder) checkQueryAST(q *ast.Query) error {
	if queryBindable(q) {
		return nil
	}
	n := culprit(q)
	at := b.q.tokAt(n.Extent().Start)
	switch n := n.(type) {
	case *ast.Binary:
		// At the operator: the first token after the left operand.
		at = b.q.tokAt(n.L.Extent().End)
		return b.errAt(at, ErrUnsupported, fmt.Sprintf("operator %q is not supported", n.Op))
	case *ast.Cast:
		if _, ok := castType(n.Type); !ok {
			return b.typeNameErr(n.Type)
		}
	case *ast.TypedLit:
		if _, ok := castType(n.Type); !ok {
			return b.typeNameErr(n.Type)
		}
	case *ast.GroupBy:
		for _, it := range n.Items {
			r, ok := it.(*ast.GroupingSet)
			if !ok || r.Kind != "ROLLUP" || !strings.HasSuffix(strings.ToUpper(b.q.src.Text[r.Start:r.End]), "WITH ROLLUP") {
				continue
			}
			for _, g := range r.Items {
				if g, ok := g.(*ast.GroupingSet); ok {
					// GROUP BY ROLLUP (g) WITH ROLLUP: WITH follows the
					// inner rollup.
					return b.errAt(b.q.tokAt(g.End), ErrSyntax, "WITH ROLLUP cannot be combined with GROUPING SETS, ROLLUP or CUBE")
				}
			}
		}
	case *ast.Query:
	case *ast.TableFunc:
		if f := n.Func; !n.Lateral && n.Sample == nil && len(f.Name) == 1 && !knownTableFunc(strings.ToLower(f.Name[0].Name)) {
			name := f.Name[0].Name
			return b.errAt(at, ErrUnknownFunction, fmt.Sprintf("unknown table function %q%s", name, didYouMean(name, function.Names(function.Table))))
		}
	}
	return b.errAt(at, ErrUnsupported, b.unsupportedWhat(n)+" is not supported")
}

// typeNameErr refuses a type name castType does not read: unknown, or
// known with parameters it does not take.
func (b *binder) typeNameErr(t *ast.TypeName) error {
	msg := fmt.Sprintf("type %q is not supported", b.q.src.Text[t.Start:t.End])
	if _, why, is := geometryTypeName(t); t.Name == "ENUM" || is && why != "" {
		return b.errAt(b.q.tokAt(t.Start), ErrType, typeNameMsg(b.q.src.Text, t, nil))
	}
	var params []int
	for _, p := range t.Params {
		if l, ok := p.(*ast.Literal); ok && l.Kind == ast.LitNumber {
			var n int
			fmt.Sscan(l.Val, &n)
			params = append(params, n)
		}
	}
	if len(t.Fields)+len(t.Args)+len(t.Array) == 0 && t.Schema == "" {
		if _, err := parseTypeName(strings.Fields(t.Name), params); err != nil {
			msg = err.Error()
		}
	}
	return b.errAt(b.q.tokAt(t.Start), ErrType, msg)
}

// nodeBindable reports whether n has a bind case, by its kind.
func nodeBindable(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.Query:
		return queryBindable(n)
	case *ast.Select:
		return selectBindable(n)
	case ast.QueryBody:
		return bodyBindable(n)
	case ast.TableRef:
		return tableRefBindable(n)
	case *ast.Star:
		return starBindable(n)
	case *ast.CTE:
		return n.Query != nil && len(n.UsingKey) == 0 && queryBindable(n.Query)
	case *ast.GroupBy:
		for _, it := range n.Items {
			if !groupItemBindable(it) {
				return false
			}
		}
	case *ast.OrderItem:
		return n.X == nil || astBindable(n.X)
	case *ast.Lambda:
		return true // judged with the call it is an argument of
	case *ast.GroupingSet:
		return true // judged with its GROUP BY
	case ast.Expr:
		return astBindable(n)
	case *ast.Window:
		return windowBindable(n)
	case *ast.Sample:
		return true // read when bound (bind_sample.go)
	}
	return true
}

// culprit returns the innermost node under n (n itself included) that
// does not bind while its children do.
func culprit(n ast.Node) ast.Node {
	for _, c := range childNodes(n) {
		if !nodeBindable(c) {
			return culprit(c)
		}
	}
	for _, c := range childNodes(n) {
		// A clause of n the predicates judge with n (a CTE's USING KEY,
		// a star's RENAME): look below for a node that fails alone.
		if d := culprit(c); d != c {
			return d
		}
	}
	return n
}

var nodeType = reflect.TypeOf((*ast.Node)(nil)).Elem()

// childNodes lists the nodes directly under n, in field order.
func childNodes(n ast.Node) []ast.Node {
	var out []ast.Node
	v := reflect.ValueOf(n)
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	var add func(f reflect.Value)
	add = func(f reflect.Value) {
		switch f.Kind() {
		case reflect.Pointer, reflect.Interface:
			if f.IsNil() {
				return
			}
			if c, ok := f.Interface().(ast.Node); ok {
				out = append(out, c)
			}
		case reflect.Slice:
			for i := range f.Len() {
				add(f.Index(i))
			}
		}
	}
	for i := range v.NumField() {
		if v.Type().Field(i).IsExported() && v.Type().Field(i).Name != "Span" {
			add(v.Field(i))
		}
	}
	return out
}

// unsupportedWhat names n for a refusal: the construct, or its text.
func (b *binder) unsupportedWhat(n ast.Node) string {
	sp := n.Extent()
	text := strings.Join(strings.Fields(b.q.src.Text[sp.Start:sp.End]), " ")
	if len(text) > 40 {
		text = text[:37] + "…"
	}
	switch n := n.(type) {
	case *ast.Row:
		return fmt.Sprintf("the row value %q here", text)
	case *ast.Sample:
		return "USING SAMPLE / TABLESAMPLE"
	case *ast.Join:
		kind := n.Kind
		if n.Asof {
			kind = "ASOF " + kind
		}
		return kind + " JOIN"
	case *ast.Derived:
		if n.Lateral {
			return "LATERAL"
		}
	case *ast.TableFunc:
		if n.Lateral {
			return "LATERAL"
		}
		return fmt.Sprintf("table function %s(…) here", n.Func.Name.Last().Name)
	case *ast.Binary:
		return fmt.Sprintf("operator %q", n.Op)
	case *ast.Quantified:
		if n.Query == nil {
			return fmt.Sprintf("%s %s over a list", n.Op, n.Quant)
		}
	case *ast.Unary:
		return fmt.Sprintf("operator %q", n.Op)
	case *ast.Func:
		return fmt.Sprintf("%s(…) in this form", n.Name.Last().Name)
	case *ast.Query:
		if n.Limit != nil && n.Limit.Percent {
			return "LIMIT … PERCENT"
		}
	case *ast.CTE:
		if len(n.UsingKey) > 0 {
			return "WITH … USING KEY"
		}
	}
	return fmt.Sprintf("%q", text)
}

// knownTableFunc reports whether fn names a table function.
func knownTableFunc(fn string) bool {
	switch fn {
	case "unnest":
		return true
	}
	if catalogTableFuncs[fn] {
		return true
	}
	_, ok := function.Find(function.Table, fn)
	return ok
}
