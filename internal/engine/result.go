package engine

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/dml"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// Column describes one result column: its name as the query spells it and
// its SQL type.
type Column struct {
	Name string
	Type columnar.Type
}

// Result is what a statement returns: a plan to stream (Plan non-nil, its
// columns named by Names) or a few rows computed already (Cols, Rows: SET,
// SHOW, DESCRIBE, EXPLAIN and the row counts of writes).
type Result struct {
	Plan  *planner.Built
	Names []string
	Cols  []Column
	Rows  [][]columnar.Value
	// Zone is the session's time zone when the statement ran: the zone
	// TIMESTAMP WITH TIME ZONE cells are shown in (columnar.Value.Zone).
	Zone string
	// Fail, when set, is told the error the plan ends with while its rows
	// are read: inside a transaction that error aborts it (tx.go).
	Fail func(error)
}

// Written is the number of rows a write statement reports (0 for others).
func (r *Result) Written(st sql.Statement) int64 {
	switch s := st.(type) {
	case *sql.WithWrites:
		return r.Written(s.Main)
	case *sql.Copy, *sql.CreateTableAs, *sql.Insert, *sql.Delete, *sql.Update:
		if r.Plan == nil && len(r.Rows) == 1 && len(r.Rows[0]) == 1 {
			return r.Rows[0][0].I
		}
	}
	return 0
}

func values(cols []Column, rows [][]columnar.Value) *Result { return &Result{Cols: cols, Rows: rows} }

var done = &Result{}

// countResult is the one-row result of a write: the rows written, as
// DuckDB reports them.
func countResult(n int64) *Result {
	return values([]Column{{Name: "Count", Type: columnar.TInt64}}, [][]columnar.Value{{columnar.IntValue(columnar.TInt64, n)}})
}

// InternalError turns a recovered panic into an error with its stack.
var InternalError = dml.InternalError

// dmlResult is the result of a statement dml.Run ran: RETURNING's rows,
// a count of rows, or none.
func (s *Session) dmlResult(out *dml.Outcome, err error) (*Result, error) {
	switch {
	case err != nil:
		return nil, err
	case out.Returning != nil:
		return &Result{Plan: out.Returning, Names: out.Names, Zone: s.Zone()}, nil
	case out.Counted:
		return countResult(out.N), nil
	}
	return done, nil
}
