package b2sql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// Statements that change tables: INSERT, REPLACE, DELETE, UPDATE (this
// file and dml_*.go), CREATE TABLE with columns (dml_create.go), ATTACH
// (attach.go). They apply to in-memory tables and to CTables (.b2d,
// .b2z); a Parquet file is read-only to them (rewrite it with COPY).
//
// A statement on a CTable is one ctable.Change: the new version is built
// beside the table and swapped in atomically, then the catalog points at
// it; queries already running keep the version they opened. Statements on
// one table are serialized by the table's lock (lock.go), across processes
// for files.

// ErrConstraint: a row breaks a column's declared constraint (NOT NULL,
// CHECK bounds, VARCHAR length) or a key.
var ErrConstraint = errors.New("b2sql: constraint violated")

// runDML runs a table-changing statement.
func (db *DB) runDML(ctx context.Context, stmt sql.Statement, args []columnar.Value) (*Rows, error) {
	switch s := stmt.(type) {
	case *sql.CreateTable:
		return db.createTable(s)
	case *sql.Insert:
		return db.insert(ctx, s, args)
	case *sql.Delete:
		return db.deleteRows(ctx, s, args)
	case *sql.Update:
		return db.update(ctx, s, args)
	case *sql.Attach:
		return db.attachDir(s)
	}
	return nil, fmt.Errorf("unexpected statement %T", stmt)
}

// dmlTarget is the table a statement changes, locked.
type dmlTarget struct {
	key, name string
	mem       *memTable
	ct        *ctable.Table
	unlock    func()
}

// lockTarget finds and locks the table a statement changes; for a CTable
// it also reopens the table, so that the statement sees the newest
// version even when another process changed it.
func (db *DB) lockTarget(what, name string, pos sql.Pos) (*dmlTarget, error) {
	at := Pos{pos.Line, pos.Col}
	if db.settings.readOnly {
		return nil, db.readOnlyError(pos, what)
	}
	key := strings.ToLower(name)
	t, ok := catalog{db}.Table(name)
	if !ok {
		return nil, &Error{Pos: at, Kind: ErrUnknownTable, Msg: fmt.Sprintf("unknown table %q", name)}
	}
	tg := &dmlTarget{key: key, name: name}
	switch x := t.(type) {
	case *memTable:
		tg.mem = x
		tg.unlock = db.writes.lock("table:" + key)
	case *ctable.Table:
		unlockMem := db.writes.lock("table:" + key)
		unlockFile, err := lockFile(x.Path())
		if err != nil {
			unlockMem()
			return nil, err
		}
		tg.unlock = func() { unlockFile(); unlockMem() }
		tg.ct = x
		if !unchanged(x) {
			fresh, err := openCTable(x.Path())
			if err != nil {
				tg.unlock()
				return nil, err
			}
			db.swapTable(key, fresh)
			tg.ct = fresh.(*ctable.Table)
		}
	default:
		return nil, &Error{Pos: at, Kind: ErrUnsupported, Msg: fmt.Sprintf("%s: table %q is read-only (%s writes in-memory tables and CTables .b2d/.b2z; rewrite a Parquet file with COPY)", what, name, what)}
	}
	return tg, nil
}

// swapTable points the catalog entry key at t; the version it replaces
// stays open for the queries still reading it, until the DB closes.
func (db *DB) swapTable(key string, t planner.Table) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if old, ok := db.tables[key]; ok && old != t {
		db.life.retired = append(db.life.retired, old)
	}
	db.tables[key] = t
}

// planSerial binds, optimizes and builds q to run on one thread, so that
// its rows come in the table's scan order (DELETE and UPDATE pair them
// with the table's rows). Binding errors are repositioned by fix.
func (db *DB) planSerial(q *sql.Query, args []columnar.Value, fix func(error) error) (*planner.Built, []string, error) {
	bound, err := db.bind(q, args)
	if err != nil {
		return nil, nil, fix(err)
	}
	db.mu.RLock()
	pruning := db.settings.pruning
	disabled, scanOff := db.rulesOffLocked()
	db.mu.RUnlock()
	root, _ := planner.Optimize(bound.Root, planner.Options{AllOff: !pruning, Disabled: disabled})
	built, err := planner.Build(root, planner.BuildOptions{Threads: 1, NoPrune: !pruning, ScanRulesOff: scanOff, MemoryLimit: db.MemoryLimit()})
	if err != nil {
		return nil, nil, fix(err)
	}
	return built, bound.Names, nil
}

// runSerial starts q single-threaded.
func (db *DB) runSerial(ctx context.Context, q *sql.Query, args []columnar.Value, fix func(error) error) (*Rows, error) {
	built, names, err := db.planSerial(q, args, fix)
	if err != nil {
		return nil, err
	}
	return newRows(ctx, db, built, names)
}

