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
	tg, err := env.Cat.LockTarget("INSERT", s.Table, s.TablePos)
	if err != nil {
		return 0, err
	}
	defer tg.Unlock()
	schema, rules := targetSchema(tg)
	if err := w.of(schema); err != nil {
		return 0, err
	}
	if s.Cols == nil && !s.ByName {
		copyFromTypes(s.Query, schema) // copy_from.go
	}
	at := s.TablePos
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
	ins := newInserter("INSERT", at, schema, rules, validate, pos, types)
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

// insertPositions maps the columns s lists (all of the table's, in order,
// when it lists none) to the table's: pos[k] is the column the query's
// k-th column fills.
func insertPositions(schema columnar.Schema, s *sql.Insert, table string) ([]int, error) {
	var pos []int
	if s.Cols == nil {
		for i := range schema {
			pos = append(pos, i)
		}
		return pos, nil
	}
	seen := map[int]bool{}
	for k, c := range s.Cols {
		i := schema.Index(c)
		if i < 0 {
			for j, f := range schema {
				if strings.EqualFold(f.Name, c) {
					i = j
				}
			}
		}
		cp := s.ColsPos[k]
		if i < 0 {
			return nil, &sql.Error{Pos: cp, Kind: sql.ErrUnknownColumn, Msg: fmt.Sprintf("table %q has no column %q", table, c)}
		}
		if seen[i] {
			return nil, &sql.Error{Pos: cp, Kind: sql.ErrSyntax, Msg: fmt.Sprintf("column %q is listed twice", c)}
		}
		seen[i] = true
		pos = append(pos, i)
	}
	return pos, nil
}

// byName maps the query's columns to the table's by name (INSERT … BY
// NAME): pos[k] is the column that result column k fills.
func byName(table string, schema columnar.Schema, names []string, at sql.Pos) ([]int, error) {
	pos := make([]int, len(names))
	seen := map[int]bool{}
	for k, n := range names {
		pos[k] = -1
		for i, f := range schema {
			if strings.EqualFold(f.Name, n) {
				pos[k] = i
			}
		}
		switch {
		case pos[k] < 0:
			return nil, &sql.Error{Pos: at, Kind: sql.ErrUnknownColumn, Msg: fmt.Sprintf("table %q has no column %q", table, n)}
		case seen[pos[k]]:
			return nil, &sql.Error{Pos: at, Kind: sql.ErrSyntax, Msg: fmt.Sprintf("column %q is given twice", n)}
		}
		seen[pos[k]] = true
	}
	return pos, nil
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
func targetSchema(tg *catalog.Target) (columnar.Schema, []ctable.Rules) {
	if tg.Mem != nil {
		return tg.Mem.Schema(), tg.Mem.Rules()
	}
	return tg.CT.Schema(), tg.CT.Rules()
}

// inserter turns result batches into batches of the table's columns,
// cast to their types and checked against their rules.
type inserter struct {
	what     string
	at       sql.Pos
	schema   columnar.Schema
	rules    []ctable.Rules
	validate bool
	src      []int           // per table column: the source column filling it, -1 none
	casts    []executor.Expr // per table column: the cast of its source, nil when none is needed
	rowsDone int64           // rows converted so far, for error messages
	defs     *defaults       // the values of the columns no source fills (nil: NULL)
	rows     []int32         // scratch: the live rows of a batch
}

func newInserter(what string, at sql.Pos, schema columnar.Schema, rules []ctable.Rules, validate bool, pos []int, types []columnar.Type) *inserter {
	ins := &inserter{what: what, at: at, schema: schema, rules: rules, validate: validate,
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
		r := ins.rules[i]
		if !ins.validate {
			r = ctable.Rules{Nullable: r.Nullable}
		}
		if r.Nullable && len(r.Bounds) == 0 && r.MaxLength == 0 {
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
