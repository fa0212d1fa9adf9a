package b2sql

import (
	"context"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/sql"
)

// DELETE and UPDATE evaluate their expressions with a query over the
// table run on one thread, whose k-th row is the table's k-th row (memory
// tables: the stored order; CTables: live rows in physical order, which
// is what ctable.Change.DeleteLive walks).

// deleteRows runs DELETE FROM t [WHERE cond].
func (db *DB) deleteRows(ctx context.Context, s *sql.Delete, args []columnar.Value) (*Rows, error) {
	tg, err := db.lockTarget("DELETE", s.Table, s.TablePos)
	if err != nil {
		return nil, err
	}
	defer tg.unlock()
	// flags calls yield with the delete flag of each row, in order.
	flags := func(yield func([]bool) error) error {
		if s.Where == nil {
			n := tg.rowCount()
			all := make([]bool, min(n, 1<<16))
			for i := range all {
				all[i] = true
			}
			for left := n; left > 0; {
				k := min(left, int64(len(all)))
				if err := yield(all[:k]); err != nil {
					return err
				}
				left -= k
			}
			return nil
		}
		rows, err := db.runSerial(ctx, s.Where, args, s.FixError)
		if err != nil {
			return err
		}
		defer rows.Close()
		if t := rows.Columns()[0].Type; t.ID != columnar.Bool && t.ID != columnar.Null {
			return &Error{Pos: Pos{s.TablePos.Line, s.TablePos.Col}, Kind: ErrType, Msg: fmt.Sprintf("DELETE: WHERE must be BOOLEAN, got %s", t)}
		}
		var buf []bool
		for b := rows.NextBatch(); b != nil; b = rows.NextBatch() {
			buf = buf[:0]
			v := b.Cols[0]
			for k := 0; k < b.Live(); k++ {
				x := v.Value(b.Row(k))
				buf = append(buf, !x.Null && x.Type.ID == columnar.Bool && x.Bool())
			}
			if err := yield(buf); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	if tg.mem != nil {
		old := tg.mem.snapshot()
		keep := make([][]columnar.Value, 0, len(old))
		i := 0
		err := flags(func(f []bool) error {
			for _, d := range f {
				if i >= len(old) {
					return fmt.Errorf("DELETE: more rows than the table holds")
				}
				if !d {
					keep = append(keep, old[i])
				}
				i++
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		keep = append(keep, old[min(i, len(old)):]...)
		tg.mem.setRows(keep)
		return countRows(int64(len(old) - len(keep))), nil
	}
	c, err := ctable.Begin(tg.ct.Path())
	if err != nil {
		return nil, err
	}
	defer c.Abort()
	if err := flags(c.DeleteLive); err != nil {
		return nil, err
	}
	n := c.Deleted()
	if err := db.commit(tg, c); err != nil {
		return nil, err
	}
	return countRows(n), nil
}

// rowCount is the number of live rows of the locked table.
func (tg *dmlTarget) rowCount() int64 {
	if tg.mem != nil {
		return tg.mem.RowCount()
	}
	return tg.ct.RowCount()
}

// update runs UPDATE t SET … [WHERE cond]. A CTable row is updated the
// way it could be in python-blosc2 without rewriting columns in place:
// the old row is tombstoned and the new one appended, in one change (so
// updated rows move to the end of the scan order).
func (db *DB) update(ctx context.Context, s *sql.Update, args []columnar.Value) (*Rows, error) {
	tg, err := db.lockTarget("UPDATE", s.Table, s.TablePos)
	if err != nil {
		return nil, err
	}
	defer tg.unlock()
	schema, rules := tg.schemaRules()
	at := Pos{s.TablePos.Line, s.TablePos.Col}
	target := make([]int, len(s.Sets))
	for k, name := range s.Sets {
		target[k] = -1
		for i, f := range schema {
			if strings.EqualFold(f.Name, name) {
				target[k] = i
			}
		}
		if target[k] < 0 {
			return nil, &Error{Pos: Pos{s.SetsPos[k].Line, s.SetsPos[k].Col}, Kind: ErrUnknownColumn, Msg: fmt.Sprintf("table %q has no column %q", tg.name, name)}
		}
	}
	vals, err := db.runSerial(ctx, s.Query, args, s.FixError)
	if err != nil {
		return nil, err
	}
	defer vals.Close()
	if s.HasWhere {
		if t := vals.Columns()[len(s.Sets)].Type; t.ID != columnar.Bool && t.ID != columnar.Null {
			return nil, &Error{Pos: at, Kind: ErrType, Msg: fmt.Sprintf("UPDATE: WHERE must be BOOLEAN, got %s", t)}
		}
	}
	ins := &inserter{what: "UPDATE", at: at, schema: schema, rules: rules, validate: true}
	// newRow applies the SET list to old; changed is false when the WHERE
	// condition does not hold.
	newRow := func(old, v []columnar.Value, rowNo int64) ([]columnar.Value, bool, error) {
		if s.HasWhere {
			c := v[len(s.Sets)]
			if c.Null || !c.Bool() {
				return nil, false, nil
			}
		}
		row := append([]columnar.Value(nil), old...)
		for k, i := range target {
			x := v[k]
			f := schema[i]
			switch {
			case x.Null:
				x = columnar.NullValue(f.Type)
			case x.Type != f.Type:
				c, err := executor.CastValue(x, f.Type)
				if err != nil {
					return nil, false, &Error{Pos: at, Kind: ErrType, Msg: fmt.Sprintf("UPDATE: row %d, column %q: %v", rowNo, f.Name, err)}
				}
				x = c
			}
			row[i] = x
		}
		return row, true, nil
	}
	if tg.mem != nil {
		old := tg.mem.snapshot()
		out := make([][]columnar.Value, len(old))
		copy(out, old)
		n := int64(0)
		for k := 0; vals.Next(); k++ {
			if k >= len(old) {
				return nil, fmt.Errorf("UPDATE: more rows than the table holds")
			}
			row, changed, err := newRow(old[k], vals.Values(), int64(k)+1)
			if err != nil {
				return nil, err
			}
			if !changed {
				continue
			}
			if err := ins.checkRow(row, int64(k)); err != nil {
				return nil, err
			}
			out[k] = row
			n++
		}
		if err := vals.Err(); err != nil {
			return nil, err
		}
		if err := checkKeys(tg.mem, out, "UPDATE", tg.name, at); err != nil {
			return nil, err
		}
		tg.mem.setRows(out)
		return countRows(n), nil
	}
	// CTable: pair the values with the full old rows (a second serial
	// scan of the same version), tombstone changed rows, append their new
	// versions.
	all, err := sql.Parse(sql.Source{Text: "SELECT * FROM " + `"` + strings.ReplaceAll(tg.name, `"`, `""`) + `"`, Line: 1, Col: 1})
	if err != nil {
		return nil, err
	}
	olds, err := db.runSerial(ctx, all.(*sql.Query), nil, func(e error) error { return e })
	if err != nil {
		return nil, err
	}
	defer olds.Close()
	c, err := ctable.Begin(tg.ct.Path())
	if err != nil {
		return nil, err
	}
	defer c.Abort()
	types := make([]columnar.Type, len(schema))
	for i, f := range schema {
		types[i] = f.Type
	}
	var pending [][]columnar.Value
	var del []bool
	flush := func() error {
		if err := c.DeleteLive(del); err != nil {
			return err
		}
		del = del[:0]
		if len(pending) == 0 {
			return nil
		}
		b := columnar.NewBatch(types, len(pending))
		b.Len = len(pending)
		for r, row := range pending {
			for i, x := range row {
				b.Cols[i].SetValue(r, len(pending), x)
			}
		}
		pending = pending[:0]
		return c.Append(b)
	}
	// Walk both results batch by batch; only changed rows become values.
	vc, oc := &batchCursor{r: vals}, &batchCursor{r: olds}
	vrow := make([]columnar.Value, len(vals.Columns()))
	orow := make([]columnar.Value, len(schema))
	for k := int64(0); vc.next(); k++ {
		if !oc.next() {
			return nil, fmt.Errorf("UPDATE: the table changed during the statement")
		}
		changed := true
		if s.HasWhere {
			c := vc.value(len(s.Sets))
			changed = !c.Null && c.Bool()
		}
		del = append(del, changed)
		if changed {
			for i := range vrow {
				vrow[i] = vc.value(i)
			}
			for i := range orow {
				orow[i] = oc.value(i)
			}
			row, _, err := newRow(orow, vrow, k+1)
			if err != nil {
				return nil, err
			}
			if err := ins.checkRow(row, k); err != nil {
				return nil, err
			}
			pending = append(pending, row)
		}
		if len(del) == columnar.MaxBatch {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := vals.Err(); err != nil {
		return nil, err
	}
	if err := olds.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	n := c.Deleted()
	if err := db.commit(tg, c); err != nil {
		return nil, err
	}
	return countRows(n), nil
}

// batchCursor walks the rows of a result batch by batch (a batch is
// valid until the next one is fetched).
type batchCursor struct {
	r *Rows
	b *columnar.Batch
	i int // rows of b consumed
}

func (c *batchCursor) next() bool {
	for c.b == nil || c.i >= c.b.Live() {
		if c.b = c.r.NextBatch(); c.b == nil {
			return false
		}
		c.i = 0
	}
	c.i++
	return true
}

// value returns column col of the current row.
func (c *batchCursor) value(col int) columnar.Value {
	return c.b.Cols[col].Value(c.b.Row(c.i - 1))
}

// checkRow checks one row (0-based table row k) against the rules.
func (ins *inserter) checkRow(row []columnar.Value, k int64) error {
	types := make([]columnar.Type, len(row))
	for i, x := range row {
		types[i] = x.Type
	}
	b := columnar.NewBatch(types, 1)
	b.Len = 1
	for i, x := range row {
		b.Cols[i].SetValue(0, 1, x)
	}
	return ins.check(b, k)
}
