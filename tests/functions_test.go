package tests

import (
	"context"
	"testing"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/function"
)

// TestFunctionExamples runs every example of the function registry (the
// calls duckdb_functions() shows and the REPL completes with), so that an
// entry cannot drift from what binds and runs.
func TestFunctionExamples(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// nextval's and currval's examples name a sequence that has a value;
	// query_table's, two tables.
	if err := db.Exec(context.Background(), "CREATE SEQUENCE seq; SELECT nextval('seq'); CREATE TABLE t1 AS SELECT 1 AS a; CREATE TABLE t2 AS SELECT 2 AS b"); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range function.All() {
		if s.Internal {
			continue
		}
		if len(s.Examples) == 0 && s.Kind != function.Table { // read_parquet(path) needs a file
			t.Errorf("%s: no example", s.Name)
		}
		for _, ex := range s.Examples {
			n++
			q := "SELECT " + ex
			if s.Kind == function.Table {
				q = "SELECT * FROM " + ex
			}
			rows, err := db.Query(context.Background(), q)
			if err != nil {
				t.Errorf("%s: %v", ex, err)
				continue
			}
			for rows.Next() {
			}
			if err := rows.Err(); err != nil {
				t.Errorf("%s: %v", ex, err)
			}
			rows.Close()
		}
	}
	if n == 0 {
		t.Error("the registry holds no examples")
	}
}
