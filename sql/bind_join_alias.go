package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// aliasedJoin binds (a JOIN b) AS x [(c1, c2, …)]: the join's columns, as
// SELECT * would list them (a USING column once), become the columns of
// a relation named x, renamed by the column list, and the names a and b
// are no longer in scope, as in DuckDB.
func (b *binder) aliasedJoin(t *ast.Join, unnamed *int) (*fromItem, error) {
	bare := *t
	bare.Alias = nil
	it, err := b.bindTableRefAST(&bare, unnamed)
	if err != nil {
		return nil, err
	}
	saved := b.saveScope()
	b.scope, b.quals, b.hidden = it.cols, it.quals, it.hidden
	proj, names, err := b.starProject(it.node, t.Span)
	b.restoreScope(saved)
	if err != nil {
		return nil, err
	}
	cols := aliasColumns(t.Alias)
	if len(cols) > len(names) {
		return nil, b.errAt(b.q.tokAt(t.Alias.Columns[len(names)].Start), ErrType,
			fmt.Sprintf("table %q has %d columns available but %d columns specified", t.Alias.Name.Name, len(names), len(cols)))
	}
	return b.relation(&Bound{Root: proj, Names: names}, t.Alias.Name.Name, cols, b.errAtRef(t))
}

// starProject projects input to the columns * lists in the binder's
// current scope, with their names.
func (b *binder) starProject(input planner.Node, sp ast.Span) (*planner.Project, []string, error) {
	items, err := b.starItems(&ast.Star{Span: sp})
	if err != nil {
		return nil, nil, err
	}
	proj := &planner.Project{Input: input}
	names := make([]string, len(items))
	for i, si := range items {
		var x planner.Expr
		if si.star != nil {
			x = &planner.ColRef{Col: *si.star}
		} else if x, err = b.bindClauseExpr(si.src, ectx{sp: si.sp, clause: "FROM"}); err != nil {
			return nil, nil, err
		}
		names[i] = si.name
		proj.Exprs = append(proj.Exprs, x)
		proj.Out = append(proj.Out, b.newCol(si.name, "", x.Type()))
	}
	return proj, names, nil
}
