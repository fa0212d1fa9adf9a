package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/dml"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// EXPLAIN [ANALYZE] of a statement that writes: one line naming what the
// statement would write, above the plan of the query that produces it
// (INSERT's rows, the WHERE flags of DELETE, UPDATE's new values and
// flags, COPY's and CREATE TABLE AS's result). Nothing is written, no
// table is locked and no file is created; ANALYZE runs the query and drops
// its rows, so that the plan carries its counts and times.

// explainWrite is the text of EXPLAIN [ANALYZE] e for e.Write.
func (s *Session) explainWrite(ctx context.Context, e *sql.Explain, args []columnar.Value) (string, error) {
	if ww, ok := e.Write.(*sql.WithWrites); ok {
		return s.explainWithWrites(ww, e.Analyze, args)
	}
	return s.writePlan(ctx, s.env(), nil, e.Write, e.Analyze, args)
}

// writePlan is the text of EXPLAIN [ANALYZE] of the write st, planned
// in env with the names of a WITH's writes standing for writes (nil:
// none).
func (s *Session) writePlan(ctx context.Context, env *dml.Env, writes map[string]planner.Table, st sql.Statement, analyze bool, args []columnar.Value) (string, error) {
	e := &sql.Explain{Write: st, Analyze: analyze}
	head, q, addressed, err := s.describeWrite(e.Write, args)
	if err != nil {
		return "", err
	}
	if e.Analyze {
		head += "  (not written: EXPLAIN ANALYZE runs the query only)"
	}
	if q == nil {
		return head, nil
	}
	if len(args) > sql.NumParams(q) {
		args = args[:sql.NumParams(q)] // COPY TO ?: the path's value comes last
	}
	var built *planner.Built
	if addressed {
		built, err = dml.AddressedPlan(env, e.Write, args, e.Analyze) // UPDATE and DELETE: the row id query
	} else {
		built, _, err = s.planIn(q, env.Cat, args, writes, e.Analyze)
	}
	if err != nil {
		return "", err
	}
	if e.Analyze {
		if err := dml.Drain(ctx, s.cat(), built); err != nil {
			return "", err
		}
	}
	lines := strings.Split(built.Explain(e.Analyze), "\n")
	for i, l := range lines {
		if i == 0 {
			lines[i] = "└─ " + l
		} else {
			lines[i] = "   " + l
		}
	}
	return head + "\n" + strings.Join(lines, "\n"), nil
}

// explainWithWrites is the text of EXPLAIN of a statement whose WITH
// names writes (sql.WithWrites), planned without running any of them:
// each write's plan, headed "With name:", as EXPLAIN of it alone shows
// it, then the statement's. The names of the writes before a part
// stand for tables of no rows with the columns their rows would have
// (dml.StandIn). EXPLAIN ANALYZE, which would have to run the writes,
// is refused.
func (s *Session) explainWithWrites(st *sql.WithWrites, analyze bool, args []columnar.Value) (string, error) {
	if analyze {
		return "", &sql.Error{Kind: sql.ErrUnsupported, Msg: "EXPLAIN ANALYZE of a statement with INSERT, UPDATE or DELETE in its WITH is not supported (it would run them)"}
	}
	ctx := context.Background()
	writes := map[string]planner.Table{}
	env := s.envIn(s.cat(), writes)
	var parts []string
	for _, w := range st.Writes {
		if err := hidesTarget(w.Stmt, writes); err != nil {
			return "", err
		}
		text, err := s.writePlan(ctx, env, writes, w.Stmt, false, args)
		if err != nil {
			return "", err
		}
		parts = append(parts, "With "+quoteName(w.Name)+": "+text)
		t, err := dml.StandIn(env, w.Stmt, args, w.Name, w.Columns, w.Pos)
		if err != nil {
			return "", err
		}
		writes[strings.ToLower(w.Name)] = t
	}
	if q, ok := st.Main.(*sql.Query); ok {
		built, _, err := s.planIn(q, env.Cat, args, writes, false)
		if err != nil {
			return "", err
		}
		return strings.Join(append(parts, built.Explain(false)), "\n"), nil
	}
	if err := hidesTarget(st.Main, writes); err != nil {
		return "", err
	}
	text, err := s.writePlan(ctx, env, writes, st.Main, false, args)
	if err != nil {
		return "", err
	}
	return strings.Join(append(parts, text), "\n"), nil
}

