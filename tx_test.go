package b2sql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
)

// txDB opens an in-memory database with table t (i INTEGER) holding 1 and
// 2, and a database/sql handle over it.
func txDB(t *testing.T) (*b2sql.DB, *sql.DB) {
	t.Helper()
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Exec(context.Background(), "CREATE TABLE t (i INTEGER); INSERT INTO t VALUES (1), (2)"); err != nil {
		t.Fatal(err)
	}
	sdb := sql.OpenDB(b2sql.NewConnector(db))
	t.Cleanup(func() { sdb.Close() })
	return db, sdb
}

// sumOf returns sum(i) and count(*) of t as q sees it.
func sumOf(t *testing.T, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (sum, n int64) {
	t.Helper()
	var s sql.NullInt64
	if err := q.QueryRowContext(context.Background(), "SELECT sum(i), count(*) FROM t").Scan(&s, &n); err != nil {
		t.Fatal(err)
	}
	return s.Int64, n
}

func conns(t *testing.T, sdb *sql.DB) (*sql.Conn, *sql.Conn) {
	t.Helper()
	a, err := sdb.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, err := sdb.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b
}

func txExec(t *testing.T, c *sql.Conn, q string) {
	t.Helper()
	if _, err := c.ExecContext(context.Background(), q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// A transaction's writes are its own until COMMIT, which publishes them
// together; ROLLBACK drops them.
func TestTxVisibility(t *testing.T) {
	_, sdb := txDB(t)
	a, b := conns(t, sdb)
	txExec(t, a, "BEGIN")
	txExec(t, a, "INSERT INTO t VALUES (10)")
	txExec(t, a, "UPDATE t SET i = i * 100 WHERE i = 1")
	txExec(t, a, "DELETE FROM t WHERE i = 2")
	txExec(t, a, "CREATE TABLE u AS SELECT 7 AS x")
	// a: rows 100, 10; b: still 1, 2, and no table u.
	if s, n := sumOf(t, a); s != 110 || n != 2 {
		t.Errorf("inside: sum %d count %d, want 110, 2", s, n)
	}
	if s, n := sumOf(t, b); s != 3 || n != 2 {
		t.Errorf("other session before COMMIT: sum %d count %d, want 3, 2", s, n)
	}
	if _, err := b.ExecContext(context.Background(), "SELECT * FROM u"); !errors.Is(err, b2sql.ErrUnknownTable) {
		t.Errorf("other session sees table u before COMMIT: %v", err)
	}
	txExec(t, a, "COMMIT")
	if s, n := sumOf(t, b); s != 110 || n != 2 {
		t.Errorf("other session after COMMIT: sum %d count %d, want 110, 2", s, n)
	}
	var x int
	if err := b.QueryRowContext(context.Background(), "SELECT x FROM u").Scan(&x); err != nil || x != 7 {
		t.Errorf("u after COMMIT: %d, %v; want 7", x, err)
	}
	txExec(t, a, "BEGIN")
	txExec(t, a, "DROP TABLE u")
	txExec(t, a, "INSERT INTO t VALUES (1000)")
	txExec(t, a, "ROLLBACK")
	if s, n := sumOf(t, b); s != 110 || n != 2 {
		t.Errorf("after ROLLBACK: sum %d count %d, want 110, 2", s, n)
	}
	if err := b.QueryRowContext(context.Background(), "SELECT x FROM u").Scan(&x); err != nil || x != 7 {
		t.Errorf("u after a rolled back DROP: %d, %v; want 7", x, err)
	}
}

// A transaction reads the tables as they were when it began, whatever
// other sessions commit meanwhile.
func TestTxSnapshot(t *testing.T) {
	_, sdb := txDB(t)
	a, b := conns(t, sdb)
	txExec(t, a, "BEGIN")
	txExec(t, b, "INSERT INTO t VALUES (5)")
	txExec(t, b, "CREATE VIEW v AS SELECT 1 AS one")
	if s, n := sumOf(t, a); s != 3 || n != 2 {
		t.Errorf("snapshot after another session's INSERT: sum %d count %d, want 3, 2", s, n)
	}
	if _, err := a.ExecContext(context.Background(), "SELECT * FROM v"); err == nil {
		t.Errorf("a view created after BEGIN is visible inside the transaction")
	}
	txExec(t, a, "COMMIT") // read only: no conflict
	if s, n := sumOf(t, a); s != 8 || n != 3 {
		t.Errorf("after COMMIT: sum %d count %d, want 8, 3", s, n)
	}
}

// Two sessions changing one table: the second to commit fails with a
// transaction conflict and none of its changes are applied.
func TestTxConflict(t *testing.T) {
	_, sdb := txDB(t)
	a, b := conns(t, sdb)
	txExec(t, a, "BEGIN")
	txExec(t, a, "INSERT INTO t VALUES (100)")
	txExec(t, a, "CREATE TABLE w (k INTEGER)") // a table only a creates
	txExec(t, b, "INSERT INTO t VALUES (20)")  // autocommit
	_, err := a.ExecContext(context.Background(), "COMMIT")
	if !errors.Is(err, b2sql.ErrConflict) || !strings.Contains(err.Error(), "Transaction conflict") {
		t.Fatalf("COMMIT after another session changed t: %v, want a transaction conflict", err)
	}
	if s, n := sumOf(t, b); s != 23 || n != 3 {
		t.Errorf("after the failed COMMIT: sum %d count %d, want 23, 3", s, n)
	}
	if _, err := b.ExecContext(context.Background(), "SELECT * FROM w"); err == nil {
		t.Errorf("table w of the failed transaction exists")
	}
	// The failed COMMIT ended the transaction.
	if _, err := a.ExecContext(context.Background(), "ROLLBACK"); err == nil || !strings.Contains(err.Error(), "no transaction is active") {
		t.Errorf("ROLLBACK after a failed COMMIT: %v", err)
	}
	// Changes of different tables commit side by side.
	txExec(t, a, "BEGIN")
	txExec(t, a, "INSERT INTO t VALUES (1)")
	txExec(t, b, "CREATE TABLE other AS SELECT 1 AS c")
	txExec(t, a, "COMMIT")
	if s, n := sumOf(t, b); s != 24 || n != 4 {
		t.Errorf("after COMMIT beside another table's change: sum %d count %d, want 24, 4", s, n)
	}
}

// database/sql's Tx: Commit and Rollback, ReadOnly refusing writes.
func TestTxDatabaseSQL(t *testing.T) {
	_, sdb := txDB(t)
	ctx := context.Background()
	tx, err := sdb.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO t VALUES (?)", 40); err != nil {
		t.Fatal(err)
	}
	if s, n := sumOf(t, tx); s != 43 || n != 3 {
		t.Errorf("inside the Tx: sum %d count %d, want 43, 3", s, n)
	}
	if s, n := sumOf(t, sdb); s != 3 || n != 2 {
		t.Errorf("outside the Tx: sum %d count %d, want 3, 2", s, n)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if s, n := sumOf(t, sdb); s != 3 || n != 2 {
		t.Errorf("after Rollback: sum %d count %d, want 3, 2", s, n)
	}
	tx, err = sdb.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM t WHERE i = 1"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if s, n := sumOf(t, sdb); s != 2 || n != 1 {
		t.Errorf("after Commit: sum %d count %d, want 2, 1", s, n)
	}
	ro, err := sdb.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if s, n := sumOf(t, ro); s != 2 || n != 1 {
		t.Errorf("read-only Tx: sum %d count %d, want 2, 1", s, n)
	}
	_, err = ro.ExecContext(ctx, "INSERT INTO t VALUES (9)")
	if !errors.Is(err, b2sql.ErrTransaction) || !strings.Contains(err.Error(), "read-only mode") {
		t.Errorf("INSERT in a read-only Tx: %v", err)
	}
	if err := ro.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable}); !errors.Is(err, b2sql.ErrUnsupported) {
		t.Errorf("serializable Tx: %v, want unsupported", err)
	}
}

