package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// unnest(l) in a select list (DuckDB's): the row repeats once per element
// of l, the call's value being the element; several unnests in one list
// run side by side up to the longest (the shorter padded with NULL), and
// unnest(unnest(l)) unnests a level deeper. unnest(l, recursive := true)
// unnests every level of a list of lists, then of the structs in it;
// unnest(s) of a struct gives a column per field (bind_unnest_struct.go). The call binds to a placeholder
// Call "unnest" (its value is the element's type); unnestNode then puts
// a planner.Unnest under the select list's Project and reads its
// columns instead.

// bindUnnest binds unnest(list [, recursive := bool] [, max_depth := n]).
func (b *binder) bindUnnest(e *ast.Func, c ectx) (planner.Expr, error) {
	at := b.q.tokAt(e.Start)
	if c.clause != "SELECT" || c.inAgg {
		return nil, b.errAt(at, ErrUnsupported, "UNNEST not supported here")
	}
	if len(e.Args) == 0 || e.Distinct || e.Star {
		return nil, b.arity(at, "unnest", "1")
	}
	recursive, depth := false, int64(1)
	for _, a := range e.Args[1:] {
		n, ok := a.(*ast.NamedArg)
		if !ok {
			return nil, b.errAt(b.q.tokAt(a.Extent().Start), ErrType, "unnest takes one list and the named arguments recursive and max_depth")
		}
		x, err := b.bindAST(n.Value, c)
		if err != nil {
			return nil, err
		}
		k, ok := planner.FoldExpr(x).(*planner.Const)
		switch strings.ToLower(n.Name.Name) {
		case "recursive":
			if !ok || k.Val.Type.ID != columnar.Bool || k.Val.Null {
				return nil, b.errAt(b.q.tokAt(n.Value.Extent().Start), ErrType, "recursive expects a constant boolean")
			}
			recursive = k.Val.I != 0
		case "max_depth":
			if !ok || !k.Val.Type.IsInteger() || k.Val.Null || k.Val.I < 1 {
				return nil, b.errAt(b.q.tokAt(n.Value.Extent().Start), ErrType, "max_depth expects a constant positive integer")
			}
			depth = k.Val.I
		default:
			return nil, b.errAt(b.q.tokAt(n.Start), ErrType, "unnest has no argument named "+quote(n.Name.Name))
		}
	}
	x, err := b.bindAST(e.Args[0], c)
	if err != nil {
		return nil, err
	}
	return b.unnestCall(x, astSrc(e.Args[0]), recursive, depth, at, c)
}

// unnestCall is the placeholder of unnest over a bound list x, depth
// levels deep (all of them when recursive).
func (b *binder) unnestCall(x planner.Expr, src callexpr.Expr, recursive bool, depth int64, at int, c ectx) (planner.Expr, error) {
	if c.clause != "SELECT" || c.inAgg {
		return nil, b.errAt(at, ErrUnsupported, "UNNEST not supported here")
	}
	if hasUnnest(x) {
		return nil, b.errAt(at, ErrUnsupported, "nested UNNEST calls are not supported; use UNNEST(x, recursive := true) to unnest several levels")
	}
	var err error
	switch x.Type().ID {
	case columnar.Null:
		if x, err = b.coerce(x, columnar.ListOf(columnar.TInt32), src, c); err != nil {
			return nil, err
		}
	case columnar.List, columnar.Struct:
	default:
		return nil, b.typeErr(src, c, "unnest can only be applied to lists, structs and NULL, not %s", x.Type())
	}
	if recursive {
		depth = 1 << 30
	}
	// Each level unnested, list or struct, counts against depth; lists
	// come first (a struct's fields do not multiply rows), then structs
	// (bind_unnest_struct.go).
	for ; depth > 0 && x.Type().ID == columnar.List; depth-- {
		x = &planner.Call{Fn: "unnest", Args: []planner.Expr{x}, T: x.Type().Elem()}
	}
	if depth > 0 && x.Type().ID == columnar.Struct {
		x = structUnnestCall(x, depth)
	}
	return x, nil
}

