package b2sql_test

import (
	"database/sql"
	"testing"

	_ "github.com/b2sql/b2sql"
)

// TestDMLDriver: INSERT, UPDATE and DELETE through database/sql, plain
// and prepared with ? parameters, report the rows they changed.
func TestDMLDriver(t *testing.T) {
	db, err := sql.Open("b2sql", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	affected := func(res sql.Result, err error) int64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, err := db.Exec("CREATE TABLE t (a INTEGER, b VARCHAR)"); err != nil {
		t.Fatal(err)
	}
	if n := affected(db.Exec("INSERT INTO t VALUES (?, ?), (?, ?)", 1, "x", 2, "y")); n != 2 {
		t.Errorf("INSERT: %d rows", n)
	}
	st, err := db.Prepare("INSERT INTO t (a) VALUES (?)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := 3; i <= 5; i++ {
		if n := affected(st.Exec(i)); n != 1 {
			t.Errorf("prepared INSERT: %d rows", n)
		}
	}
	// a = 3, 4, 5 have b NULL.
	if n := affected(db.Exec("UPDATE t SET b = 'z' WHERE b IS NULL AND a > ?", 3)); n != 2 {
		t.Errorf("UPDATE: %d rows", n)
	}
	if n := affected(db.Exec("DELETE FROM t WHERE a <= ?", 2)); n != 2 {
		t.Errorf("DELETE: %d rows", n)
	}
	var sum, zs int64
	if err := db.QueryRow("SELECT sum(a), sum(CASE WHEN b = 'z' THEN 1 ELSE 0 END) FROM t").Scan(&sum, &zs); err != nil {
		t.Fatal(err)
	}
	if sum != 12 || zs != 2 {
		t.Errorf("sum(a) = %d, z rows = %d; want 12, 2", sum, zs)
	}
}
