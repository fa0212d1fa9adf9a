package dml

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

// inserter turns result batches into batches of the table's columns,
// cast to their types and checked against their rules.
type inserter struct {
	what     string
	at       sql.Pos
	schema   columnar.Schema
	cons     []catalog.ColumnConstraints
	validate bool
	src      []int           // per table column: the source column filling it, -1 none
	casts    []executor.Expr // per table column: the cast of its source, nil when none is needed
	rowsDone int64           // rows converted so far, for error messages
	defs     *defaults       // the values of the columns no source fills (nil: NULL)
	rows     []int32         // scratch: the live rows of a batch
}

func newInserter(what string, at sql.Pos, schema columnar.Schema, cons []catalog.ColumnConstraints, validate bool, pos []int, types []columnar.Type) *inserter {
	ins := &inserter{what: what, at: at, schema: schema, cons: cons, validate: validate,
		src: make([]int, len(schema)), casts: make([]executor.Expr, len(schema))}
	for i := range ins.src {
		ins.src[i] = -1
	}
	for k, p := range pos {
		ins.src[p] = k
		if t := types[k]; t != schema[p].Type && t.ID != columnar.Null {
			ins.casts[p] = executor.NewCast(executor.ColumnExpr(k, t), schema[p].Type, false)
		}
	}
	return ins
}

// convert builds a dense batch of the table's columns from b's live rows.
func (ins *inserter) convert(b *columnar.Batch) (*columnar.Batch, error) {
	n := b.Live()
	ins.rows = ins.rows[:0]
	for k := 0; k < n; k++ {
		ins.rows = append(ins.rows, int32(b.Row(k)))
	}
	out := &columnar.Batch{Cols: make([]*columnar.Vector, len(ins.schema)), Len: n}
	for i, f := range ins.schema {
		v := columnar.NewVector(f.Type, n)
		out.Cols[i] = v
		k := ins.src[i]
		if k < 0 && ins.defs != nil && ins.defs.has(i) {
			d, err := ins.defs.eval(i, b)
			if err != nil {
				return nil, err
			}
			gatherRows(v, d, ins.rows)
			continue
		}
		if k < 0 || b.Cols[k].Type.ID == columnar.Null {
			for r := 0; r < n; r++ {
				v.SetNull(r, n)
			}
			continue
		}
		in := b.Cols[k]
		if ins.casts[i] != nil {
			c, err := ins.casts[i].Eval(b)
			if err != nil {
				base := ins.rowsDone
				if c, err = castSlow(b, k, ins.rows, f, ins.what, ins.at, func(j int) int64 { return base + int64(j) + 1 }); err != nil {
					return nil, err
				}
			}
			in = c
		}
		gatherRows(v, in, ins.rows)
	}
	base := ins.rowsDone
	if err := ins.check(out, func(k int) int64 { return base + int64(k) + 1 }); err != nil {
		return nil, err
	}
	ins.rowsDone += int64(n)
	return out, nil
}

// gatherRows fills v with the rows of in (a constant vector: its one
// value in every row).
func gatherRows(v, in *columnar.Vector, rows []int32) {
	if in.Const {
		for r := range rows {
			v.CopyRow(r, in, 0, len(rows))
		}
		return
	}
	v.Gather(in, rows)
}

// castSlow casts column k of b to f's type value by value (CastValue),
// the path taken when the cast kernel fails on the batch: it reports the
// first of rows (b's row indices, numbered by rowNo) that does not cast,
// or returns the vector when the kernel failed on a row not written.
func castSlow(b *columnar.Batch, k int, rows []int32, f columnar.Field, what string, at sql.Pos, rowNo func(j int) int64) (*columnar.Vector, error) {
	v := columnar.NewVector(f.Type, b.Len)
	for j, r := range rows {
		x := b.Cols[k].Value(int(r))
		if x.Null {
			v.SetNull(int(r), b.Len)
			continue
		}
		c, err := executor.CastValue(x, f.Type)
		if err != nil {
			return nil, &sql.Error{Pos: at, Kind: sql.ErrType, Msg: fmt.Sprintf("%s: row %d, column %q: %v", what, rowNo(j), f.Name, err)}
		}
		v.SetValue(int(r), b.Len, c)
	}
	return v, nil
}

// check tests every row of a table batch against the column rules; rowNo
// numbers the k-th row for errors (from 1). NOT NULL is checked even without
// validation (a NULL cannot be stored in a column without nulls).
func (ins *inserter) check(b *columnar.Batch, rowNo func(k int) int64) error {
	for i := range ins.schema {
		r := ins.cons[i]
		if !ins.validate {
			r = catalog.ColumnConstraints{Nullable: r.Nullable}
		}
		if r.Unconstrained() {
			continue
		}
		v := b.Cols[i]
		for k := 0; k < b.Live(); k++ {
			row := b.Row(k)
			if msg := r.Check(v, row); msg != "" {
				return &sql.Error{Pos: ins.at, Kind: catalog.ErrConstraint, Msg: fmt.Sprintf("%s: row %d, column %q: %s violates %s",
					ins.what, rowNo(k), ins.schema[i].Name, literal(v.Value(row)), msg)}
			}
		}
	}
	return nil
}