// insert runs INSERT / REPLACE INTO / COPY table FROM.
func (db *DB) insert(ctx context.Context, s *sql.Insert, args []columnar.Value) (*Rows, error) {
	validate := true
	for _, o := range s.Options {
		switch o.Name {
		case "validate":
			b, err := settingBool(columnar.StringValue(o.Value))
			if err != nil {
				return nil, &Error{Pos: Pos{o.Pos.Line, o.Pos.Col}, Kind: ErrSyntax, Msg: fmt.Sprintf("validate: %v", err)}
			}
			validate = b
		default:
			return nil, &Error{Pos: Pos{o.Pos.Line, o.Pos.Col}, Kind: ErrUnsupported, Msg: fmt.Sprintf("unknown INSERT option %q (validate)", o.Name)}
		}
	}
	tg, err := db.lockTarget("INSERT", s.Table, s.TablePos)
	if err != nil {
		return nil, err
	}
	defer tg.unlock()
	schema, rules := tg.schemaRules()
	at := Pos{s.TablePos.Line, s.TablePos.Col}
	// pos[i] is the table column that the query's column i fills.
	var pos []int
	if s.Cols == nil {
		for i := range schema {
			pos = append(pos, i)
		}
	} else {
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
			cp := Pos{s.ColsPos[k].Line, s.ColsPos[k].Col}
			if i < 0 {
				return nil, &Error{Pos: cp, Kind: ErrUnknownColumn, Msg: fmt.Sprintf("table %q has no column %q", tg.name, c)}
			}
			if seen[i] {
				return nil, &Error{Pos: cp, Kind: ErrSyntax, Msg: fmt.Sprintf("column %q is listed twice", c)}
			}
			seen[i] = true
			pos = append(pos, i)
		}
	}
	built, _, err := db.plan(s.Query, false, args)
	if err != nil {
		return nil, s.FixError(err)
	}
	rows, err := newRows(ctx, db, built, nil)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if got := len(rows.Columns()); got != len(pos) {
		return nil, &Error{Pos: at, Kind: ErrType, Msg: fmt.Sprintf("INSERT into %q: %d target columns, the rows have %d values", tg.name, len(pos), got)}
	}
	ins := &inserter{what: "INSERT", at: at, schema: schema, rules: rules, validate: validate, pos: pos}
	if s.Replace {
		ins.what = "REPLACE"
	}
	if tg.mem != nil {
		n, err := db.insertMem(ctx, tg, rows, ins, s.Replace, s.Ignore)
		if err != nil {
			return nil, err
		}
		return countRows(n), nil
	}
	if s.Replace || s.Ignore {
		return nil, &Error{Pos: at, Kind: ErrUnsupported, Msg: "INSERT OR REPLACE / OR IGNORE need a key: CTables have none (use DELETE, then INSERT)"}
	}
	c, err := ctable.Begin(tg.ct.Path())
	if err != nil {
		return nil, err
	}
	defer c.Abort()
	for b := rows.NextBatch(); b != nil; b = rows.NextBatch() {
		tb, err := ins.convert(b)
		if err != nil {
			return nil, err
		}
		if err := c.Append(tb); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	n := c.Appended()
	if err := db.commit(tg, c); err != nil {
		return nil, err
	}
	return countRows(n), nil
}

// commit publishes a CTable change and points the catalog at the new
// version.
func (db *DB) commit(tg *dmlTarget, c *ctable.Change) error {
	if err := c.Commit(); err != nil {
		return err
	}
	fresh, err := openCTable(tg.ct.Path())
	if err != nil {
		return err
	}
	ctableStamps.Delete(tg.ct)
	db.swapTable(tg.key, fresh)
	return nil
}

// schemaRules returns the table's columns and their constraints.
func (tg *dmlTarget) schemaRules() (columnar.Schema, []ctable.Rules) {
	if tg.mem != nil {
		rules := tg.mem.rules
		if rules == nil {
			rules = make([]ctable.Rules, len(tg.mem.schema))
			for i := range rules {
				rules[i].Nullable = true
			}
		}
		return tg.mem.schema, rules
	}
	return tg.ct.Schema(), tg.ct.Rules()
}

// inserter turns result batches into batches of the table's columns,
// cast to their types and checked against their rules.
type inserter struct {
	what     string
	at       Pos
	schema   columnar.Schema
	rules    []ctable.Rules
	validate bool
	pos      []int // table column of each source column
	rowsDone int64 // rows converted so far, for error messages
}

// convert builds a dense batch of the table's columns from b's live rows.
func (ins *inserter) convert(b *columnar.Batch) (*columnar.Batch, error) {
	n := b.Live()
	types := make([]columnar.Type, len(ins.schema))
	for i, f := range ins.schema {
		types[i] = f.Type
	}
	out := columnar.NewBatch(types, n)
	out.Len = n
	src := make([]int, len(ins.schema))
	for i := range src {
		src[i] = -1
	}
	for k, p := range ins.pos {
		src[p] = k
	}
	for i, f := range ins.schema {
		v := out.Cols[i]
		if src[i] < 0 {
			for r := 0; r < n; r++ {
				v.SetNull(r, n)
			}
			continue
		}
		in := b.Cols[src[i]]
		for r := 0; r < n; r++ {
			x := in.Value(b.Row(r))
			if x.Null {
				v.SetNull(r, n)
				continue
			}
			if x.Type != f.Type {
				c, err := executor.CastValue(x, f.Type)
				if err != nil {
					return nil, &Error{Pos: ins.at, Kind: ErrType, Msg: fmt.Sprintf("%s: row %d, column %q: %v", ins.what, ins.rowsDone+int64(r)+1, f.Name, err)}
				}
				x = c
			}
			v.SetValue(r, n, x)
		}
	}
	if err := ins.check(out, ins.rowsDone); err != nil {
		return nil, err
	}
	ins.rowsDone += int64(n)
	return out, nil
}

// check tests every row of a table batch against the column rules; row
// numbers in errors count from base+1. NOT NULL is checked even without
// validation (a NULL cannot be stored in a column without nulls).
func (ins *inserter) check(b *columnar.Batch, base int64) error {
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
				return &Error{Pos: ins.at, Kind: ErrConstraint, Msg: fmt.Sprintf("%s: row %d, column %q: %s violates %s",
					ins.what, base+int64(k)+1, ins.schema[i].Name, literal(v.Value(row)), msg)}
			}
		}
	}
	return nil
}

// literal renders a value as SQL writes it: strings quoted.
func literal(v columnar.Value) string {
	switch {
	case v.Null:
		return "NULL"
	case v.Type.IsString():
		return "'" + strings.ReplaceAll(v.S, "'", "''") + "'"
	}
	return v.String()
}
