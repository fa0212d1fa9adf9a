package engine

import (
	"context"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/internal/dml"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// withWrites runs a statement whose WITH names statements that write
// (sql.WithWrites): each runs once, in order, through internal/dml as it
// would alone, and its name then stands for the rows it gave
// (dml.WrittenRows) in the statements after it, which see the tables as
// it left them; then the statement itself runs.
//
// The whole is one statement: outside a transaction it runs in one of
// its own, committed once the statement's rows are all computed, so that
// an error anywhere, the statement's own rows included, leaves every
// table as it was. Those rows are therefore kept in memory and returned
// from there (inside the user's transaction they stream, as any query's:
// an error while reading them aborts it).
func (s *Session) withWrites(ctx context.Context, st *sql.WithWrites, args []columnar.Value) (*Result, error) {
	// Every part is planned first, as EXPLAIN plans it, so that an error
	// of binding in any of them (the statement's after the writes
	// included) refuses the statement before anything is written, as
	// DuckDB binds the whole statement before running it: such an error
	// then does not abort a transaction.
	if _, err := s.explainWithWrites(st, false, args); err != nil {
		return nil, err
	}
	cat := s.cat()
	own := !cat.InTransaction()
	if own {
		tx, err := cat.Begin()
		if err != nil {
			return nil, err
		}
		defer tx.RollbackTransaction() // nothing left to drop once committed
		cat = tx
	}
	writes := map[string]planner.Table{}
	env := s.envIn(cat, writes)
	for _, w := range st.Writes {
		if err := hidesTarget(w.Stmt, writes); err != nil {
			return nil, err
		}
		out, err := dml.Run(ctx, env, w.Stmt, args)
		if err != nil {
			return nil, err
		}
		t, err := dml.WrittenRows(ctx, env, out, w.Name, w.Columns, w.Pos)
		if err != nil {
			return nil, err
		}
		writes[strings.ToLower(w.Name)] = t
	}
	res, err := s.withWritesMain(ctx, env, st.Main, args, writes, own)
	if err != nil {
		return nil, err
	}
	if own {
		if err := cat.CommitTransaction(); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// withWritesMain runs the statement after its WITH's writes; own: its
// rows are computed now (the statement's own transaction commits next).
func (s *Session) withWritesMain(ctx context.Context, env *dml.Env, main sql.Statement, args []columnar.Value, writes map[string]planner.Table, own bool) (*Result, error) {
	q, ok := main.(*sql.Query)
	if !ok {
		if err := hidesTarget(main, writes); err != nil {
			return nil, err
		}
		// RETURNING's rows are kept already (dml/returning.go).
		return s.dmlResult(dml.Run(ctx, env, main, args))
	}
	built, names, err := s.planIn(q, env.Cat, args, writes, false)
	if err != nil {
		return nil, err
	}
	if !own {
		return &Result{Plan: built, Names: names, Zone: s.Zone()}, nil
	}
	t, err := dml.Collect(ctx, env.Cat, built, names)
	if err != nil {
		return nil, err
	}
	// One thread: the rows come back in the order they were computed.
	built, err = s.build(scanAll(t), false, 1)
	if err != nil {
		return nil, err
	}
	return &Result{Plan: built, Names: names, Zone: s.Zone()}, nil
}

// scanAll is the plan reading every column of t.
func scanAll(t *catalog.MemTable) planner.Node {
	sc := &planner.Scan{Table: t, Name: "result", Alias: "result", Limit: -1}
	for i, f := range t.Schema() {
		sc.TableCols = append(sc.TableCols, i)
		sc.Cols = append(sc.Cols, planner.Column{ID: planner.ColID(i + 1), Name: f.Name, Table: "result", Type: f.Type})
	}
	return sc
}
