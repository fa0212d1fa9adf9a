package sql

import (
	"slices"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// Virtual columns (DuckDB 1.5): a file read has filename and file_index
// by name only. The binder asks the catalog for those the query names
// (FileCall.Virtual), so that a query that names none reads its files as
// before (Parquet's own many-file table, one file opened directly); the
// catalog reports which columns it added (VirtualTable), and the FROM
// element hides them from *, COLUMNS and NATURAL JOIN (hideStar).

// virtualNames returns the VirtualColumns that a column reference (its
// last part, in any case) or a JOIN … USING list of the query names,
// nested queries included: a correlated subquery may name its outer
// query's filename.
func (q *Query) virtualNames() []string { return q.namedColumns(VirtualColumns) }

// visibleCols counts the columns of a FROM element that * lists, for an
// alias's column list, which renames those.
func visibleCols(it *fromItem) int {
	n := 0
	for _, c := range it.cols {
		if it.hidden[c.ID]&hideStar == 0 {
			n++
		}
	}
	return n
}

// namedColumns returns those of names (lower case) that a column
// reference (its last part, in any case) or a JOIN … USING list of the
// statement names, nested queries included.
func (q *Query) namedColumns(names []string) []string {
	if !q.parsed() {
		return nil
	}
	var out []string
	add := func(name string) {
		for _, v := range names {
			if strings.EqualFold(name, v) && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	ast.WalkAll(q.tree, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.ColumnRef:
			if len(n.Name) > 0 {
				add(n.Name.Last().Name)
			}
		case *ast.Join:
			for _, u := range n.Using {
				add(u.Name)
			}
		}
	})
	return out
}
