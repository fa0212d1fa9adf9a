package dml

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// RETURNING: the statement keeps the rows it wrote (the new versions for
// INSERT and UPDATE, the removed rows for DELETE) in the table's columns,
// and its RETURNING items, a SELECT over the table (sql.Insert.Returning),
// are bound against them standing in for the table: names, *,
// expressions and errors are those of SELECT, and the statement's result
// is that query's rows instead of a count.

// written collects the rows a statement wrote, when it has RETURNING
// (nil: it has none, and collects nothing).
type written struct {
	env    *Env
	q      *sql.Query // RETURNING's query
	table  string
	args   []columnar.Value
	schema columnar.Schema // the table's columns, set by the statement (of)
	rows   [][]columnar.Value
}

func newWritten(env *Env, q *sql.Query, table string, args []columnar.Value) *written {
	if q == nil {
		return nil
	}
	return &written{env: env, q: q, table: table, args: args}
}

// of records the written table's columns, and binds RETURNING's query
// over no rows: an error in it stops the statement before it writes.
func (w *written) of(schema columnar.Schema) error {
	if w == nil {
		return nil
	}
	w.schema = schema
	_, err := w.bind()
	return err
}

// bind binds RETURNING's query over the rows kept so far (with the
// table's generated columns, computed from them).
func (w *written) bind() (*sql.Bound, error) {
	var t planner.Table = catalog.NewMemTable(w.schema, w.rows)
	if target, ok := w.env.Cat.Table(w.table); ok {
		if g, ok := target.(sql.GeneratedTable); ok && len(g.Generated()) > 0 {
			t = generatedRows{t, g.Generated()}
		}
	}
	return w.env.Bind(w.q, &overlayCatalog{ViewCatalog: w.env.Cat, tables: map[string]planner.Table{strings.ToLower(w.table): t}}, w.args)
}

// generatedRows is rows of a table's stored columns that compute its
// generated ones when read, as the table does.
type generatedRows struct {
	planner.Table
	gens []sql.GeneratedColumn
}

func (g generatedRows) Generated() []sql.GeneratedColumn { return g.gens }

// row keeps one row (owned by the collector from now on).
func (w *written) row(r []columnar.Value) {
	if w != nil {
		w.rows = append(w.rows, r)
	}
}

// batch keeps the live rows of b, a batch of the table's columns.
func (w *written) batch(b *columnar.Batch) {
	w.cols(b, 0, len(b.Cols))
}

// cols keeps, for each live row of b, its columns [lo, hi).
func (w *written) cols(b *columnar.Batch, lo, hi int) {
	if w == nil {
		return
	}
	for k := 0; k < b.Live(); k++ {
		w.rowOf(b, b.Row(k), lo, hi)
	}
}

// rowOf keeps columns [lo, hi) of b's row r.
func (w *written) rowOf(b *columnar.Batch, r, lo, hi int) {
	if w == nil {
		return
	}
	row := make([]columnar.Value, hi-lo)
	for i := lo; i < hi; i++ {
		v := b.Cols[i]
		if v.Const {
			row[i-lo] = v.Value(0)
		} else {
			row[i-lo] = v.Value(r)
		}
	}
	w.rows = append(w.rows, row)
}

// overlayCatalog is the catalog with some names standing for tables of
// rows a statement holds (lower-case name → table): RETURNING's written
// rows, DO UPDATE's existing and proposed rows.
type overlayCatalog struct {
	planner.ViewCatalog
	tables map[string]planner.Table
}

func (c *overlayCatalog) Table(name string) (planner.Table, bool) {
	if t, ok := c.tables[strings.ToLower(name)]; ok {
		return t, true
	}
	return c.ViewCatalog.Table(name)
}

func (c *overlayCatalog) View(name string) (string, bool) {
	if _, ok := c.tables[strings.ToLower(name)]; ok {
		return "", false
	}
	return c.ViewCatalog.View(name)
}

// returning binds and builds RETURNING's query over the rows w holds.
func (w *written) returning() (*Outcome, error) {
	bound, err := w.bind()
	if err != nil {
		return nil, err
	}
	built, err := w.env.Build(bound.Root, false)
	if err != nil {
		return nil, err
	}
	return &Outcome{Returning: built, Names: bound.Names}, nil
}
