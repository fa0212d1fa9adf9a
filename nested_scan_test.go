package b2sql_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	b2sql "github.com/b2sql/b2sql"
)

// TestNestedScan: nested cells scan into []any, map[string]any,
// json.RawMessage, string and any (values by hand, from the DuckDB-written
// tests/testdata/files/nested.parquet: row 2 has s {'a': 2, 'b': n2, 'c':
// [2, 3]} and t [x, y0]).
func TestNestedScan(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(context.Background(), "SELECT t, s, t, s, s, t, m FROM 'tests/testdata/files/nested.parquet' WHERE id = 2")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	var (
		list      []any
		obj, null map[string]any
		js, j2    json.RawMessage
		text      string
		anyVal    any
	)
	if err := rows.Scan(&null, &obj, &js, &j2, &text, &anyVal, &anyVal); err == nil {
		t.Fatal("Scan of a LIST into *map[string]any: no error")
	}
	if err := rows.Scan(&list, &obj, &js, &j2, &text, &anyVal, &anyVal); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%v|%v|%s|%s|%s|%v", list, obj, js, j2, text, anyVal)
	if want := `[x y0]|map[a:2 b:n2 c:[2 3]]|["x","y0"]|{"a":2,"b":"n2","c":[2,3]}|{'a': 2, 'b': n2, 'c': [2, 3]}|<nil>`; got != want {
		t.Errorf("Scan:\n%s\nwant\n%s", got, want)
	}
}
