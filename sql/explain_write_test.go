package sql

import (
	"errors"
	"testing"
)

func TestParseExplainWrite(t *testing.T) {
	for _, tc := range []struct {
		sql     string
		analyze bool
		check   func(Statement) bool
	}{
		{"EXPLAIN INSERT INTO t VALUES (1)", false, func(s Statement) bool { i, ok := s.(*Insert); return ok && i.Table == "t" }},
		{"EXPLAIN ANALYZE REPLACE INTO t VALUES (1)", true, func(s Statement) bool { i, ok := s.(*Insert); return ok && i.Replace }},
		{"EXPLAIN DELETE FROM t WHERE a = 1", false, func(s Statement) bool { d, ok := s.(*Delete); return ok && d.Where != nil }},
		{"EXPLAIN UPDATE t SET a = 2", false, func(s Statement) bool { u, ok := s.(*Update); return ok && u.Sets[0] == "a" }},
		{"EXPLAIN COPY (SELECT 1) TO 'x.parquet'", false, func(s Statement) bool { c, ok := s.(*Copy); return ok && c.Path == "x.parquet" }},
		{"EXPLAIN CREATE TABLE u AS SELECT 1", false, func(s Statement) bool { c, ok := s.(*CreateTableAs); return ok && c.Name == "u" }},
		{"explain drop table t;", false, func(s Statement) bool { d, ok := s.(*DropTable); return ok && d.Name == "t" }},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			st, err := Parse(Source{Text: tc.sql})
			if err != nil {
				t.Fatal(err)
			}
			e, ok := st.(*Explain)
			if !ok || e.Query != nil || e.Analyze != tc.analyze || !tc.check(e.Write) {
				t.Fatalf("got %#v", st)
			}
		})
	}
	// A statement's error keeps its place in the script: the INSERT starts
	// on line 2, column 3 of a script whose statement starts at 4:5.
	_, err := Parse(Source{Text: "EXPLAIN\n  INSERT INTO t VALUES (1 2)", Line: 4, Col: 5})
	var se *Error
	if !errors.As(err, &se) || se.Pos != (Pos{Line: 5, Col: 27}) {
		t.Fatalf("got %v, want an error at 5:27", err)
	}
}
