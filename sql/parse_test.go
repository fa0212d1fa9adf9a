package sql

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

func TestParseStatements(t *testing.T) {
	cases := []struct {
		sql  string
		want Statement // nil: check only the type via kind
		kind string
	}{
		{"SET threads = 4", &Set{Name: "threads", Value: columnar.IntValue(columnar.TInt64, 4)}, ""},
		{"SET Pruning = off", &Set{Name: "pruning", Value: columnar.BoolValue(false)}, ""},
		{"set pruning to ON;", &Set{Name: "pruning", Value: columnar.BoolValue(true)}, ""},
		{"SET format = 'parquet'", &Set{Name: "format", Value: columnar.StringValue("parquet")}, ""},
		{"SET memory_limit = '4GB'", &Set{Name: "memory_limit", Value: columnar.StringValue("4GB")}, ""},
		{"SET x = 1.5", &Set{Name: "x", Value: columnar.FloatValue(columnar.TFloat64, 1.5)}, ""},
		{"SET x = -3", &Set{Name: "x", Value: columnar.IntValue(columnar.TInt64, -3)}, ""},
		{"SET GLOBAL x = zstd", &Set{Name: "x", Value: columnar.StringValue("zstd")}, ""},
		{"SET threads = DEFAULT", &Reset{Name: "threads"}, ""},
		{"RESET threads", &Reset{Name: "threads"}, ""},
		{"RESET ALL", &Reset{Name: "all"}, ""},
		{"SHOW TABLES", &ShowTables{}, ""},
		{"show tables;", &ShowTables{}, ""},
		{"SELECT 1", nil, "*sql.Query"},
		{"(SELECT 1)", nil, "*sql.Query"},
		{"EXPLAIN SELECT a FROM t", nil, "*sql.Explain"},
		{"DESCRIBE t", nil, "*sql.Describe"},
		{"DESCRIBE SELECT a FROM t", nil, "*sql.Describe"},
	}
	for _, tc := range cases {
		t.Run(tc.sql, func(t *testing.T) {
			st, err := Parse(Source{Text: tc.sql})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && !reflect.DeepEqual(st, tc.want) {
				t.Errorf("got %#v, want %#v", st, tc.want)
			}
			if tc.kind != "" && reflect.TypeOf(st).String() != tc.kind {
				t.Errorf("got %T, want %s", st, tc.kind)
			}
		})
	}
}

func TestExplainDescribe(t *testing.T) {
	cat := newCatalog()
	st, err := Parse(Source{Text: "EXPLAIN ANALYZE SELECT a FROM t WHERE pricee > 1"})
	if err != nil {
		t.Fatal(err)
	}
	ex := st.(*Explain)
	if !ex.Analyze {
		t.Error("Analyze not set")
	}
	_, err = Bind(ex.Query, cat)
	if got, want := errString(err), `line 1:39: unknown column "pricee" (did you mean "price"?)`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}

	for _, tc := range []struct{ sql, table, names, err string }{
		{"DESCRIBE events", "events", "[id kind]", ""},
		{"DESC 'data/events.parquet'", "data/events.parquet", "[id kind]", ""},
		{"DESCRIBE events.parquet", "events.parquet", "[id kind]", ""},
		{"DESCRIBE SELECT kind, id + 1 AS n FROM events", "", "[kind n]", ""},
		{"DESCRIBE evnts", "evnts", "", `line 1:10: unknown table "evnts" (did you mean "events"?)`},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			st, err := Parse(Source{Text: tc.sql})
			if err != nil {
				t.Fatal(err)
			}
			d := st.(*Describe)
			if d.Table != tc.table {
				t.Errorf("Table %q, want %q", d.Table, tc.table)
			}
			bd, err := Bind(d.Query, cat)
			if got := errString(err); got != tc.err {
				t.Fatalf("error %q, want %q", got, tc.err)
			}
			if err == nil && fmtNames(bd.Names) != tc.names {
				t.Errorf("names %v, want %s", bd.Names, tc.names)
			}
		})
	}
}

func fmtNames(n []string) string { return fmt.Sprint(n) }

func TestParseStatementErrors(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		kind error
		msg  string
	}{
		{"SET = 3", ErrSyntax, `line 1:5: syntax error at or near "=" (expected a setting name)`},
		{"RESET", ErrSyntax, "line 1:6: syntax error at end of input (expected a setting name)"},
		{"EXPLAIN", ErrSyntax, "line 1:8: syntax error at end of input (expected a statement)"},
		{"EXPLAIN ATTACH 'x'", ErrUnsupported, "line 1:9: EXPLAIN of ATTACH is not supported (EXPLAIN takes a query, INSERT, UPDATE, DELETE, COPY, CREATE TABLE or DROP TABLE)"},
		{"EXPLAIN MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE", ErrUnsupported, "line 1:9: MERGE is not supported (write INSERT … ON CONFLICT, UPDATE and DELETE)"},
		{"DESCRIBE t u", ErrSyntax, `line 1:12: syntax error at or near "u"`},
		{"SELECT 1; SELECT 2", ErrSyntax, "line 1:11: more than one statement; split the script first"},
		{"", ErrSyntax, "line 1:1: empty statement"},
		{"-- nothing", ErrSyntax, "line 1:1: empty statement"},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			_, err := Parse(Source{Text: tc.sql})
			if errString(err) != tc.msg || !errors.Is(err, tc.kind) {
				t.Errorf("got %v, want %q (%v)", err, tc.msg, tc.kind)
			}
		})
	}
}
