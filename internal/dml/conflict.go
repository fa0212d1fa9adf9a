package dml

import (
	"context"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// INSERT … ON CONFLICT … DO UPDATE SET … [WHERE …], as DuckDB runs it: a
// proposed row whose key is held by a row that was in the table before
// the statement changes that row in place (its SET values computed from
// the row as it was and the proposed row, named excluded); the WHERE
// condition, when false or NULL, leaves the row as it is. Only the first
// proposal for a row changes it: a later proposal with the same key, or
// one clashing with a row this statement inserted, is dropped. The count
// is the rows inserted plus the rows changed.

// upsert gathers the conflicts of one INSERT and applies its DO UPDATE.
type upsert struct {
	cu       *sql.ConflictUpdate
	schema   columnar.Schema
	target   []int              // table column of each SET
	before   int                // rows in the table before the statement
	claimed  map[int]bool       // rows already taken by a proposal
	at       []int              // per conflict: the row it changes (index into the rows)
	old, new [][]columnar.Value // per conflict: the existing and the proposed row
	proposal []int              // per conflict: the proposed row's number in the statement
}

func newUpsert(cu *sql.ConflictUpdate, schema columnar.Schema, before int, table string, at sql.Pos) (*upsert, error) {
	up := &upsert{cu: cu, schema: schema, before: before, claimed: map[int]bool{}}
	for k, name := range cu.Sets {
		i := -1
		for j, f := range schema {
			if strings.EqualFold(f.Name, name) {
				i = j
			}
		}
		if i < 0 {
			return nil, &sql.Error{Pos: cu.SetsPos[k], Kind: sql.ErrUnknownColumn, Msg: fmt.Sprintf("table %q has no column %q", table, name)}
		}
		up.target = append(up.target, i)
	}
	return up, nil
}

// propose records that proposed row row (the statement's ri-th) clashes
// with the table's row i.
func (up *upsert) propose(i int, old, row []columnar.Value, ri int) {
	if i >= up.before || up.claimed[i] {
		return
	}
	up.claimed[i] = true
	up.at = append(up.at, i)
	up.old = append(up.old, old)
	up.new = append(up.new, row)
	up.proposal = append(up.proposal, ri)
}

// run evaluates the DO UPDATE query over the conflicts and changes rows
// in place; changed(ri, row) is told of each change. It returns the rows
// changed.
func (up *upsert) run(ctx context.Context, env *Env, table string, rows [][]columnar.Value, args []columnar.Value, ins *inserter, changed func(ri int, row []columnar.Value)) (int64, error) {
	if len(up.at) == 0 {
		return 0, nil
	}
	old := sql.NewRowIDTable(catalog.NewMemTable(up.schema, up.old))
	proposed := sql.NewRowIDTable(catalog.NewMemTable(up.schema, up.new))
	if old.Schema()[old.ID()].Name != "rowid" {
		return 0, &sql.Error{Pos: ins.at, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("ON CONFLICT … DO UPDATE: table %q has a column named rowid", table)}
	}
	cat := &overlayCatalog{ViewCatalog: env.Cat, tables: map[string]planner.Table{strings.ToLower(table): old, "excluded": proposed}}
	bound, err := env.Bind(up.cu.Query, cat, args)
	if err != nil {
		return 0, err
	}
	built, err := env.Build(bound.Root, false)
	if err != nil {
		return 0, err
	}
	types := built.Root.Types()
	cond, id := -1, len(up.target)
	if up.cu.HasWhere {
		cond, id = id, id+1
		if t := types[cond]; t.ID != columnar.Bool && t.ID != columnar.Null {
			built.Root.Close()
			return 0, &sql.Error{Pos: ins.at, Kind: sql.ErrType, Msg: fmt.Sprintf("ON CONFLICT … DO UPDATE: WHERE must be BOOLEAN, got %s", t)}
		}
	}
	n := int64(0)
	err = Drive(ctx, env.Cat, built, func(b *columnar.Batch) error {
		for k := 0; k < b.Live(); k++ {
			r := b.Row(k)
			if cond >= 0 && !isTrue(b.Cols[cond], r) {
				continue
			}
			c := int(valueAt(b.Cols[id], r).I)
			row := append([]columnar.Value(nil), up.old[c]...)
			for j, i := range up.target {
				v := valueAt(b.Cols[j], r)
				switch {
				case v.Null:
					v = columnar.NullValue(up.schema[i].Type)
				case v.Type != up.schema[i].Type:
					cv, err := executor.CastValue(v, up.schema[i].Type)
					if err != nil {
						return &sql.Error{Pos: up.cu.SetsPos[j], Kind: sql.ErrType, Msg: fmt.Sprintf("ON CONFLICT … DO UPDATE: column %q: %v", up.schema[i].Name, err)}
					}
					v = cv
				}
				row[i] = v
			}
			if err := ins.checkRow(row, int64(up.at[c])); err != nil {
				return err
			}
			rows[up.at[c]] = row
			changed(up.proposal[c], row)
			n++
		}
		return nil
	})
	return n, err
}

// valueAt is v's value in row r (row 0 of a constant vector).
func valueAt(v *columnar.Vector, r int) columnar.Value {
	if v.Const {
		r = 0
	}
	return v.Value(r)
}

// isTrue reports whether BOOLEAN vector v holds TRUE in row r.
func isTrue(v *columnar.Vector, r int) bool {
	if v.Type.ID != columnar.Bool {
		return false
	}
	if v.Const {
		r = 0
	}
	return !v.IsNull(r) && v.Bools[r]
}