// describeWrite returns the head line of EXPLAIN for write statement st,
// the query whose plan goes under it (nil: none), whether that query
// addresses the table's rows by row id (DELETE, UPDATE). A target
// table that the statement could not write is an error, as it would be
// when the statement runs.
func (s *Session) describeWrite(st sql.Statement, args []columnar.Value) (head string, q *sql.Query, addressed bool, err error) {
	switch w := st.(type) {
	case *sql.Insert:
		if err := s.checkWriteTarget("INSERT", w.Table, w.TablePos); err != nil {
			return "", nil, false, err
		}
		verb := "Insert into"
		switch {
		case w.Replace:
			verb = "Insert or replace into"
		case w.Ignore:
			verb = "Insert or ignore into"
		}
		dml.ExplainDefaults(s.cat(), w) // DEFAULT in VALUES binds as the INSERT binds it
		head = verb + " " + quoteName(w.Table)
		if w.Cols != nil {
			head += " (" + strings.Join(w.Cols, ", ") + ")"
		}
		return head, w.Query, false, nil
	case *sql.Delete:
		if err := s.checkWriteTarget("DELETE", w.Table, w.TablePos); err != nil {
			return "", nil, false, err
		}
		if w.Where == nil {
			return "Delete from " + quoteName(w.Table) + ": every row", nil, false, nil
		}
		return "Delete from " + quoteName(w.Table) + " (the rows whose WHERE is true)", w.Where, true, nil
	case *sql.Update:
		if err := s.checkWriteTarget("UPDATE", w.Table, w.TablePos); err != nil {
			return "", nil, false, err
		}
		head = "Update " + quoteName(w.Table) + " set " + strings.Join(w.Sets, ", ")
		if w.HasWhere {
			head += " (the rows whose WHERE, the last column, is true)"
		}
		return head, w.Query, true, nil
	case *sql.Copy:
		path := w.Path
		if w.PathParam {
			path = "?"
			if n := sql.NumParams(w.Query); len(args) == n+1 && args[n].Type.ID == columnar.Varchar && !args[n].Null {
				path = args[n].S
			}
		}
		desc, err := dml.DescribeCopy(path, w) // as copyTo decides
		if err != nil {
			return "", nil, false, err
		}
		head = "Copy to " + quoteString(path) + " " + desc
		return head, w.Query, false, nil
	case *sql.CreateTableAs:
		format, err := dml.TableFormat(s.cat(), w.Name, w.Options, true)
		if err != nil {
			return "", nil, false, err
		}
		head = "Create table " + quoteName(w.Name)
		switch {
		case w.Replace:
			head = "Create or replace table " + quoteName(w.Name)
		case w.IfNotExists:
			head += " if not exists"
		}
		return head + " format=" + format + " as", w.Query, false, nil
	case *sql.CreateTable:
		format, err := dml.TableFormat(s.cat(), w.Name, w.Options, false)
		if err != nil {
			return "", nil, false, err
		}
		var cols []string
		for _, c := range w.Cols {
			cols = append(cols, c.Name+" "+c.Type.String())
		}
		return "Create table " + quoteName(w.Name) + " (" + strings.Join(cols, ", ") + ") format=" + format, nil, false, nil
	case *sql.DropTable:
		return "Drop table " + quoteName(w.Name), nil, false, nil
	}
	return "", nil, false, fmt.Errorf("unexpected statement %T", st) // sql.Parse refuses the others
}

// checkWriteTarget reports the error the statement what would meet on
// table name: an unknown table, or one it cannot change.
func (s *Session) checkWriteTarget(what, name string, pos sql.Pos) error {
	_, err := s.cat().WriteTarget(what, name, pos)
	return err
}

// quoteName quotes a table name unless it is a plain identifier.
func quoteName(s string) string {
	plain := s != ""
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
		}
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
func quoteString(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }

// planLines is EXPLAIN's result: one row per line of text.
func planLines(text string) *Result {
	var vals [][]columnar.Value
	for _, line := range strings.Split(text, "\n") {
		vals = append(vals, []columnar.Value{columnar.StringValue(line)})
	}
	return values([]Column{{Name: "plan", Type: columnar.TVarchar}}, vals)
}

// Explain returns the plan of a query or of a statement that writes,
// without running it (DB.Explain); src is its text, for the macros it
// calls.
func (s *Session) Explain(src sql.Source, stmt sql.Statement, args []columnar.Value) (text string, err error) {
	if err := s.cat().Acquire(); err != nil {
		return "", err
	}
	defer s.cat().Release()
	x, err := s.expandMacros(&src, &stmt)
	if err != nil {
		return "", err
	}
	if x != nil {
		defer func() {
			if err != nil {
				err = x.MapError(err)
			}
		}()
	}
	e, ok := stmt.(*sql.Explain)
	if !ok {
		switch st := stmt.(type) {
		case *sql.Query:
			e = &sql.Explain{Query: st}
		case *sql.Insert, *sql.Update, *sql.Delete, *sql.Copy, *sql.CreateTableAs, *sql.WithWrites:
			e = &sql.Explain{Write: st}
		default:
			return "", &sql.Error{Kind: sql.ErrUnsupported, Msg: "Explain takes a SELECT or a statement that writes"}
		}
	}
	if e.Query != nil {
		e = &sql.Explain{Query: e.Query} // DB.Explain never runs the query
	}
	return s.explain(context.Background(), e, args)
}

// explain is the text of EXPLAIN [ANALYZE].
func (s *Session) explain(ctx context.Context, e *sql.Explain, args []columnar.Value) (string, error) {
	if e.Write != nil {
		return s.explainWrite(ctx, e, args) // explain.go
	}
	if mode := strings.ToLower(s.Settings().ExplainOutput); !e.Analyze && mode != "" && mode != "physical_only" {
		return s.explainLogical(e.Query, args, mode) // explain_output.go
	}
	built, _, err := s.plan(e.Query, e.Analyze, 0, nil, args)
	if err != nil {
		return "", err
	}
	if e.Analyze {
		if err := dml.Drain(ctx, s.cat(), built); err != nil {
			return "", err
		}
	}
	return built.Explain(e.Analyze), nil
}
