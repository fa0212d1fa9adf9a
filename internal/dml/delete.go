package dml

import (
	"context"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

// deleteRows runs DELETE FROM t [WHERE cond]: the rows whose condition
// holds are collected by row id (rowid.go), then removed in one change.
func deleteRows(ctx context.Context, env *Env, s *sql.Delete, args []columnar.Value, w *written) (int64, error) {
	tg, err := env.Cat.LockTarget("DELETE", s.Table, s.Catalog, s.TablePos)
	if err != nil {
		return 0, err
	}
	defer tg.Unlock()
	schema, _ := targetSchema(tg)
	if err := w.of(schema); err != nil {
		return 0, err
	}
	total := rowCount(tg)
	del := make([]bool, total)
	if s.Where == nil {
		for i := range del {
			del[i] = true
		}
	} else {
		built, err := AddressedPlan(env, s, args, false)
		if err != nil {
			return 0, err
		}
		if t := built.Root.Types()[0]; t.ID != columnar.Bool && t.ID != columnar.Null {
			built.Root.Close()
			return 0, &sql.Error{Pos: s.TablePos, Kind: sql.ErrType, Msg: fmt.Sprintf("DELETE: WHERE must be BOOLEAN, got %s", t)}
		}
		// A CTable's query carries the old columns after the condition
		// (AddressedPlan), for RETURNING; an in-memory table's rows are
		// read by row id below.
		var kept *written
		if tg.Mem == nil {
			kept = w
		}
		err = Drive(ctx, env.Cat, built, func(b *columnar.Batch) error {
			return markTrue(b, 0, del, "DELETE", func(r int) { kept.rowOf(b, r, 1, 1+len(schema)) })
		})
		if err != nil {
			return 0, err
		}
	}
	if tg.Mem != nil {
		old := tg.Mem.Snapshot()
		keep := make([][]columnar.Value, 0, len(old))
		for i, row := range old {
			if i >= len(del) || !del[i] {
				keep = append(keep, row)
			} else {
				w.row(row)
			}
		}
		tg.Mem.SetRows(keep)
		return int64(len(old) - len(keep)), nil
	}
	c, err := ctable.Begin(tg.CT.Path())
	if err != nil {
		return 0, err
	}
	defer c.Abort()
	if err := deleteLive(c, del); err != nil {
		return 0, err
	}
	n := c.Deleted()
	if err := env.Cat.Commit(tg, c); err != nil {
		return 0, err
	}
	return n, nil
}

// markTrue sets del[id] for each live row of b whose BOOLEAN column cond
// is TRUE, id being the row id in b's last column, and calls marked with
// the row (b's index) the first time its id is set.
func markTrue(b *columnar.Batch, cond int, del []bool, what string, marked func(r int)) error {
	c, ids := b.Cols[cond], b.Cols[len(b.Cols)-1].Ints
	if c.Type.ID != columnar.Bool {
		return nil // a NULL-typed condition holds for no row
	}
	for k := 0; k < b.Live(); k++ {
		r := b.Row(k)
		cr := r
		if c.Const {
			cr = 0
		}
		if c.IsNull(cr) || !c.Bools[cr] {
			continue
		}
		id := ids[r]
		if id < 0 || id >= int64(len(del)) {
			return fmt.Errorf("%s: row id %d outside the table's %d rows", what, id, len(del))
		}
		if !del[id] {
			del[id] = true
			marked(r)
		}
	}
	return nil
}

// deleteLive tombstones the flagged live rows of the version c changes.
func deleteLive(c *ctable.Change, del []bool) error {
	for len(del) > 0 {
		k := min(len(del), 1<<16)
		if err := c.DeleteLive(del[:k]); err != nil {
			return err
		}
		del = del[k:]
	}
	return nil
}

// rowCount is the number of live rows of the locked table.
func rowCount(tg *catalog.Target) int64 {
	if tg.Mem != nil {
		return tg.Mem.RowCount()
	}
	return tg.CT.RowCount()
}
