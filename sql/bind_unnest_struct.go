package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// unnest of a STRUCT (DuckDB's): a select item unnest(s) becomes one
// column per field of s, named after the field, its value the field's;
// unnest(l) of a list of structs does so when max_depth (or recursive)
// leaves a level for the struct after the list's, and each further level
// left expands a struct field that is itself a struct (recursive: all of
// them). Lists inside the struct stay lists. A NULL struct gives NULL
// fields. Such an unnest may only be a whole select item: as DuckDB,
// unnest(s) + 1 or a struct unnest in FROM is an error.
//
// unnestCall (bind_unnest.go) binds the struct level to a placeholder
// Call unnestStructFn(s, levels); expandStructUnnests, once the select
// list is bound, replaces each placeholder item by its field items, and
// the list unnest under it (shared by the fields) runs once.

// unnestStructFn names the placeholder; it never reaches the executor.
const unnestStructFn = "unnest struct"

// structUnnestCall is the placeholder for unnesting struct x, levels
// struct levels deep.
func structUnnestCall(x planner.Expr, levels int64) *planner.Call {
	return &planner.Call{Fn: unnestStructFn, Args: []planner.Expr{x, &planner.Const{Val: columnar.IntValue(columnar.TInt64, levels)}}, T: x.Type()}
}

func isStructUnnest(x planner.Expr) bool {
	c, ok := x.(*planner.Call)
	return ok && c.Fn == unnestStructFn
}

// expandStructUnnests returns items with every struct-unnest item replaced
// by one item per (recursively expanded) field, or an error at the first
// item holding a struct unnest inside a larger expression.
func (b *binder) expandStructUnnests(items []selItem) ([]selItem, error) {
	n := 0
	for _, it := range items {
		if !structUnnestInside(it.expr) {
			continue
		}
		if !isStructUnnest(it.expr) || structUnnestInside(it.expr.(*planner.Call).Args[0]) {
			return nil, b.errAt(it.sp.lo, ErrUnsupported, "UNNEST() on a struct column can only be applied as the root element of a SELECT expression")
		}
		n++
	}
	if n == 0 {
		return items, nil
	}
	out := make([]selItem, 0, len(items)+n)
	for _, it := range items {
		if !isStructUnnest(it.expr) {
			out = append(out, it)
			continue
		}
		c := it.expr.(*planner.Call)
		levels := c.Args[1].(*planner.Const).Val.I
		out = structFieldItems(it, c.Args[0], levels, out)
	}
	return out, nil
}

// structFieldItems appends to out an item per field of struct x (named
// after the field, aliased nowhere), expanding struct fields while levels
// remain.
func structFieldItems(it selItem, x planner.Expr, levels int64, out []selItem) []selItem {
	for f, fd := range x.Type().Fields() {
		e := &planner.Call{Fn: "struct_extract", Args: []planner.Expr{x, &planner.Const{Val: columnar.IntValue(columnar.TInt64, int64(f))}}, T: fd.Type}
		if levels > 1 && fd.Type.ID == columnar.Struct {
			out = structFieldItems(it, e, levels-1, out)
			continue
		}
		out = append(out, selItem{src: it.src, name: fd.Name, sp: it.sp, expr: e})
	}
	return out
}

// structUnnestInside reports a struct-unnest placeholder anywhere in x.
func structUnnestInside(x planner.Expr) bool {
	found := false
	planner.WalkExpr(x, func(y planner.Expr) { found = found || isStructUnnest(y) })
	return found
}
