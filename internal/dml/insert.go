package dml

import (
	"context"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// insert runs INSERT / REPLACE INTO / COPY table FROM: the query's batches
// are converted to the table's columns a batch at a time (cast kernels,
// gathered vectors) and appended.
func insert(ctx context.Context, env *Env, s *sql.Insert, args []columnar.Value, w *written) (int64, error) {
	validate := true
	for _, o := range s.Options {
		switch o.Name {
		case "validate":
			b, err := OnOff(o.Value)
			if err != nil {
				return 0, &sql.Error{Pos: o.Pos, Kind: sql.ErrSyntax, Msg: fmt.Sprintf("validate: %v", err)}
			}
			validate = b
		default:
			return 0, &sql.Error{Pos: o.Pos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("unknown INSERT option %q (validate)", o.Name)}
		}
	}
	tg, err := env.Cat.LockTarget("INSERT", s.Table, s.Catalog, s.TablePos)
	if err != nil {
		return 0, err
	}
	defer tg.Unlock()
	schema, cons := targetSchema(tg)
	if err := w.of(schema); err != nil {
		return 0, err
	}
	if s.Cols == nil && !s.ByName {
		copyFromTypes(s.Query, schema) // copy_from.go
	}
	at := s.TablePos
	for k, c := range s.Cols {
		if err := generatedColumn(targetTable(tg), c, "insert into", s.ColsPos[k]); err != nil {
			return 0, err
		}
	}
	// pos[i] is the table column that the query's column i fills.
	pos, err := insertPositions(schema, s, tg.Name)
	if err != nil {
		return 0, err
	}
	defs := newDefaults(env.Cat, targetTable(tg), schema)
	var built *planner.Built
	var names []string
	if s.DefaultValues {
		// One row of defaults: a row of no columns, every table column
		// left to its DEFAULT.
		pos = nil
		built, err = env.Build(&planner.Values{Rows: [][]planner.Expr{{}}}, false)
	} else {
		setDefaultCells(s, pos, defs)
		built, names, err = env.plan(s.Query, args)
	}
	if err != nil {
		return 0, err
	}
	if s.ByName {
		if pos, err = byName(tg.Name, schema, names, at); err != nil {
			built.Root.Close()
			return 0, err
		}
	}
	if s.Update != nil || s.Ignore && (tg.Mem != nil || s.Conflict != nil) {
		if err := checkConflictTarget(tg, schema, s); err != nil {
			built.Root.Close()
			return 0, err
		}
	}
	types := built.Root.Types()
	if got := len(types); got != len(pos) {
		built.Root.Close()
		return 0, &sql.Error{Pos: at, Kind: sql.ErrType, Msg: fmt.Sprintf("INSERT into %q: %d target columns, the rows have %d values", tg.Name, len(pos), got)}
	}
	ins := newInserter("INSERT", at, schema, cons, validate, pos, types)
	ins.defs = defs
	if s.Replace {
		ins.what = "REPLACE"
	}
	if tg.Mem != nil {
		var up *upsert
		if s.Update != nil {
			if up, err = newUpsert(s.Update, schema, int(tg.Mem.RowCount()), tg.Name, at); err != nil {
				built.Root.Close()
				return 0, err
			}
		}
		m := &memInsert{env: env, tg: tg, ins: ins, replace: s.Replace, ignore: s.Ignore, up: up, args: args, w: w}
		return m.run(ctx, built)
	}
	if s.Replace || s.Ignore || s.Update != nil {
		built.Root.Close()
		return 0, &sql.Error{Pos: at, Kind: sql.ErrUnsupported, Msg: "INSERT OR REPLACE / OR IGNORE need a key: CTables have none (use DELETE, then INSERT)"}
	}
	c, err := ctable.Begin(tg.CT.Path())
	if err != nil {
		built.Root.Close()
		return 0, err
	}
	defer c.Abort()
	err = Drive(ctx, env.Cat, built, func(b *columnar.Batch) error {
		tb, err := ins.convert(b)
		if err != nil {
			return err
		}
		w.batch(tb)
		return c.Append(tb)
	})
	if err != nil {
		return 0, err
	}
	n := c.Appended()
	if err := env.Cat.Commit(tg, c); err != nil {
		return 0, err
	}
	return n, nil
}

// checkConflictTarget checks ON CONFLICT [(columns)] DO NOTHING against
// the table's keys, as DuckDB does: the table must have one, and the
// columns, when given, must be exactly one of them.
func checkConflictTarget(tg *catalog.Target, schema columnar.Schema, s *sql.Insert) error {
	var keys [][]int
	if tg.Mem != nil {
		keys = tg.Mem.Keys()
	}
	if len(keys) == 0 {
		if s.Conflict == nil && s.ConflictPos == (sql.Pos{}) {
			return nil // OR IGNORE on a table without keys: every row goes in
		}
		return &sql.Error{Pos: s.ConflictPos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("ON CONFLICT: table %q has no PRIMARY KEY or UNIQUE constraint", tg.Name)}
	}
	if s.Conflict == nil {
		return nil
	}
	for _, key := range keys {
		if len(key) != len(s.Conflict) {
			continue
		}
		match := true
		for _, c := range s.Conflict {
			found := false
			for _, i := range key {
				found = found || strings.EqualFold(schema[i].Name, c)
			}
			match = match && found
		}
		if match {
			return nil
		}
	}
	return &sql.Error{Pos: s.ConflictPos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("ON CONFLICT (%s): not a PRIMARY KEY or UNIQUE constraint of %q", strings.Join(s.Conflict, ", "), tg.Name)}
}

// targetSchema returns the locked table's columns and their constraints.
func targetSchema(tg *catalog.Target) (columnar.Schema, []catalog.ColumnConstraints) {
	if tg.Mem != nil {
		return tg.Mem.Schema(), tg.Mem.Constraints()
	}
	return tg.CT.Schema(), catalog.Constraints(tg.CT)
}

// OnOff reads an on/off value: of a statement option, or of SET.
func OnOff(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "on", "true", "1", "yes":
		return true, nil
	case "off", "false", "0", "no":
		return false, nil
	}
	return false, fmt.Errorf("expected on or off, got %s", s)
}