// A connection closed, or handed to another caller by the pool, with a
// transaction open rolls it back; so does DB.Close for the DB's own.
func TestTxClosedConnRollsBack(t *testing.T) {
	db, sdb := txDB(t)
	sdb.SetMaxIdleConns(0) // Conn.Close closes the driver connection
	ctx := context.Background()
	c, err := sdb.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	txExec(t, c, "BEGIN")
	txExec(t, c, "INSERT INTO t VALUES (50)")
	c.Close()
	if s, n := sumOf(t, sdb); s != 3 || n != 2 {
		t.Errorf("after closing a connection in a transaction: sum %d count %d, want 3, 2", s, n)
	}
	// A statement's BEGIN on the pool does not follow the next statement.
	sdb.SetMaxIdleConns(2)
	if _, err := sdb.ExecContext(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.ExecContext(ctx, "INSERT INTO t VALUES (60)"); err != nil {
		t.Fatal(err)
	}
	if s, n := sumOf(t, sdb); s != 63 || n != 3 {
		t.Errorf("INSERT after a pooled BEGIN: sum %d count %d, want 63, 3", s, n)
	}
	if err := db.Exec(ctx, "BEGIN; INSERT INTO t VALUES (70)"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// The errors of transaction control, and an error that aborts the
// transaction, as DuckDB 1.5.6 gives them.
func TestTxErrors(t *testing.T) {
	db, _ := txDB(t)
	ctx := context.Background()
	exec := func(q string) error { return db.Exec(ctx, q) }
	for _, c := range []struct{ q, want string }{
		{"COMMIT", "cannot commit - no transaction is active"},
		{"ROLLBACK", "cannot rollback - no transaction is active"},
	} {
		if err := exec(c.q); err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, b2sql.ErrTransaction) {
			t.Errorf("%s: %v, want %q", c.q, err, c.want)
		}
	}
	if err := exec("BEGIN"); err != nil {
		t.Fatal(err)
	}
	if err := exec("BEGIN TRANSACTION"); err == nil || err.Error() != "line 1:1: cannot start a transaction within a transaction" {
		t.Errorf("BEGIN in a transaction: %v", err)
	}
	// which aborts the transaction, as in DuckDB
	if err := exec("SELECT 1"); err == nil || !strings.Contains(err.Error(), "Current transaction is aborted") {
		t.Errorf("statement after BEGIN in a transaction: %v", err)
	}
	if err := exec("ROLLBACK; BEGIN"); err != nil {
		t.Fatal(err)
	}
	// A binder error leaves the transaction usable; an error of running
	// (a conversion) aborts it.
	if err := exec("SELECT nosuch FROM t"); !errors.Is(err, b2sql.ErrUnknownColumn) {
		t.Errorf("unknown column: %v", err)
	}
	if err := exec("INSERT INTO t VALUES (3)"); err != nil {
		t.Fatalf("INSERT after a binder error: %v", err)
	}
	if err := exec("INSERT INTO t VALUES ('x')"); err == nil {
		t.Fatal("INSERT of 'x' into an INTEGER column succeeded")
	}
	if err := exec("SELECT 1"); err == nil || !strings.Contains(err.Error(), "Current transaction is aborted (please ROLLBACK)") {
		t.Errorf("statement in an aborted transaction: %v", err)
	}
	// COMMIT of an aborted transaction rolls it back, without an error.
	if err := exec("COMMIT"); err != nil {
		t.Errorf("COMMIT of an aborted transaction: %v", err)
	}
	rows, err := db.Query(ctx, "SELECT count(*) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var n int64
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	if err := rows.Scan(&n); err != nil || n != 2 {
		t.Errorf("count after the aborted transaction: %d, %v; want 2", n, err)
	}
}

// A transaction reads a CTable as of its start, while another session
// changes the file.
func TestTxCTableRead(t *testing.T) {
	dir := t.TempDir()
	db, err := b2sql.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.Exec(ctx, "CREATE TABLE t (i INTEGER); INSERT INTO t VALUES (1), (2)"); err != nil {
		t.Fatal(err)
	}
	sdb := sql.OpenDB(b2sql.NewConnector(db))
	defer sdb.Close()
	a, b := conns(t, sdb)
	txExec(t, a, "BEGIN")
	if s, n := sumOf(t, a); s != 3 || n != 2 {
		t.Fatalf("inside: sum %d count %d, want 3, 2", s, n)
	}
	txExec(t, b, "INSERT INTO t VALUES (10)")
	if s, n := sumOf(t, a); s != 3 || n != 2 {
		t.Errorf("snapshot after another session changed the CTable: sum %d count %d, want 3, 2", s, n)
	}
	// Changing the CTable another session changed since BEGIN is a
	// conflict at once, which aborts the transaction.
	if _, err := a.ExecContext(ctx, "INSERT INTO t VALUES (5)"); !errors.Is(err, b2sql.ErrConflict) {
		t.Errorf("INSERT into a CTable changed since BEGIN: %v, want a conflict", err)
	}
	txExec(t, a, "ROLLBACK")
	if s, n := sumOf(t, a); s != 13 || n != 3 {
		t.Errorf("after ROLLBACK: sum %d count %d, want 13, 3", s, n)
	}
}

// fileSum reopens dir in a fresh DB and returns sum(i) and count(*) of
// table name, as its files on disk hold it, and the DB's table names.
func fileSum(t *testing.T, dir, name string) (sum, n int64, tables []string) {
	t.Helper()
	db, err := b2sql.Open(dir, b2sql.WithReadOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(context.Background(), "SELECT sum(i), count(*) FROM "+name)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	var s sql.NullInt64
	if err := rows.Scan(&s, &n); err != nil {
		t.Fatal(err)
	}
	return s.Int64, n, db.Tables()
}

// noStaged fails when a transaction's staged version is left in dir.
func noStaged(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tx-") {
			t.Errorf("staged version left behind: %s", e.Name())
		}
	}
}

// CTables (.b2d and .b2z) changed in a transaction: their files change at
// COMMIT only, both together, and not at all on ROLLBACK or a conflict;
// checked by reopening the directory in a fresh DB.
func TestTxCTableFiles(t *testing.T) {
	dir := t.TempDir()
	db, err := b2sql.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.Exec(ctx, `CREATE TABLE t (i INTEGER); INSERT INTO t VALUES (1), (2);
		CREATE TABLE z (i INTEGER) WITH (FORMAT b2z); INSERT INTO z VALUES (5)`); err != nil {
		t.Fatal(err)
	}
	sdb := sql.OpenDB(b2sql.NewConnector(db))
	defer sdb.Close()
	a, b := conns(t, sdb)
	txExec(t, a, "BEGIN")
	txExec(t, a, "INSERT INTO t VALUES (3)")
	txExec(t, a, "DELETE FROM t WHERE i = 1")
	txExec(t, a, "UPDATE t SET i = i * 10 WHERE i = 2")
	txExec(t, a, "INSERT INTO z VALUES (6)")
	// Inside: t = {20, 3}, z = {5, 6}.
	if s, n := sumOf(t, a); s != 23 || n != 2 {
		t.Errorf("inside: t sum %d count %d, want 23, 2", s, n)
	}
	var zs int64
	if err := a.QueryRowContext(ctx, "SELECT sum(i) FROM z").Scan(&zs); err != nil || zs != 11 {
		t.Errorf("inside: z sum %d, %v; want 11", zs, err)
	}
	if s, n := sumOf(t, b); s != 3 || n != 2 {
		t.Errorf("other session before COMMIT: sum %d count %d, want 3, 2", s, n)
	}
	if s, n, tables := fileSum(t, dir, "t"); s != 3 || n != 2 || strings.Join(tables, ",") != "t,z" {
		t.Errorf("files before COMMIT: t sum %d count %d, tables %v; want 3, 2, [t z]", s, n, tables)
	}
	if s, _, _ := fileSum(t, dir, "z"); s != 5 {
		t.Errorf("files before COMMIT: z sum %d, want 5", s)
	}
	txExec(t, a, "COMMIT")
	if s, n, _ := fileSum(t, dir, "t"); s != 23 || n != 2 {
		t.Errorf("files after COMMIT: t sum %d count %d, want 23, 2", s, n)
	}
	if s, n, _ := fileSum(t, dir, "z"); s != 11 || n != 2 {
		t.Errorf("files after COMMIT: z sum %d count %d, want 11, 2", s, n)
	}
	if s, n := sumOf(t, b); s != 23 || n != 2 {
		t.Errorf("other session after COMMIT: sum %d count %d, want 23, 2", s, n)
	}
	noStaged(t, dir)

	txExec(t, a, "BEGIN")
	txExec(t, a, "INSERT INTO t VALUES (100)")
	txExec(t, a, "DELETE FROM z")
	txExec(t, a, "ROLLBACK")
	if s, n, _ := fileSum(t, dir, "t"); s != 23 || n != 2 {
		t.Errorf("files after ROLLBACK: t sum %d count %d, want 23, 2", s, n)
	}
	if s, n, _ := fileSum(t, dir, "z"); s != 11 || n != 2 {
		t.Errorf("files after ROLLBACK: z sum %d count %d, want 11, 2", s, n)
	}
	noStaged(t, dir)

	// a stages t, b changes t and commits: a's COMMIT is a conflict and
	// leaves b's file.
	txExec(t, a, "BEGIN")
	txExec(t, a, "INSERT INTO t VALUES (7)")
	txExec(t, a, "INSERT INTO z VALUES (7)")
	txExec(t, b, "INSERT INTO t VALUES (8)")
	if _, err := a.ExecContext(ctx, "COMMIT"); !errors.Is(err, b2sql.ErrConflict) {
		t.Fatalf("COMMIT after another session changed t: %v, want a conflict", err)
	}
	if s, n, _ := fileSum(t, dir, "t"); s != 31 || n != 3 {
		t.Errorf("files after the conflict: t sum %d count %d, want 31, 3", s, n)
	}
	if s, n, _ := fileSum(t, dir, "z"); s != 11 || n != 2 {
		t.Errorf("files after the conflict: z sum %d count %d, want 11, 2 (nothing of the transaction)", s, n)
	}
	noStaged(t, dir)

	// A connection closed with a staged change leaves the files alone.
	txExec(t, a, "BEGIN")
	txExec(t, a, "INSERT INTO t VALUES (1000)")
	a.Raw(func(dc any) error { return dc.(interface{ Close() error }).Close() })
	if s, n, _ := fileSum(t, dir, "t"); s != 31 || n != 3 {
		t.Errorf("files after closing a connection in a transaction: t sum %d count %d, want 31, 3", s, n)
	}
	noStaged(t, dir)
}

// File tables created and dropped in a transaction: their files appear
// and go at COMMIT only.
func TestTxFileTablesCreateDrop(t *testing.T) {
	dir := t.TempDir()
	exec := dirExec(t, dir)
	exec("CREATE TABLE t (i INTEGER); INSERT INTO t VALUES (1), (2)")
	exec("BEGIN")
	exec("CREATE TABLE n (i INTEGER)")
	exec("INSERT INTO n VALUES (4), (5)")
	exec("CREATE TABLE p AS SELECT 9 AS i")
	exec("CREATE TABLE m (i INTEGER) WITH (FORMAT memory)")
	exec("DROP TABLE t")
	if _, _, tables := fileSum(t, dir, "t"); strings.Join(tables, ",") != "t" {
		t.Errorf("tables on disk before COMMIT: %v, want [t]", tables)
	}
	exec("COMMIT")
	if s, n, tables := fileSum(t, dir, "n"); s != 9 || n != 2 || strings.Join(tables, ",") != "n,p" {
		t.Errorf("after COMMIT: n sum %d count %d, tables %v; want 9, 2, [n p]", s, n, tables)
	}
	if s, _, _ := fileSum(t, dir, "p"); s != 9 {
		t.Errorf("after COMMIT: p sum %d, want 9", s)
	}
	if _, err := os.Stat(dir + "/t.b2d"); !os.IsNotExist(err) {
		t.Errorf("t.b2d after its DROP was committed: %v", err)
	}
	noStaged(t, dir)

	exec("BEGIN")
	exec("DROP TABLE n")
	exec("CREATE TABLE q (i INTEGER)")
	exec("DROP TABLE p")
	exec("CREATE TABLE p (i INTEGER)")
	exec("INSERT INTO p VALUES (1)")
	exec("ROLLBACK")
	if s, n, tables := fileSum(t, dir, "n"); s != 9 || n != 2 || strings.Join(tables, ",") != "n,p" {
		t.Errorf("after ROLLBACK: n sum %d count %d, tables %v; want 9, 2, [n p]", s, n, tables)
	}
	noStaged(t, dir)

	// Dropped and made again under the same name, then committed.
	exec("BEGIN")
	exec("DROP TABLE p")
	exec("CREATE TABLE p (i INTEGER)")
	exec("INSERT INTO p VALUES (1)")
	exec("COMMIT")
	if s, n, _ := fileSum(t, dir, "p"); s != 1 || n != 1 {
		t.Errorf("p dropped and made again: sum %d count %d, want 1, 1", s, n)
	}
	noStaged(t, dir)
}

// Sessions committing to one table at once: every COMMIT applies its row
// whole or, on a conflict, not at all, so the count at the end is the
// number of commits that succeeded, and each goroutine retries until its
// rows are in.
func TestTxConcurrentCommits(t *testing.T) {
	for _, where := range []string{"memory", "b2d"} {
		t.Run(where, func(t *testing.T) {
			dir := ""
			if where == "b2d" {
				dir = t.TempDir()
			}
			db, err := b2sql.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ctx := context.Background()
			if err := db.Exec(ctx, "CREATE TABLE t (i INTEGER)"); err != nil {
				t.Fatal(err)
			}
			sdb := sql.OpenDB(b2sql.NewConnector(db))
			defer sdb.Close()
			const workers, each = 4, 10
			errs := make(chan error, workers)
			conflicts := make(chan int, workers)
			for w := 0; w < workers; w++ {
				go func(w int) {
					n := 0
					defer func() { conflicts <- n }()
					for k := 0; k < each; {
						tx, err := sdb.BeginTx(ctx, nil)
						if err != nil {
							errs <- err
							return
						}
						_, err = tx.ExecContext(ctx, "INSERT INTO t VALUES (?)", w*100+k)
						if err == nil {
							err = tx.Commit()
						} else {
							tx.Rollback()
						}
						switch {
						case errors.Is(err, b2sql.ErrConflict):
							n++
							if n > 10000 {
								errs <- fmt.Errorf("worker %d: no progress", w)
								return
							}
						case err != nil:
							errs <- err
							return
						default:
							k++
						}
					}
					errs <- nil
				}(w)
			}
			total := 0
			for w := 0; w < workers; w++ {
				if err := <-errs; err != nil {
					t.Fatal(err)
				}
				total += <-conflicts
			}
			var n, distinct int64
			if err := sdb.QueryRowContext(ctx, "SELECT count(*), count(DISTINCT i) FROM t").Scan(&n, &distinct); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d commits, %d conflicts retried", workers*each, total)
			if n != workers*each || distinct != workers*each {
				t.Errorf("%d rows (%d distinct) after %d commits (%d conflicts retried)", n, distinct, workers*each, total)
			}
		})
	}
}

// indexNames reopens dir in a fresh DB and lists its index names.
func indexNames(t *testing.T, dir string) string {
	t.Helper()
	db, err := b2sql.Open(dir, b2sql.WithReadOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(context.Background(), "SELECT index_name FROM duckdb_indexes() ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

// Index statements on a CTable inside a transaction work on its staged
// version: the index is on disk from COMMIT on, and ROLLBACK of a DROP
// INDEX keeps it.
func TestTxCTableIndex(t *testing.T) {
	dir := t.TempDir()
	exec := dirExec(t, dir)
	exec("CREATE TABLE t (i INTEGER); INSERT INTO t VALUES (1), (2), (3)")
	exec("BEGIN")
	exec("CREATE INDEX ix ON t (i)")
	exec("INSERT INTO t VALUES (4)")
	if got := indexNames(t, dir); got != "" {
		t.Errorf("indexes on disk before COMMIT: %q, want none", got)
	}
	exec("COMMIT")
	if got := indexNames(t, dir); got != "ix" {
		t.Errorf("indexes on disk after COMMIT: %q, want ix", got)
	}
	if s, n, _ := fileSum(t, dir, "t"); s != 10 || n != 4 {
		t.Errorf("t after COMMIT: sum %d count %d, want 10, 4", s, n)
	}
	exec("BEGIN")
	exec("DROP INDEX ix")
	exec("REINDEX t")
	exec("ROLLBACK")
	if got := indexNames(t, dir); got != "ix" {
		t.Errorf("indexes on disk after a rolled back DROP INDEX: %q, want ix", got)
	}
	noStaged(t, dir)
}

// ATTACH inside a transaction: the database and its tables are the
// transaction's until COMMIT; ROLLBACK forgets them.
func TestTxAttach(t *testing.T) {
	dir := t.TempDir()
	src, err := b2sql.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := src.Exec(ctx, "CREATE TABLE x (i INTEGER); INSERT INTO x VALUES (6), (7)"); err != nil {
		t.Fatal(err)
	}
	src.Close()
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sdb := sql.OpenDB(b2sql.NewConnector(db))
	defer sdb.Close()
	a, b := conns(t, sdb)
	sumX := func(c *sql.Conn) (int64, error) {
		var s int64
		err := c.QueryRowContext(ctx, "SELECT sum(i) FROM d.x").Scan(&s)
		return s, err
	}
	txExec(t, a, "BEGIN")
	txExec(t, a, "ATTACH '"+dir+"' AS d")
	if s, err := sumX(a); err != nil || s != 13 {
		t.Errorf("x inside the transaction: %d, %v; want 13", s, err)
	}
	if _, err := sumX(b); !errors.Is(err, b2sql.ErrUnknownTable) {
		t.Errorf("x in another session before COMMIT: %v, want unknown", err)
	}
	txExec(t, a, "ROLLBACK")
	if _, err := sumX(a); !errors.Is(err, b2sql.ErrUnknownTable) {
		t.Errorf("x after ROLLBACK: %v, want unknown", err)
	}
	txExec(t, a, "BEGIN")
	txExec(t, a, "ATTACH '"+dir+"' AS d")
	txExec(t, a, "CREATE TABLE d.y AS SELECT 1 AS i") // into the attached directory
	txExec(t, a, "COMMIT")
	if s, err := sumX(b); err != nil || s != 13 {
		t.Errorf("x after COMMIT: %d, %v; want 13", s, err)
	}
	if s, n, tables := fileSum(t, dir, "y"); s != 1 || n != 1 || strings.Join(tables, ",") != "x,y" {
		t.Errorf("y on disk after COMMIT: sum %d count %d, tables %v; want 1, 1, [x y]", s, n, tables)
	}
	noStaged(t, dir)
}

// dirExec opens a database on dir, closed when the test ends, and returns
// a function that runs a statement on it, failing the test on an error.
func dirExec(t *testing.T, dir string) func(q string) {
	t.Helper()
	db, err := b2sql.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return func(q string) {
		t.Helper()
		if err := db.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
