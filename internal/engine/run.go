package engine

import (
	"context"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/dml"
	"github.com/b2sql/b2sql/sql"
)

// Parse parses one statement (sql.ParseIn) with a parser panic turned
// into an internal error; the unqualified names of the relations it
// creates or changes are in the database or schema the session's USE
// chose.
func (s *Session) Parse(src sql.Source) (stmt sql.Statement, err error) {
	defer func() {
		if r := recover(); r != nil {
			stmt, err = nil, InternalError(r)
		}
	}()
	return sql.ParseIn(src, s.SearchPath(), s.cat())
}

// relationOf is the catalog key of the relation st creates (creates) or
// changes ("" when it names none); ok reports whether its schema must
// exist (DROP … IF EXISTS of a missing schema is no error, as in DuckDB).
func relationOf(st sql.Statement) (key string, pos sql.Pos, creates, ok bool) {
	switch st := st.(type) {
	case *sql.CreateTable:
		return st.Name, st.NamePos, true, true
	case *sql.CreateTableAs:
		return st.Name, st.NamePos, true, true
	case *sql.CreateView:
		return st.Name, st.NamePos, true, true
	case *sql.CreateSequence:
		return st.Name, st.NamePos, true, true
	case *sql.CreateMacro:
		return st.Key, st.NamePos, true, true
	case *sql.DropMacro:
		return st.Key, st.NamePos, false, !st.IfExists
	case *sql.DropTable:
		return st.Name, st.NamePos, false, !st.IfExists
	case *sql.DropView:
		return st.Name, st.NamePos, false, !st.IfExists
	case *sql.DropSequence:
		return st.Name, st.NamePos, false, !st.IfExists
	case *sql.Insert:
		return st.Table, st.TablePos, false, true
	case *sql.Update:
		return st.Table, st.TablePos, false, true
	case *sql.Delete:
		return st.Table, st.TablePos, false, true
	}
	return "", sql.Pos{}, false, false
}

// NumParams counts the values a statement takes, writes included.
func NumParams(st sql.Statement) int { return len(sql.Params(st)) }

// Run runs a parsed statement with its parameter values. A Result with a
// Plan holds no Acquire of the catalog: its consumer tracks it (Track).
// Inside a transaction (tx.go) the statement runs against the
// transaction's catalog, and an error of running aborts it.
func (s *Session) Run(ctx context.Context, src sql.Source, stmt sql.Statement, args []columnar.Value) (*Result, error) {
	if t, ok := stmt.(*sql.Transaction); ok {
		if err := s.transaction(t); err != nil {
			s.failed(err, false)
			return nil, sql.WithEnd(src, err)
		}
		return done, nil
	}
	if err := s.admit(stmt, sql.Pos{Line: src.Line, Col: src.Col}); err != nil {
		s.failed(err, false)
		return nil, sql.WithEnd(src, err)
	}
	rctx, ran := dml.Running(ctx)
	res, err := s.run(rctx, src, stmt, args)
	if err != nil {
		s.failed(err, ran.Load())
		return nil, err
	}
	if res.Plan != nil {
		if open, _ := s.InTransaction(); open {
			res.Fail = func(err error) { s.failed(err, true) }
		}
	}
	return res, nil
}

