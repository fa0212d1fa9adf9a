package b2sql_test

import (
	"context"
	dsql "database/sql"
	"strings"
	"testing"

	b2sql "github.com/b2sql/b2sql"
)

// TestNestedParams: slices and maps as parameters are LIST, STRUCT and
// MAP values, through Query and database/sql. Answers from DuckDB 1.5.6
// running the same statements with the literals the arguments stand for
// ([1, NULL, 3], {'a': 1, 'b': 'x'}, MAP {1: 'x', 2: 'y'}, …).
func TestNestedParams(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const f = "'tests/testdata/files/nested.parquet'"
	for _, tc := range []struct {
		q    string
		args []any
		want string
	}{
		{"SELECT CAST(? AS VARCHAR)", []any{[]any{1, nil, 3}}, "[1, NULL, 3]"},
		{"SELECT CAST(? AS VARCHAR)", []any{[]any{1, 2.5}}, "[1.0, 2.5]"},
		{"SELECT CAST(? AS VARCHAR)", []any{[]any{[]int{1}, nil, []any{}}}, "[[1], NULL, []]"},
		{"SELECT CAST(? AS VARCHAR)", []any{map[string]any{"b": "x", "a": 1}}, "{'a': 1, 'b': x}"},
		{"SELECT CAST(? AS VARCHAR)", []any{map[int]string{2: "y", 1: "x"}}, "{1=x, 2=y}"},
		{"SELECT list_contains(?, 2), len(?)", []any{[]int{1, 2, 3}, []string{"a", "b"}}, "true 2"},
		{"SELECT id FROM " + f + " WHERE l = ?", []any{[]int64{5, 50}}, "5"},
		{"SELECT id FROM " + f + " WHERE t = ? ORDER BY id", []any{[]string{"x", "y0"}}, "2 4 6"},
		{"SELECT id FROM " + f + " WHERE s = ?", []any{map[string]any{"a": 1, "b": "n1", "c": []int{1, 2}}}, "1"},
	} {
		t.Run(tc.q, func(t *testing.T) {
			rows, err := db.Query(context.Background(), tc.q, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var got []string
			for rows.Next() {
				for _, v := range rows.Values() {
					got = append(got, v.String())
				}
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("got %q, want %q", g, tc.want)
			}
		})
	}
	// Elements that agree on no type are refused, naming the argument.
	if _, err := db.Query(context.Background(), "SELECT ?", []any{"a", 1}); err == nil || !strings.Contains(err.Error(), "argument 1: elements of types VARCHAR and BIGINT") {
		t.Errorf("mixed list: %v", err)
	}
}

// TestNestedParamsDatabaseSQL: the same through database/sql, whose
// argument check (CheckNamedValue) lets slices and maps through.
func TestNestedParamsDatabaseSQL(t *testing.T) {
	db, err := dsql.Open("b2sql", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var s string
	if err := db.QueryRow("SELECT CAST(? AS VARCHAR)", []any{map[string]any{"k": []int{1, 2}}}).Scan(&s); err != nil {
		t.Fatal(err)
	}
	if want := "[{'k': [1, 2]}]"; s != want { // DuckDB: CAST([{'k': [1, 2]}] AS VARCHAR)
		t.Errorf("got %q, want %q", s, want)
	}
	var got []any
	if err := db.QueryRow("SELECT ?", []int{7, 8}).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != int64(7) || got[1] != int64(8) {
		t.Errorf("Scan of a list parameter: %#v", got)
	}
}
