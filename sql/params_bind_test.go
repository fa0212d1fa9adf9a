package sql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// TestBindWithParams checks that ? markers bind to typed constants that
// adapt like literals, and that a missing value is positioned.
func TestBindWithParams(t *testing.T) {
	cases := []struct {
		sql    string
		params []columnar.Value
		filter string
		err    string
	}{
		{"SELECT a FROM t WHERE d = ?", []columnar.Value{columnar.StringValue("2024-01-02")}, "(t.d = DATE '2024-01-02')", ""},
		{"SELECT a FROM t WHERE small = ? AND s = ?", []columnar.Value{columnar.IntValue(columnar.TInt64, 3), columnar.StringValue("x")}, "((t.small = 3) AND (t.s = 'x'))", ""},
		{"SELECT a FROM t WHERE price > ?", []columnar.Value{columnar.FloatValue(columnar.TFloat64, 1.5)}, "(t.price > 1.50)", ""},
		{"SELECT a FROM t WHERE a IN (?, ?)", []columnar.Value{columnar.IntValue(columnar.TInt64, 1), columnar.NullValue(columnar.TNull)}, "t.a IN (1, NULL)", ""},
		{"SELECT a FROM t WHERE d = ?", []columnar.Value{columnar.StringValue("nope")}, "", "line 1:27: could not cast 'nope' to DATE"},
		{"SELECT a FROM t WHERE a = ? OR b = ?", []columnar.Value{columnar.IntValue(columnar.TInt64, 1)}, "", "line 1:36: no value for parameter 2"},
	}
	for _, tc := range cases {
		t.Run(tc.sql, func(t *testing.T) {
			st, err := Parse(Source{Text: tc.sql})
			if err != nil {
				t.Fatal(err)
			}
			bd, err := bindWithParams(st.(*Query), newCatalog(), tc.params)
			if got := errString(err); got != tc.err {
				t.Fatalf("error %q, want %q", got, tc.err)
			}
			if err != nil {
				return
			}
			f := bd.Root.(*planner.Project).Input.(*planner.Filter)
			if got := f.Cond.String(); got != tc.filter {
				t.Errorf("filter %s, want %s", got, tc.filter)
			}
		})
	}
}

func TestBindParamsPublic(t *testing.T) {
	st, err := Parse(Source{Text: "SELECT a FROM t WHERE d >= ? AND a < ?"})
	if err != nil {
		t.Fatal(err)
	}
	q := st.(*Query)
	if n := NumParams(q); n != 2 {
		t.Fatalf("NumParams %d, want 2", n)
	}
	bd, err := BindParams(q, newCatalog(), []columnar.Value{columnar.StringValue("2024-01-01"), columnar.IntValue(columnar.TInt64, 5)})
	if err != nil {
		t.Fatal(err)
	}
	f := bd.Root.(*planner.Project).Input.(*planner.Filter)
	if got, want := f.Cond.String(), "((t.d >= DATE '2024-01-01') AND (t.a < 5))"; got != want {
		t.Errorf("filter %s, want %s", got, want)
	}
	if _, err := BindParams(q, newCatalog(), nil); err == nil {
		t.Error("no error for missing parameters")
	}
}

// TestParamNumbering checks DuckDB's numbering of markers: $n takes value
// n, ? one more than the highest number before it, $name one value per
// distinct name (case-insensitive) in order of first appearance; the
// position is the first marker's.
func TestParamNumbering(t *testing.T) {
	cases := []struct {
		sql  string
		want string // name@col, …
	}{
		{"SELECT ?, ?", "1@8 2@11"},
		{"SELECT $2, $1, $2", "1@12 2@8"},
		{"SELECT ?2, ?", "1@0 2@8 3@12"},
		{"SELECT ?, $1", "1@8"},
		{"SELECT $b, $a, $B", "b@8 a@12"},
		{"SELECT (SELECT $1 FROM t WHERE a = ?) FROM t WHERE b IN (SELECT $3)", "1@16 2@36 3@65"},
		{"FROM t SELECT ? WHERE a = ?", "1@15 2@27"},
		{"SELECT '?', 1", ""},
	}
	for _, tc := range cases {
		t.Run(tc.sql, func(t *testing.T) {
			st, err := Parse(Source{Text: tc.sql, Line: 1, Col: 1})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range Params(st) {
				got = append(got, fmt.Sprintf("%s@%d", p.Name, p.Pos.Col))
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("got %q, want %q", s, tc.want)
			}
		})
	}
}
