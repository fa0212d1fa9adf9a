package b2sql_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
)

// INSERT, UPDATE and DELETE in a WITH over CTables of a directory (.b2d
// and .b2z): what one statement wrote is in the files, checked by
// reopening the directory in a fresh DB (fileSum); a statement that fails
// after its writes ran, or a transaction rolled back, leaves the files as
// they were.
func TestWithWritesFiles(t *testing.T) {
	dir := t.TempDir()
	db, err := b2sql.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.Exec(ctx, `CREATE TABLE t (i INTEGER); CREATE TABLE z (i INTEGER) WITH (FORMAT b2z)`); err != nil {
		t.Fatal(err)
	}
	sdb := sql.OpenDB(b2sql.NewConnector(db))
	defer sdb.Close()
	a, _ := conns(t, sdb)
	want := func(what, name string, sum, n int64) {
		t.Helper()
		if s, c, _ := fileSum(t, dir, name); s != sum || c != n {
			t.Errorf("%s: %s sum %d count %d on disk, want %d, %d", what, name, s, c, sum, n)
		}
	}

	// t gets 1, 2, 3 and loses 2; z gets 10, 20, 30; the statement sees t
	// after both.
	var zsum, deleted, tsum int64
	err = a.QueryRowContext(ctx, `WITH ins AS (INSERT INTO t VALUES (1), (2), (3) RETURNING i),
		cp AS (INSERT INTO z SELECT i * 10 FROM ins RETURNING i),
		del AS (DELETE FROM t WHERE i = 2 RETURNING i)
		SELECT (SELECT sum(i) FROM cp), (SELECT count(*) FROM del), (SELECT sum(i) FROM t)`).Scan(&zsum, &deleted, &tsum)
	if err != nil || zsum != 60 || deleted != 1 || tsum != 4 {
		t.Errorf("three writes: %d, %d, %d, %v; want 60, 1, 4", zsum, deleted, tsum, err)
	}
	want("after three writes", "t", 4, 2)
	want("after three writes", "z", 60, 3)
	noStaged(t, dir)

	// The UPDATE and the DELETE ran, then the statement's own rows fail:
	// neither file changes.
	_, err = a.ExecContext(ctx, `WITH u AS (UPDATE t SET i = i + 100 RETURNING i), d AS (DELETE FROM z RETURNING i)
		SELECT CAST('x' || i AS INTEGER) FROM d`)
	if err == nil {
		t.Error("a statement whose rows cannot be cast succeeded")
	}
	want("after a failed statement", "t", 4, 2)
	want("after a failed statement", "z", 60, 3)
	noStaged(t, dir)

	// The statement after the WITH writes too: one row moves from z to t.
	res, err := a.ExecContext(ctx, "WITH d AS (DELETE FROM z WHERE i = 20 RETURNING i) INSERT INTO t SELECT i FROM d")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		t.Errorf("WITH … INSERT: %d rows affected, %v; want 1", n, err)
	}
	want("after WITH … INSERT", "t", 24, 3)
	want("after WITH … INSERT", "z", 40, 2)

	// Inside a transaction the writes reach the files at COMMIT only.
	txExec(t, a, "BEGIN")
	txExec(t, a, "WITH x AS (INSERT INTO t VALUES (100)), y AS (DELETE FROM z WHERE i = 10) SELECT 1")
	want("before COMMIT", "t", 24, 3)
	want("before COMMIT", "z", 40, 2)
	txExec(t, a, "COMMIT")
	want("after COMMIT", "t", 124, 4)
	want("after COMMIT", "z", 30, 1)
	txExec(t, a, "BEGIN")
	txExec(t, a, "WITH x AS (DELETE FROM t), y AS (INSERT INTO z VALUES (5)) SELECT 1")
	txExec(t, a, "ROLLBACK")
	want("after ROLLBACK", "t", 124, 4)
	want("after ROLLBACK", "z", 30, 1)
	noStaged(t, dir)

	// DB.Explain plans the writes without running them.
	text, err := db.Explain("WITH d AS (DELETE FROM t RETURNING i) INSERT INTO z SELECT i FROM d")
	if err != nil || !strings.Contains(text, "With d: Delete from t") || !strings.Contains(text, "Insert into z") {
		t.Errorf("DB.Explain: %q, %v", text, err)
	}
	want("after DB.Explain", "t", 124, 4)

	// Many rows: the statement's rows, kept in memory before the commit,
	// come back in the order its ORDER BY gives.
	rows, err := a.QueryContext(ctx, "WITH ins AS (INSERT INTO z SELECT range FROM range(1000, 3000) RETURNING i) SELECT i FROM ins ORDER BY i DESC LIMIT 3")
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for rows.Next() {
		var i int64
		if err := rows.Scan(&i); err != nil {
			t.Fatal(err)
		}
		got = append(got, i)
	}
	if err := rows.Err(); err != nil || len(got) != 3 || got[0] != 2999 || got[1] != 2998 || got[2] != 2997 {
		t.Errorf("ORDER BY over the inserted rows: %v, %v; want [2999 2998 2997]", got, err)
	}
	rows.Close()
	// 1000 + … + 2999 = 2000 * 3999 / 2 = 3999000, plus the 30 there.
	want("after 2000 rows", "z", 3999030, 2001)
}
