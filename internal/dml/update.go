package dml

import (
	"context"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// update runs UPDATE t SET … [WHERE cond]. Its query yields, per row, the
// new values, the condition, [the old columns,] and the row id. A CTable
// row is updated the way it could be in python-blosc2 without rewriting
// columns in place: the old row is tombstoned by row id and the new one
// appended, in one change (so updated rows move to the end of the scan
// order).
func update(ctx context.Context, env *Env, s *sql.Update, args []columnar.Value, w *written) (int64, error) {
	tg, err := env.Cat.LockTarget("UPDATE", s.Table, s.Catalog, s.TablePos)
	if err != nil {
		return 0, err
	}
	defer tg.Unlock()
	schema, cons := targetSchema(tg)
	if err := w.of(schema); err != nil {
		return 0, err
	}
	at := s.TablePos
	target := make([]int, len(s.Sets))
	for k, name := range s.Sets {
		target[k] = -1
		for i, f := range schema {
			if strings.EqualFold(f.Name, name) {
				target[k] = i
			}
		}
		if target[k] < 0 {
			if err := generatedColumn(targetTable(tg), name, "update", s.SetsPos[k]); err != nil {
				return 0, err
			}
			return 0, &sql.Error{Pos: s.SetsPos[k], Kind: sql.ErrUnknownColumn, Msg: fmt.Sprintf("table %q has no column %q", tg.Name, name)}
		}
	}
	built, err := AddressedPlan(env, s, args, false)
	if err != nil {
		return 0, err
	}
	types := built.Root.Types()
	cond := -1
	if s.HasWhere {
		cond = len(s.Sets)
		if t := types[cond]; t.ID != columnar.Bool && t.ID != columnar.Null {
			built.Root.Close()
			return 0, &sql.Error{Pos: at, Kind: sql.ErrType, Msg: fmt.Sprintf("UPDATE: WHERE must be BOOLEAN, got %s", t)}
		}
	}
	u := &updater{ins: &inserter{what: "UPDATE", at: at, schema: schema, cons: cons, validate: true}, w: w,
		target: target, cond: cond, casts: make([]executor.Expr, len(target)), vecs: make([]*columnar.Vector, len(target))}
	if s.Joined {
		u.seen = map[int64]bool{}
	}
	defs := newDefaults(env.Cat, targetTable(tg), schema)
	u.defaults = make([]func(*columnar.Batch) (*columnar.Vector, error), len(target))
	for k, i := range target {
		if s.SetDefault[k] {
			u.defaults[k] = func(b *columnar.Batch) (*columnar.Vector, error) { return defs.eval(i, b) }
		}
	}
	for k, i := range target {
		if t := types[k]; t != schema[i].Type && t.ID != columnar.Null {
			u.casts[k] = executor.NewCast(executor.ColumnExpr(k, t), schema[i].Type, false)
		}
	}
	// src[i] is the column holding table column i's new value: its last
	// SET (a column set twice takes the last value), else its old value.
	old := len(s.Sets)
	if s.HasWhere {
		old++
	}
	u.src = make([]int, len(schema))
	u.set = make([]int, len(schema))
	for i := range schema {
		u.src[i], u.set[i] = old+i, -1
	}
	for k, i := range target {
		u.set[i] = k
	}
	if tg.Mem != nil {
		return u.memory(ctx, env.Cat, tg, built)
	}
	c, err := ctable.Begin(tg.CT.Path())
	if err != nil {
		built.Root.Close()
		return 0, err
	}
	defer c.Abort()
	del := make([]bool, rowCount(tg))
	err = Drive(ctx, env.Cat, built, func(b *columnar.Batch) error {
		out, err := u.newRows(b, del)
		if err != nil || out == nil {
			return err
		}
		return c.Append(out)
	})
	if err != nil {
		return 0, err
	}
	if err := deleteLive(c, del); err != nil {
		return 0, err
	}
	n := u.matched
	if err := env.Cat.Commit(tg, c); err != nil {
		return 0, err
	}
	return n, nil
}

// updater computes the new versions of the rows an UPDATE changes.
type updater struct {
	ins    *inserter
	target []int           // table column of each SET
	cond   int             // the WHERE column, -1 none
	casts  []executor.Expr // per SET: cast to its column's type, nil none
	vecs   []*columnar.Vector
	src    []int // per table column: its old value's column
	set    []int // per table column: the SET giving its new value, -1 none
	rows   []int32
	ids    []int64
	seen   map[int64]bool // UPDATE … FROM: the row ids changed so far
	// again[j]: the j-th changing row's id was changed before (UPDATE …
	// FROM matched it again): counted and returned, but the first
	// match's values are the ones written.
	again   []bool
	matched int64    // the changes so far, repeated matches included (DuckDB's count)
	w       *written // RETURNING's rows, nil without it
	// defaults[k] evaluates SET k's column's DEFAULT (SET c = DEFAULT),
	// nil for a SET of a value.
	defaults []func(*columnar.Batch) (*columnar.Vector, error)
}

// prepare casts the SET values of b and returns the live rows that
// change (b's row indices) with their row ids.
func (u *updater) prepare(b *columnar.Batch) error {
	u.rows, u.ids, u.again = u.rows[:0], u.ids[:0], u.again[:0]
	ids := b.Cols[len(b.Cols)-1].Ints
	for k := 0; k < b.Live(); k++ {
		r := b.Row(k)
		if u.cond >= 0 {
			c := b.Cols[u.cond]
			cr := r
			if c.Const {
				cr = 0
			}
			if c.Type.ID != columnar.Bool || c.IsNull(cr) || !c.Bools[cr] {
				continue
			}
		}
		again := false
		if u.seen != nil {
			again = u.seen[ids[r]]
			u.seen[ids[r]] = true
		}
		u.rows = append(u.rows, int32(r))
		u.ids = append(u.ids, ids[r])
		u.again = append(u.again, again)
	}
	u.matched += int64(len(u.rows))
	if len(u.rows) == 0 {
		return nil
	}
	for k, i := range u.target {
		u.vecs[k] = b.Cols[k]
		if u.defaults[k] != nil {
			v, err := u.defaults[k](b)
			if err != nil {
				return err
			}
			u.vecs[k] = v
			continue
		}
		if u.casts[k] == nil {
			continue
		}
		v, err := u.casts[k].Eval(b)
		if err != nil {
			// The kernel casts every live row, changed or not: find the
			// changed one that fails, if any.
			if v, err = castSlow(b, k, u.rows, u.ins.schema[i], "UPDATE", u.ins.at, func(j int) int64 { return u.ids[j] + 1 }); err != nil {
				return err
			}
		}
		u.vecs[k] = v
	}
	return nil
}

// value is the new value of table column i in b's row r.
func (u *updater) value(b *columnar.Batch, i int, r int, old columnar.Value) columnar.Value {
	k := u.set[i]
	if k < 0 {
		return old
	}
	v := u.vecs[k]
	if v.Const {
		r = 0
	}
	if v.Type.ID == columnar.Null || v.IsNull(r) {
		return columnar.NullValue(u.ins.schema[i].Type)
	}
	return v.Value(r)
}

// newRows returns a batch of the new versions of b's changed rows (nil:
// none), checked against the rules, and flags their row ids in del.
func (u *updater) newRows(b *columnar.Batch, del []bool) (*columnar.Batch, error) {
	if err := u.prepare(b); err != nil || len(u.rows) == 0 {
		return nil, err
	}
	if u.w != nil {
		for _, r := range u.rows {
			row := make([]columnar.Value, len(u.ins.schema))
			for i := range row {
				row[i] = u.value(b, i, int(r), b.Cols[u.src[i]].Value(int(r)))
			}
			u.w.row(row)
		}
	}
	u.firstOnly()
	n := len(u.rows)
	out := &columnar.Batch{Cols: make([]*columnar.Vector, len(u.ins.schema)), Len: n}
	for i, f := range u.ins.schema {
		v := columnar.NewVector(f.Type, n)
		out.Cols[i] = v
		from := b.Cols[u.src[i]]
		if k := u.set[i]; k >= 0 {
			from = u.vecs[k]
			if from.Type.ID == columnar.Null {
				for r := 0; r < n; r++ {
					v.SetNull(r, n)
				}
				continue
			}
		}
		if from.Const {
			for r := 0; r < n; r++ {
				v.CopyRow(r, from, 0, n)
			}
			continue
		}
		v.Gather(from, u.rows)
	}
	if err := u.ins.check(out, func(k int) int64 { return u.ids[k] + 1 }); err != nil {
		return nil, err
	}
	for _, id := range u.ids {
		if id < 0 || id >= int64(len(del)) {
			return nil, fmt.Errorf("UPDATE: row id %d outside the table's %d rows", id, len(del))
		}
		del[id] = true
	}
	return out, nil
}

// firstOnly drops from rows and ids the repeated matches (again).
func (u *updater) firstOnly() {
	k := 0
	for j := range u.rows {
		if !u.again[j] {
			u.rows[k], u.ids[k] = u.rows[j], u.ids[j]
			k++
		}
	}
	u.rows, u.ids, u.again = u.rows[:k], u.ids[:k], u.again[:0]
}

// memory runs the UPDATE of an in-memory table: each changed row is
// replaced, by row id, in a new slice of rows.
func (u *updater) memory(ctx context.Context, cat *catalog.Catalog, tg *catalog.Target, built *planner.Built) (int64, error) {
	old := tg.Mem.Snapshot()
	out := make([][]columnar.Value, len(old))
	copy(out, old)
	err := Drive(ctx, cat, built, func(b *columnar.Batch) error {
		if err := u.prepare(b); err != nil {
			return err
		}
		for j, r := range u.rows {
			id := u.ids[j]
			if id < 0 || id >= int64(len(old)) {
				return fmt.Errorf("UPDATE: row id %d outside the table's %d rows", id, len(old))
			}
			row := make([]columnar.Value, len(old[id]))
			for i, x := range old[id] {
				row[i] = u.value(b, i, int(r), x)
			}
			if err := u.ins.checkRow(row, id); err != nil {
				return err
			}
			u.w.row(row)
			if !u.again[j] {
				out[id] = row
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if err := checkKeys(tg.Mem, out, "UPDATE", tg.Name, u.ins.at); err != nil {
		return 0, err
	}
	tg.Mem.SetRows(out)
	return u.matched, nil
}

// checkRow checks one row (table row id) against the rules.
func (ins *inserter) checkRow(row []columnar.Value, id int64) error {
	types := make([]columnar.Type, len(row))
	for i, x := range row {
		types[i] = x.Type
	}
	b := columnar.NewBatch(types, 1)
	b.Len = 1
	for i, x := range row {
		b.Cols[i].SetValue(0, 1, x)
	}
	return ins.check(b, func(int) int64 { return id + 1 })
}
