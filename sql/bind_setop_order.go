package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// ORDER BY of a positional set operation: besides an output column's name
// or position, DuckDB takes a column as any branch's SELECT names it, with
// or without the branch's table qualifier: SELECT t1.x FROM t1 UNION
// SELECT y FROM t2 ORDER BY t1.x (or y, or t2.y) orders by the first
// output column. The first branch, left to right, that names the column
// decides its position. BY NAME unions match columns by name instead: a
// qualified name whose table some branch reads names the output column of
// that name.

// setOpLeaf is one branch of a set operation: its output names, and the
// SELECT it came from (nil for VALUES or a query in parentheses).
type setOpLeaf struct {
	names []string
	sel   *ast.Select
}

// setOpLeaves collects the branches of a set operation as it binds;
// byName is set when some part is a UNION BY NAME.
type setOpLeaves struct {
	leaves []setOpLeaf
	byName bool
}

// nested adds the SELECTs of a set operation in parentheses, bound as one
// branch, for their tables only (their positions are the branch's).
func (s *setOpLeaves) nested(body ast.QueryBody) {
	switch x := body.(type) {
	case *ast.SetOp:
		s.nested(x.L)
		s.nested(x.R)
	case *ast.Query:
		if x.With == nil {
			s.nested(x.Body)
		}
	case *ast.Select:
		s.leaves = append(s.leaves, setOpLeaf{sel: x})
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

// position returns the output position that c names in some branch.
func (s *setOpLeaves) position(c *ast.ColumnRef) (int, bool) {
	if s == nil || s.byName || len(c.Name) > 2 {
		return 0, false
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
			if strings.EqualFold(n, name) || leaf.itemIsColumn(i, name) {
				return i, true
			}
		}
	}
	return 0, false
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
