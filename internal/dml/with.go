package dml

import (
	"context"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// A statement that writes named in a WITH (sql.WithWrites) runs once, as
// any other, and its name then stands for the rows it gave: they are
// kept in memory, as RETURNING keeps the rows written, so that the
// statement reading them, run after it, reads them however often it
// names them.

// Collect runs a built plan to its end and keeps its rows, in order, as
// an in-memory table whose columns are named by names.
func Collect(ctx context.Context, cat *catalog.Catalog, built *planner.Built, names []string) (*catalog.MemTable, error) {
	schema := schemaOf(built, names)
	var rows [][]columnar.Value
	err := Drive(ctx, cat, built, func(b *columnar.Batch) error {
		for k := 0; k < b.Live(); k++ {
			r := b.Row(k)
			row := make([]columnar.Value, len(b.Cols))
			for i, v := range b.Cols {
				if v.Const {
					row[i] = v.Value(0)
				} else {
					row[i] = v.Value(r)
				}
			}
			rows = append(rows, row)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return catalog.NewMemTable(schema, rows), nil
}

// WrittenRows is the table the name of a WITH's statement that wrote
// (its Outcome out) stands for: the rows of its RETURNING, the first
// columns renamed by cols, or, without RETURNING, one row of no columns
// per row written (as DuckDB: FROM it counts them, and no column can be
// read). at is the name's position.
func WrittenRows(ctx context.Context, env *Env, out *Outcome, name string, cols []string, at sql.Pos) (planner.Table, error) {
	if out.Returning == nil {
		if len(cols) > 0 {
			return nil, colsErr(name, 0, len(cols), at)
		}
		return catalog.NewMemTable(columnar.Schema{}, make([][]columnar.Value, out.N)), nil
	}
	if len(cols) > len(out.Names) {
		return nil, colsErr(name, len(out.Names), len(cols), at)
	}
	names := append(append([]string(nil), cols...), out.Names[len(cols):]...)
	return Collect(ctx, env.Cat, out.Returning, names)
}

func colsErr(name string, have, given int, at sql.Pos) error {
	return &sql.Error{Pos: at, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("%q has %d columns but %d column names were given", name, have, given)}
}

// StandIn is the table the name of a WITH's write st stands for when st
// is planned but not run (EXPLAIN): no rows, the columns WrittenRows
// would give it. Its target must exist (the caller checked it).
func StandIn(env *Env, st sql.Statement, args []columnar.Value, name string, cols []string, at sql.Pos) (planner.Table, error) {
	table, _, q, ok := sql.WriteTarget(st)
	if !ok {
		return nil, fmt.Errorf("unexpected statement %T", st)
	}
	if q == nil {
		if len(cols) > 0 {
			return nil, colsErr(name, 0, len(cols), at)
		}
		return catalog.NewMemTable(columnar.Schema{}, nil), nil
	}
	t, ok := env.Cat.Table(table)
	if !ok {
		return nil, fmt.Errorf("unknown table %q", table)
	}
	w := newWritten(env, q, table, args)
	w.schema = t.Schema()
	bound, err := w.bind() // over no rows, as the statement binds it before writing
	if err != nil {
		return nil, err
	}
	if len(cols) > len(bound.Names) {
		return nil, colsErr(name, len(bound.Names), len(cols), at)
	}
	out := bound.Root.Schema()
	schema := make(columnar.Schema, len(out))
	for i, c := range out {
		n := fmt.Sprintf("col%d", i)
		if i < len(bound.Names) {
			n = bound.Names[i]
		}
		if i < len(cols) {
			n = cols[i]
		}
		schema[i] = columnar.Field{Name: n, Type: c.Type, Nullable: true}
	}
	return catalog.NewMemTable(schema, nil), nil
}
