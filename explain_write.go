package b2sql

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/sql"
)

// EXPLAIN [ANALYZE] of a statement that writes: one line naming what the
// statement would write, above the plan of the query that produces it
// (INSERT's rows, the WHERE flags of DELETE, UPDATE's new values and
// flags, COPY's and CREATE TABLE AS's result). Nothing is written, no
// table is locked and no file is created; ANALYZE runs the query and drops
// its rows, so that the plan carries its counts and times.

// explainWrite returns the lines of explainWriteText as EXPLAIN's rows.
func (db *DB) explainWrite(ctx context.Context, e *sql.Explain, args []columnar.Value) (*Rows, error) {
	text, err := db.explainWriteText(ctx, e, args)
	if err != nil {
		return nil, err
	}
	var vals [][]columnar.Value
	for _, line := range strings.Split(text, "\n") {
		vals = append(vals, []columnar.Value{columnar.StringValue(line)})
	}
	return valueRows([]Column{{Name: "plan", Type: columnar.TVarchar}}, vals), nil
}

// explainWriteText is the text of EXPLAIN [ANALYZE] e for e.Write.
func (db *DB) explainWriteText(ctx context.Context, e *sql.Explain, args []columnar.Value) (string, error) {
	head, q, serial, fix, err := db.describeWrite(e.Write, args)
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
	threads := db.threads()
	if serial {
		threads = 1 // UPDATE and DELETE read their table in order (dml.go)
	}
	built, _, err := db.planThreads(q, e.Analyze, threads, args)
	if err != nil {
		return "", fix(err)
	}
	if e.Analyze {
		r, err := newRows(ctx, db, built, nil)
		if err != nil {
			return "", err
		}
		if err := drain(r); err != nil {
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

// describeWrite returns the head line of EXPLAIN for write statement st,
// the query whose plan goes under it (nil: none), whether that query runs
// on one thread, and the function that repositions its errors. A target
// table that the statement could not write is an error, as it would be
// when the statement runs.
func (db *DB) describeWrite(st sql.Statement, args []columnar.Value) (head string, q *sql.Query, serial bool, fix func(error) error, err error) {
	fix = func(err error) error { return err }
	switch s := st.(type) {
	case *sql.Insert:
		if err := db.checkWriteTarget("INSERT", s.Table, s.TablePos); err != nil {
			return "", nil, false, nil, err
		}
		verb := "Insert into"
		switch {
		case s.Replace:
			verb = "Insert or replace into"
		case s.Ignore:
			verb = "Insert or ignore into"
		}
		head = verb + " " + quoteName(s.Table)
		if s.Cols != nil {
			head += " (" + strings.Join(s.Cols, ", ") + ")"
		}
		return head, s.Query, false, s.FixError, nil
	case *sql.Delete:
		if err := db.checkWriteTarget("DELETE", s.Table, s.TablePos); err != nil {
			return "", nil, false, nil, err
		}
		if s.Where == nil {
			return "Delete from " + quoteName(s.Table) + ": every row", nil, false, fix, nil
		}
		return "Delete from " + quoteName(s.Table) + " (the rows whose WHERE is true)", s.Where, true, s.FixError, nil
	case *sql.Update:
		if err := db.checkWriteTarget("UPDATE", s.Table, s.TablePos); err != nil {
			return "", nil, false, nil, err
		}
		head = "Update " + quoteName(s.Table) + " set " + strings.Join(s.Sets, ", ")
		if s.HasWhere {
			head += " (the rows whose WHERE, the last column, is true)"
		}
		return head, s.Query, true, s.FixError, nil
	case *sql.Copy:
		path := s.Path
		if s.PathParam {
			path = "?"
			if n := sql.NumParams(s.Query); len(args) == n+1 && args[n].Type.ID == columnar.Varchar && !args[n].Null {
				path = args[n].S
			}
		}
		head = "Copy to " + quoteString(path) + " format="
		if tableKind(path) == "ctable" { // as copyTo decides
			head += strings.ToLower(strings.TrimPrefix(filepath.Ext(strings.TrimRight(path, `/\`)), "."))
		} else {
			head += "parquet"
			if s.Compression != "" {
				head += " compression=" + s.Compression
			}
		}
		return head, s.Query, false, fix, nil
	case *sql.CreateTableAs:
		format, err := db.tableFormat(s.Options, true)
		if err != nil {
			return "", nil, false, nil, err
		}
		head = "Create table " + quoteName(s.Name)
		switch {
		case s.Replace:
			head = "Create or replace table " + quoteName(s.Name)
		case s.IfNotExists:
			head += " if not exists"
		}
		return head + " format=" + format + " as", s.Query, false, fix, nil
	case *sql.CreateTable:
		format, err := db.tableFormat(s.Options, false)
		if err != nil {
			return "", nil, false, nil, err
		}
		var cols []string
		for _, c := range s.Cols {
			cols = append(cols, c.Name+" "+c.Type.String())
		}
		return "Create table " + quoteName(s.Name) + " (" + strings.Join(cols, ", ") + ") format=" + format, nil, false, fix, nil
	case *sql.DropTable:
		return "Drop table " + quoteName(s.Name), nil, false, fix, nil
	}
	return "", nil, false, nil, fmt.Errorf("unexpected statement %T", st) // sql.Parse refuses the others
}

// checkWriteTarget reports the error the statement what would meet on
// table name: an unknown table, or one it cannot change (lockTarget).
func (db *DB) checkWriteTarget(what, name string, pos sql.Pos) error {
	at := Pos{pos.Line, pos.Col}
	t, ok := catalog{db}.Table(name)
	if !ok {
		return &Error{Pos: at, Kind: ErrUnknownTable, Msg: fmt.Sprintf("unknown table %q", name)}
	}
	switch t.(type) {
	case *memTable, *ctable.Table:
		return nil
	}
	return &Error{Pos: at, Kind: ErrUnsupported, Msg: fmt.Sprintf("%s: table %q is read-only (%s writes in-memory tables and CTables .b2d/.b2z; rewrite a Parquet file with COPY)", what, name, what)}
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
