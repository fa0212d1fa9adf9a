package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// ORDER BY of a set operation: besides an output column's name or
// position, DuckDB takes a column as any branch's SELECT names it, with or
// without the branch's table qualifier: SELECT t1.x FROM t1 UNION SELECT y
// FROM t2 ORDER BY t1.x (or y, or t2.y) orders by the first output column.
// The first branch, left to right, that names the column decides. Each
// branch records where its columns land in the output: the same position
// under UNION, INTERSECT and EXCEPT; under UNION BY NAME the position of
// the column's name, so that in (SELECT x FROM t1 UNION ALL SELECT y FROM
// t1) UNION BY NAME (SELECT z FROM t2) ORDER BY y, y is the output's x. A
// qualified name that lands on two positions under BY NAME (SELECT x AS a
// FROM t1 UNION BY NAME SELECT x AS b FROM t1 ORDER BY t1.x) is ambiguous,
// as DuckDB says.

// setOpLeaf is one branch of a set operation: its output names, the
// SELECT it came from (nil for VALUES or a query in parentheses), and
// pos, the output position of each of its columns (-1: none known).
type setOpLeaf struct {
	names []string
	sel   *ast.Select
	pos   []int
}

// newLeaf is a branch whose columns are the output's, in order.
func newLeaf(names []string, sel *ast.Select) setOpLeaf {
	pos := make([]int, len(names))
	for i := range pos {
		pos[i] = i
	}
	return setOpLeaf{names: names, sel: sel, pos: pos}
}

// setOpLeaves collects the branches of a set operation as it binds;
// byName is set when some part is a UNION BY NAME.
type setOpLeaves struct {
	leaves []setOpLeaf
	byName bool
}

// nested adds the SELECTs of a set operation in parentheses, bound as one
// branch: the names their items give (an alias, a column's name), at
// their positions in it, or, under a BY NAME inside, for their tables
// only.
func (s *setOpLeaves) nested(body ast.QueryBody) {
	switch x := body.(type) {
	case *ast.SetOp:
		if x.ByName {
			s.tablesOnly(x)
			return
		}
		s.nested(x.L)
		s.nested(x.R)
	case *ast.Query:
		if x.With == nil {
			s.nested(x.Body)
		}
	case *ast.Select:
		names := make([]string, len(x.Items))
		for i, it := range x.Items {
			if expands(it.X) {
				names = nil // a * or COLUMNS moves what follows
				break
			}
			if it.Alias != nil {
				names[i] = it.Alias.Name
			} else if c, ok := it.X.(*ast.ColumnRef); ok {
				names[i] = c.Name.Last().Name
			}
		}
		s.leaves = append(s.leaves, newLeaf(names, x))
	}
}

// expands reports whether select item e may stand for several columns.
func expands(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(x ast.Expr) bool {
		switch x.(type) {
		case *ast.Star, *ast.Columns:
			found = true
		}
		return !found
	})
	return found
}

// tablesOnly adds the SELECTs under body for their tables alone.
func (s *setOpLeaves) tablesOnly(body ast.QueryBody) {
	switch x := body.(type) {
	case *ast.SetOp:
		s.tablesOnly(x.L)
		s.tablesOnly(x.R)
	case *ast.Query:
		if x.With == nil {
			s.tablesOnly(x.Body)
		}
	case *ast.Select:
		s.leaves = append(s.leaves, setOpLeaf{sel: x})
	}
}

// remap moves the columns of the branches from index from on, whose
// positions were in a side of the output names sideNames, to the
// positions of the same names in names (UNION BY NAME).
func (s *setOpLeaves) remap(from int, sideNames, names []string) {
	at := make([]int, len(sideNames))
	for i, n := range sideNames {
		at[i] = -1
		for j, m := range names {
			if strings.EqualFold(n, m) {
				at[i] = j
				break
			}
		}
	}
	for k := from; k < len(s.leaves); k++ {
		for i, p := range s.leaves[k].pos {
			if p >= 0 && p < len(at) {
				s.leaves[k].pos[i] = at[p]
			} else {
				s.leaves[k].pos[i] = -1
			}
		}
	}
}

// qualifies reports whether c is table.column with a table some branch
// reads.
func (s *setOpLeaves) qualifies(c *ast.ColumnRef) bool {
	if len(c.Name) != 2 {
		return false
	}
	for _, leaf := range s.leaves {
		if leaf.sel != nil && fromNames(leaf.sel.From, c.Name[0].Name) {
			return true
		}
	}
	return false
}

// position returns the output position that c names in some branch;
// ambiguous reports a qualified c that names two under BY NAME.
func (s *setOpLeaves) position(c *ast.ColumnRef) (at int, found, ambiguous bool) {
	if s == nil || len(c.Name) > 2 {
		return 0, false, false
	}
	name, qual := c.Name.Last().Name, ""
	if len(c.Name) == 2 {
		qual = c.Name[0].Name
	}
	for _, leaf := range s.leaves {
		if qual != "" && (leaf.sel == nil || !fromNames(leaf.sel.From, qual)) {
			continue
		}
		for i, n := range leaf.names {
			if i >= len(leaf.pos) || leaf.pos[i] < 0 || !strings.EqualFold(n, name) && !leaf.itemIsColumn(i, name) {
				continue
			}
			switch {
			case !found:
				at, found = leaf.pos[i], true
			case qual != "" && s.byName && leaf.pos[i] != at:
				return 0, false, true
			}
			if qual == "" || !s.byName {
				return at, true, false
			}
			break
		}
	}
	return at, found, false
}

// itemIsColumn reports whether select item i of the branch is a plain
// reference to a column called name (x of "x AS a").
func (l setOpLeaf) itemIsColumn(i int, name string) bool {
	if l.sel == nil || len(l.sel.Items) != len(l.names) {
		return false // a * expands to other positions
	}
	c, ok := l.sel.Items[i].X.(*ast.ColumnRef)
	return ok && strings.EqualFold(c.Name.Last().Name, name)
}

// fromNames reports whether a FROM clause has a table, table function or
// derived table called (or aliased) qual.
func fromNames(from []ast.TableRef, qual string) bool {
	for _, t := range from {
		switch t := t.(type) {
		case *ast.Table:
			if t.Alias != nil && t.Alias.Name != nil {
				if strings.EqualFold(t.Alias.Name.Name, qual) {
					return true
				}
			} else if len(t.Name) > 0 && strings.EqualFold(t.Name.Last().Name, qual) {
				return true
			}
		case *ast.Derived:
			if t.Alias != nil && t.Alias.Name != nil && strings.EqualFold(t.Alias.Name.Name, qual) {
				return true
			}
		case *ast.TableFunc:
			if t.Alias != nil && t.Alias.Name != nil && strings.EqualFold(t.Alias.Name.Name, qual) {
				return true
			}
		case *ast.Join:
			if fromNames([]ast.TableRef{t.L, t.R}, qual) {
				return true
			}
		}
	}
	return false
}