// unnestNode replaces the unnest placeholders of proj's expressions by
// the columns of Unnest nodes over input, innermost first, and returns
// the new input. Unnests of different depths line up at their last level,
// as in DuckDB: unnest(l, max_depth := 2) beside unnest(m) first unnests
// l's outer level alone (m repeats whole), then l's inner level side by
// side with m's only one. Each pass lifts one level of the deepest
// chains left.
func (b *binder) unnestNode(proj *planner.Project, input planner.Node) planner.Node {
	for {
		u := &planner.Unnest{Input: input}
		// One column per unnest call, even where a call is shared by
		// several expressions (the fields of an unnested struct).
		lifted := map[*planner.Call]planner.Expr{}
		deepest := 0
		for _, e := range proj.Exprs {
			deepest = max(deepest, unnestDepth(e))
		}
		for i, e := range proj.Exprs {
			proj.Exprs[i] = b.liftUnnests(e, u, lifted, deepest)
		}
		if len(u.Exprs) == 0 {
			return input
		}
		input = u
	}
}

// unnestDepth is the length of the longest chain of unnest calls in e
// (unnest(unnest(l)) is 2).
func unnestDepth(e planner.Expr) int {
	d := 0
	switch x := e.(type) {
	case *planner.Call:
		for _, a := range x.Args {
			d = max(d, unnestDepth(a))
		}
		if x.Fn == "unnest" {
			d++
		}
	case *planner.Case:
		for _, w := range x.Whens {
			d = max(d, unnestDepth(w.Cond), unnestDepth(w.Then))
		}
		if x.Else != nil {
			d = max(d, unnestDepth(x.Else))
		}
	case *planner.Cast:
		d = unnestDepth(x.Arg)
	}
	return d
}

// liftUnnests moves the innermost unnest calls of the chains of e that are
// deepest long (one column per call) into u and returns e reading those
// columns; shorter chains wait for a later pass (deepest 0: lift any). lifted maps each call
// already rewritten in this pass to its rewrite, so a call shared by
// several expressions stays shared (and unnests once).
func (b *binder) liftUnnests(e planner.Expr, u *planner.Unnest, lifted map[*planner.Call]planner.Expr, deepest int) planner.Expr {
	switch x := e.(type) {
	case *planner.Call:
		if y, ok := lifted[x]; ok {
			return y
		}
		if x.Fn == "unnest" && deepest > 0 && unnestDepth(x) < deepest {
			return e
		}
		if x.Fn == "unnest" && !hasUnnest(x.Args[0]) {
			col := b.newCol("unnest", "", x.T)
			u.Exprs = append(u.Exprs, x.Args[0])
			u.Out = append(u.Out, col)
			lifted[x] = &planner.ColRef{Col: col}
			return lifted[x]
		}
		c := *x
		c.Args = make([]planner.Expr, len(x.Args))
		inner := deepest
		if x.Fn == "unnest" {
			inner = 0 // inside a chain that is lifted this pass
		}
		for i, a := range x.Args {
			c.Args[i] = b.liftUnnests(a, u, lifted, inner)
		}
		lifted[x] = &c
		return &c
	case *planner.Case:
		c := *x
		c.Whens = make([]planner.When, len(x.Whens))
		for i, w := range x.Whens {
			c.Whens[i] = planner.When{Cond: b.liftUnnests(w.Cond, u, lifted, deepest), Then: b.liftUnnests(w.Then, u, lifted, deepest)}
		}
		if x.Else != nil {
			c.Else = b.liftUnnests(x.Else, u, lifted, deepest)
		}
		return &c
	case *planner.Cast:
		c := *x
		c.Arg = b.liftUnnests(x.Arg, u, lifted, deepest)
		return &c
	}
	return e
}

func hasUnnest(e planner.Expr) bool {
	found := false
	planner.WalkExpr(e, func(x planner.Expr) {
		if c, ok := x.(*planner.Call); ok && (c.Fn == "unnest" || c.Fn == unnestStructFn) {
			found = true
		}
	})
	return found
}

