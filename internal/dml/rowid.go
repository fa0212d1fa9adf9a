package dml

import (
	"context"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// DELETE and UPDATE address rows by row id, as DuckDB's PhysicalDelete
// and PhysicalUpdate do: their query reads the target table through
// rowIDTable, whose scan numbers the rows it produces (the position among
// the live rows of the version being changed, which is what an in-memory
// table's slice index and ctable.Change.DeleteLive count), and carries
// that number to the query's last output column. The statement then
// changes the rows by number, whatever order the plan emits them in.

// rowIDName names the row id column: DuckDB's pseudo-column, unless the
// table has a column of that name.
const rowIDName = "rowid"

// rowIDTable is a table with one more column, the row id. It advertises
// none of its table's pushdown (no filter, pruning or parallel scan), so
// that the scan produces every live row, in order, numbered.
type rowIDTable struct {
	t      planner.Table
	schema columnar.Schema
}

func newRowIDTable(t planner.Table) *rowIDTable {
	base := t.Schema()
	name := rowIDName
	for _, f := range base {
		if strings.EqualFold(f.Name, name) {
			name = "\x00rowid" // not nameable in SQL: the table's own rowid stays visible
		}
	}
	schema := append(append(columnar.Schema(nil), base...), columnar.Field{Name: name, Type: columnar.TInt64})
	return &rowIDTable{t: t, schema: schema}
}

func (r *rowIDTable) Schema() columnar.Schema { return r.schema }

// Generated passes on the table's generated columns (the row id is
// stored columns' last, so their places are unchanged): a WHERE or SET
// of DELETE and UPDATE reads them as a query does.
func (r *rowIDTable) Generated() []sql.GeneratedColumn {
	if g, ok := r.t.(sql.GeneratedTable); ok {
		return g.Generated()
	}
	return nil
}

func (r *rowIDTable) Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	id := len(r.schema) - 1
	inner := spec
	inner.Cols = nil
	inner.Threads = 1 // one stream, in physical order: a parallel scan interleaves its units
	out := -1         // position of the row id among spec.Cols
	for i, c := range spec.Cols {
		if c == id {
			out = i
			continue
		}
		inner.Cols = append(inner.Cols, c)
	}
	pad := len(inner.Cols) == 0 // a scan of no columns still counts rows: read the first
	if pad {
		inner.Cols = []int{0}
	}
	rd, err := r.t.Scan(ctx, inner)
	if err != nil {
		return nil, err
	}
	return &rowIDReader{r: rd, schema: r.schema, cols: spec.Cols, out: out, pad: pad}, nil
}

type rowIDReader struct {
	r      columnar.Reader
	schema columnar.Schema
	cols   []int
	out    int
	pad    bool
	next   int64 // the row id of the next live row
	b      columnar.Batch
	ids    *columnar.Vector
}

func (r *rowIDReader) Schema() columnar.Schema {
	s := make(columnar.Schema, len(r.cols))
	for i, c := range r.cols {
		s[i] = r.schema[c]
	}
	return s
}

func (r *rowIDReader) Next(ctx context.Context) (*columnar.Batch, error) {
	b, err := r.r.Next(ctx)
	if err != nil {
		return nil, err
	}
	if r.out < 0 {
		r.next += int64(b.Live())
		return b, nil
	}
	if r.ids == nil {
		r.ids = columnar.NewVector(columnar.TInt64, b.Len)
	}
	r.ids.Reset(b.Len)
	for k := 0; k < b.Live(); k++ {
		r.ids.Ints[b.Row(k)] = r.next
		r.next++
	}
	in := b.Cols
	if r.pad {
		in = nil
	}
	r.b.Cols = append(r.b.Cols[:0], in[:r.out]...)
	r.b.Cols = append(r.b.Cols, r.ids)
	r.b.Cols = append(r.b.Cols, in[r.out:]...)
	r.b.Len, r.b.Sel = b.Len, b.Sel
	return &r.b, nil
}

func (r *rowIDReader) Close() error { return r.r.Close() }

// rowIDCatalog binds a DELETE's or UPDATE's query: the target table is
// read through a rowIDTable (the first one made is the statement's own
// FROM; a subquery naming the table again gets another).
type rowIDCatalog struct {
	planner.ViewCatalog
	name   string
	target *rowIDTable
}

func (c *rowIDCatalog) Table(name string) (planner.Table, bool) {
	t, ok := c.ViewCatalog.Table(name)
	if !ok || !strings.EqualFold(name, c.name) {
		return t, ok
	}
	rt := newRowIDTable(t)
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
	id := len(cat.target.schema) - 1
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
