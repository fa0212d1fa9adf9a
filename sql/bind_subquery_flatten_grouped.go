package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/planner"
)

// postAggFlatten flattens a correlated subquery in an aggregating query's
// SELECT list, HAVING or ORDER BY (SELECT g, (SELECT count(*) FROM u
// WHERE u.g = t.g) FROM t GROUP BY g): there the outer rows are the
// groups, so every outer column the subquery reads must be a group key,
// and the domain is the distinct group keys, read above the Aggregate
// (its node is filled in when built: b.postRows). The join goes above the
// Aggregate as an uncorrelated one does (joinSub, b.post).
func (b *binder) postAggFlatten(bd *Bound, child *binder, at int, value bool) (*boundSub, error) {
	f := &flattener{b: b, outerRefs: map[planner.ColID]bool{}, at: at, from: map[planner.ColID]planner.Expr{}}
	f.input = &planner.Values{} // replaced: each domain's Project gets the Aggregate as Input
	keyOf := map[planner.ColID]planner.Column{}
	for i, g := range b.agg.groups {
		if r, ok := g.(*planner.ColRef); ok && !b.agg.isSubqueryKey(i) {
			keyOf[r.Col.ID] = b.agg.groupCols[i]
		}
	}
	for _, col := range b.scope {
		if !child.outerRefs[col.ID] {
			continue
		}
		key, ok := keyOf[col.ID]
		if !ok {
			return nil, b.errAt(at, ErrGrouping, fmt.Sprintf("column %q must appear in the GROUP BY clause or be used in an aggregate function (read by a subquery here)", col.Name))
		}
		f.outer = append(f.outer, col)
		f.outerRefs[col.ID] = true
		f.from[col.ID] = &planner.ColRef{Col: key}
	}
	if len(f.outer) != len(child.outerRefs) {
		return nil, f.unsupported("in an aggregating query that reads columns of a query further out")
	}
	root, carried, err := f.push(bd.Root)
	if err != nil {
		return nil, err
	}
	sub := &boundSub{right: root}
	for _, o := range f.outer {
		sub.corr = append(sub.corr, sameValue(f.from[o.ID], &planner.ColRef{Col: carried[o.ID]})...)
	}
	if value {
		sub.value = bd.Root.Schema()[0]
	}
	return sub, nil
}