// unnestTable binds unnest call f in FROM, aliased alias(cols…).
func (b *binder) unnestTable(f *ast.Func, alias string, cols []string, at int) (*fromItem, error) {
	if len(f.Args) != 1 {
		if len(f.Args) > 1 {
			if _, named := f.Args[1].(*ast.NamedArg); named {
				return nil, b.errAt(b.q.tokAt(f.Args[1].Extent().Start), ErrType, "unnest in FROM takes no named arguments")
			}
		}
		return nil, b.arity(at, "unnest", "1")
	}
	saved := b.saveScope()
	b.scope, b.quals, b.hidden = nil, nil, nil
	defer b.restoreScope(saved)
	x, err := b.bindUnnest(f, ectx{sp: b.q.spanOf(f), clause: "SELECT"})
	if err != nil {
		return nil, err
	}
	if isStructUnnest(x) {
		return nil, b.errAt(at, ErrType, "unnest in FROM expects a list, got "+x.Type().String())
	}
	name := "unnest"
	if len(cols) > 0 {
		name = cols[0]
	}
	if alias == "" {
		alias = "unnest"
	}
	one := &planner.Values{Rows: [][]planner.Expr{{&planner.Const{Val: columnar.IntValue(columnar.TInt32, 0)}}},
		Out: []planner.Column{b.newCol("unnest_row", "", columnar.TInt32)}}
	proj := &planner.Project{Exprs: []planner.Expr{x}, Out: []planner.Column{b.newCol(name, alias, x.Type())}}
	proj.Input = b.unnestNode(proj, one)
	return itemOf(proj, alias), nil
}

// isUnnestCall reports unnest(…) [AS u(x)] in FROM, LATERAL or not.
func isUnnestCall(t *ast.TableFunc) bool {
	f := t.Func
	return len(f.Name) == 1 && strings.EqualFold(f.Name[0].Name, "unnest") && t.Sample == nil && f.Over == nil && f.Filter == nil && len(f.OrderBy) == 0 && !f.Star
}

// lateralUnnest binds FROM …, unnest(list) [AS u(x)] where list may read
// the columns of the FROM elements before it (acc): each of acc's rows
// repeats once per element of its list, the element in a new column (a
// NULL or empty list gives no row), as DuckDB's implicit LATERAL join.
func (b *binder) lateralUnnest(acc *fromItem, t *ast.TableFunc) (*fromItem, error) {
	f := t.Func
	at := b.q.tokAt(f.Start)
	if len(f.Args) != 1 {
		if len(f.Args) > 1 {
			if _, named := f.Args[1].(*ast.NamedArg); named {
				return nil, b.errAt(b.q.tokAt(f.Args[1].Extent().Start), ErrType, "unnest in FROM takes no named arguments")
			}
		}
		return nil, b.arity(at, "unnest", "1")
	}
	alias, cols := aliasName(t.Alias), aliasColumns(t.Alias)
	if alias == "" {
		alias = "unnest"
	}
	for _, q := range acc.quals {
		if strings.EqualFold(q, alias) {
			return nil, b.errAt(at, ErrUnsupported, fmt.Sprintf("duplicate table name %q in FROM; use an alias", q))
		}
	}
	saved := b.saveScope()
	b.scope, b.quals, b.hidden = acc.cols, acc.quals, acc.hidden
	x, err := b.bindUnnest(f, ectx{sp: b.q.spanOf(f), clause: "SELECT"}) // unnest binds as in a select list
	b.restoreScope(saved)
	if err != nil {
		return nil, err
	}
	if isStructUnnest(x) {
		return nil, b.errAt(at, ErrType, "unnest in FROM expects a list, got "+x.Type().String())
	}
	name := "unnest"
	if len(cols) > 0 {
		name = cols[0]
	}
	col := b.newCol(name, alias, x.Type())
	proj := &planner.Project{}
	for _, c := range acc.node.Schema() {
		proj.Exprs = append(proj.Exprs, &planner.ColRef{Col: c})
		proj.Out = append(proj.Out, c)
	}
	proj.Exprs = append(proj.Exprs, x)
	proj.Out = append(proj.Out, col)
	proj.Input = b.unnestNode(proj, acc.node)
	out := &fromItem{node: proj, cols: append(append([]planner.Column(nil), acc.cols...), col),
		quals: append(append([]string(nil), acc.quals...), alias), hidden: acc.hidden}
	return out, nil
}