// memInsert appends the query's rows to an in-memory table, with key
// handling.
type memInsert struct {
	env             *Env
	tg              *catalog.Target
	ins             *inserter
	replace, ignore bool
	up              *upsert // ON CONFLICT … DO UPDATE, nil none
	args            []columnar.Value
	w               *written
}

// run inserts built's rows and returns the rows inserted (and changed by
// DO UPDATE).
func (m *memInsert) run(ctx context.Context, built *planner.Built) (int64, error) {
	t, ins, replace, ignore, w := m.tg.Mem, m.ins, m.replace, m.ignore, m.w
	var add [][]columnar.Value
	err := Drive(ctx, m.env.Cat, built, func(b *columnar.Batch) error {
		tb, err := ins.convert(b)
		if err != nil {
			return err
		}
		for r := 0; r < tb.Len; r++ {
			row := make([]columnar.Value, len(tb.Cols))
			for i, v := range tb.Cols {
				row[i] = v.Value(r)
			}
			add = append(add, row)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	keys := t.Keys()
	if len(keys) == 0 {
		t.Append(add)
		for _, row := range add {
			w.row(row)
		}
		return int64(len(add)), nil
	}
	all := append([][]columnar.Value(nil), t.Snapshot()...)
	dead := make([]bool, len(all), len(all)+len(add))
	ix := newKeyIndex(keys, all, nil)
	n := int64(0)
	removed := false
	// moved maps a row that replaced others (INSERT OR REPLACE) to the
	// place of the first, where DuckDB, which updates it in place, has it.
	moved := map[int]int{}
	// out[ri] is what the ri-th proposed row became, for RETURNING.
	var out [][]columnar.Value
	if w != nil {
		out = make([][]columnar.Value, len(add))
	}
	for ri, row := range add {
		clash := -1
		for k, cols := range keys {
			if s, ok := keyOf(row, cols); ok {
				if i, hit := ix[k][s]; hit && !dead[i] {
					clash = i
					if !replace && !ignore && m.up == nil {
						return 0, &sql.Error{Pos: ins.at, Kind: catalog.ErrConstraint, Msg: fmt.Sprintf("%s: row %d: duplicate key %s in table %q", ins.what, ri+1, keyText(t.Schema(), cols, row), m.tg.Name)}
					}
					if replace && !dead[i] {
						dead[i], removed = true, true
						if _, ok := moved[len(all)]; !ok {
							moved[len(all)] = i // the new row takes the place of the first it replaces
						}
					}
				}
			}
		}
		if clash >= 0 && m.up != nil {
			m.up.propose(clash, all[clash], row, ri)
			continue
		}
		if clash >= 0 && ignore {
			continue
		}
		all = append(all, row)
		dead = append(dead, false)
		if out != nil {
			out[ri] = row
		}
		for k, cols := range keys {
			if s, ok := keyOf(row, cols); ok {
				ix[k][s] = len(all) - 1
			}
		}
		n++
	}
	if m.up != nil {
		changed, err := m.up.run(ctx, m.env, m.tg.Name, all, m.args, ins, func(ri int, row []columnar.Value) {
			if out != nil {
				out[ri] = row
			}
		})
		if err != nil {
			return 0, err
		}
		if changed > 0 {
			// A SET may change a key: the rows must still hold each once.
			if err := checkKeys(t, all, ins.what, m.tg.Name, ins.at); err != nil {
				return 0, err
			}
			removed = true // rows changed in place: install the new slice
		}
		n += changed
	}
	for _, row := range out {
		if row != nil {
			w.row(row)
		}
	}
	if !removed {
		t.Append(all[len(t.Snapshot()):])
		return n, nil
	}
	place := make(map[int]int, len(moved))
	for row, i := range moved {
		if !dead[row] {
			place[i] = row
		}
	}
	keep := make([][]columnar.Value, 0, len(all))
	for i, r := range all {
		switch j, ok := place[i]; {
		case ok:
			keep = append(keep, all[j])
		case !dead[i] && !placed(moved, place, i):
			keep = append(keep, r)
		}
	}
	t.SetRows(keep)
	return n, nil
}

// placed reports whether row was put in the place of a row it replaced.
func placed(moved, place map[int]int, row int) bool {
	i, ok := moved[row]
	return ok && place[i] == row
}