// run is Run's statement outside transaction control.
func (s *Session) run(ctx context.Context, src sql.Source, stmt sql.Statement, args []columnar.Value) (res *Result, err error) {
	written := src
	defer func() {
		if err != nil {
			err = sql.WithEnd(written, err) // errors from recorded positions underline their token
		}
	}()
	x, xerr := s.expandMacros(&src, &stmt)
	if xerr != nil {
		return nil, xerr
	}
	if x != nil {
		defer func() {
			if err != nil {
				err = x.MapError(err) // positions in the statement as written
			}
		}()
	}
	if res, ok, err := s.runPrepared(ctx, stmt, args); ok { // prepare.go
		return res, err
	}
	cat := s.cat()
	if err := cat.Acquire(); err != nil {
		return nil, err
	}
	defer cat.Release()
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, InternalError(r)
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(args) > 0 && NumParams(stmt) == 0 {
		switch stmt.(type) {
		case *sql.Query, *sql.Copy, *sql.CreateTableAs, *sql.Insert, *sql.Delete, *sql.Update, *sql.WithWrites:
		default:
			return nil, &sql.Error{Pos: sql.Pos{Line: src.Line, Col: src.Col}, Kind: sql.ErrParam,
				Msg: fmt.Sprintf("statement takes no parameters, %d arguments given", len(args))}
		}
	}
	if key, pos, creates, ok := relationOf(stmt); key != "" {
		if ok {
			if err := cat.CheckSchema(key, pos, creates); err != nil { // CREATE TABLE s.t: s must exist
				return nil, err
			}
		}
		if err := cat.CheckWritable(key, pos, statementType(stmt)); err != nil { // ATTACH … (READ_ONLY)
			return nil, err
		}
	}
	switch st := stmt.(type) {
	case *sql.Query:
		built, names, err := s.plan(st, false, 0, nil, args)
		if err != nil {
			return nil, err
		}
		return &Result{Plan: built, Names: names, Zone: s.Zone()}, nil
	case *sql.WithWrites:
		return s.withWrites(ctx, st, args) // with_writes.go
	case *sql.Explain:
		text, err := s.explain(ctx, st, args)
		if err != nil {
			return nil, err
		}
		return planLines(text), nil
	case *sql.Checkpoint:
		return done, s.checkpoint(st) // checkpoint.go
	case *sql.Set:
		return done, s.set(st.Name, st.Value, false)
	case *sql.Reset:
		return done, s.set(st.Name, columnar.Value{}, true)
	case *sql.SetVariable:
		return done, s.setVariable(ctx, st, args) // variables.go
	case *sql.ResetVariable:
		s.resetVariable(st.Name)
		return done, nil
	case *sql.CreateSecret:
		return done, s.createSecret(st)
	case *sql.DropSecret:
		return done, s.dropSecret(st)
	case *sql.ShowTables:
		return s.showTables(cat), nil // attach.go
	case *sql.Use:
		return done, s.use(cat, st) // attach.go
	case *sql.Describe:
		return s.describe(st, args)
	case *sql.CreateView:
		return done, cat.CreateView(st, &bindCatalog{ViewCatalog: cat, sess: s}) // its names in USE's path
	case *sql.CreateMacro:
		return done, cat.CreateMacro(st)
	case *sql.DropMacro:
		return done, cat.DropMacro(st)
	case *sql.Comment:
		return done, cat.Comment(st)
	case *sql.DropView:
		return done, cat.DropView(st)
	case *sql.CreateSequence:
		return done, cat.CreateSequence(st)
	case *sql.DropSequence:
		return done, cat.DropSequence(st)
	case *sql.CreateType:
		return done, cat.CreateType(st)
	case *sql.DropType:
		return done, cat.DropType(st)
	case *sql.Attach:
		return done, cat.Attach(st)
	case *sql.Detach:
		if err := s.detachable(st); err != nil { // attach.go
			return nil, err
		}
		return done, cat.Detach(st, s.dropTable(ctx, st.NamePos))
	case *sql.CreateSchema:
		return done, cat.CreateSchema(st)
	case *sql.DropSchema:
		return done, cat.DropSchema(st, s.dropTable(ctx, st.NamePos))
	}
	return s.dmlResult(dml.Run(ctx, s.env(), stmt, args))
}

// dropTable returns what DROP SCHEMA … CASCADE and DETACH drop a table of
// theirs with: DROP TABLE IF EXISTS of its key, errors at pos.
func (s *Session) dropTable(ctx context.Context, pos sql.Pos) func(key string) error {
	return func(key string) error {
		_, err := dml.Run(ctx, s.env(), &sql.DropTable{Name: key, NamePos: pos, IfExists: true}, nil)
		return err
	}
}
