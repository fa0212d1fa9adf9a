package dml

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// DELETE and UPDATE address rows by row id, as DuckDB's PhysicalDelete
// and PhysicalUpdate do: their query reads the target table through
// sql.RowIDTable, the rowid pseudo-column's table (sql/rowid.go), whose
// scan numbers the rows it produces (the position among the live rows of
// the version being changed, which is what an in-memory table's slice
// index and ctable.Change.DeleteLive count), and carries that number to
// the query's last output column. The statement then
// changes the rows by number, whatever order the plan emits them in.

// rowIDCatalog binds a DELETE's or UPDATE's query: the target table is
// read through a sql.RowIDTable (the first one made is the statement's own
// FROM; a subquery naming the table again gets another).
type rowIDCatalog struct {
	planner.ViewCatalog
	name   string
	target *sql.RowIDTable
}

func (c *rowIDCatalog) Table(name string) (planner.Table, bool) {
	t, ok := c.ViewCatalog.Table(name)
	if !ok || !strings.EqualFold(name, c.name) {
		return t, ok
	}
	rt := sql.NewRowIDTable(t)
	if c.target == nil {
		c.target = rt
	}
	return rt, true
}

// addressed binds q (SELECT … FROM table) so that its output columns are
// q's, then with withOld the table's columns as they are, then the row id.
func addressed(env *Env, table string, q *sql.Query, args []columnar.Value, withOld bool) (planner.Node, error) {
	cat := &rowIDCatalog{ViewCatalog: env.Cat, name: table}
	bound, err := env.Bind(q, cat, args)
	if err != nil {
		return nil, err
	}
	p, ok := bound.Root.(*planner.Project)
	scan := findScan(bound.Root, cat.target)
	if !ok || scan == nil {
		return nil, fmt.Errorf("internal error: cannot address the rows of %q in %T", table, bound.Root)
	}
	id := cat.target.ID()
	var cols []planner.Column
	if withOld {
		for j, tc := range scan.TableCols {
			if tc != id {
				cols = append(cols, scan.Cols[j])
			}
		}
	}
	for j, tc := range scan.TableCols {
		if tc == id {
			cols = append(cols, scan.Cols[j])
		}
	}
	np := &planner.Project{Input: p.Input, Exprs: append([]planner.Expr(nil), p.Exprs...), Out: append([]planner.Column(nil), p.Out...)}
	for _, c := range cols {
		np.Exprs = append(np.Exprs, &planner.ColRef{Col: c})
		np.Out = append(np.Out, c)
	}
	return np, nil
}

// findScan returns the Scan of t in the plan under n.
func findScan(n planner.Node, t planner.Table) *planner.Scan {
	if s, ok := n.(*planner.Scan); ok && s.Table == t {
		return s
	}
	for _, c := range n.Children() {
		if s := findScan(c, t); s != nil {
			return s
		}
	}
	return nil
}

// AddressedPlan builds the query of a DELETE (its WHERE) or UPDATE (its
// new values and WHERE) with the row id as its last column, as the
// statement runs it; EXPLAIN shows it.
func AddressedPlan(env *Env, stmt sql.Statement, args []columnar.Value, analyze bool) (*planner.Built, error) {
	var root planner.Node
	var err error
	switch s := stmt.(type) {
	case *sql.Delete:
		// RETURNING reads a CTable's removed rows from the query.
		root, err = addressed(env, s.Table, s.Where, args, s.Returning != nil && updatesFile(env, s.Table))
	case *sql.Update:
		root, err = addressed(env, s.Table, s.Query, args, updatesFile(env, s.Table))
	default:
		return nil, fmt.Errorf("unexpected statement %T", stmt)
	}
	if err != nil {
		return nil, err
	}
	return env.Build(root, analyze)
}

// updatesFile reports whether UPDATE of table rewrites rows of a file (a
// CTable), whose query must then also carry the old values of every
// column; an in-memory table replaces rows in place by row id.
func updatesFile(env *Env, table string) bool {
	t, ok := env.Cat.Table(table)
	_, isMem := t.(*catalog.MemTable)
	return ok && !isMem
}
