package b2sql_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/b2sql/b2sql"
)

func TestDriver(t *testing.T) {
	const n = 3000
	dir := t.TempDir()
	writeFixture(t, dir, "t", n, 1000, -1)
	db, err := sql.Open("b2sql", dir+"/?threads=2&readonly=true")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()

	var count, sum int64
	if err := db.QueryRowContext(ctx, "SELECT count(*), sum(i) FROM t").Scan(&count, &sum); err != nil {
		t.Fatal(err)
	}
	if count != n || sum != n*(n-1)/2 {
		t.Errorf("count %d sum %d, want %d %d", count, sum, n, n*(n-1)/2)
	}

	rows, err := db.QueryContext(ctx, "SELECT i, g, f, s, n, d, ts, b, dec FROM t WHERE i = 10")
	if err != nil {
		t.Fatal(err)
	}
	types, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	wantNames := []string{"BIGINT", "INTEGER", "DOUBLE", "VARCHAR", "BIGINT", "DATE", "TIMESTAMP", "BOOLEAN", "DECIMAL"}
	wantScan := []reflect.Type{reflect.TypeFor[int64](), reflect.TypeFor[int32](), reflect.TypeFor[float64](), reflect.TypeFor[string](),
		reflect.TypeFor[int64](), reflect.TypeFor[time.Time](), reflect.TypeFor[time.Time](), reflect.TypeFor[bool](), reflect.TypeFor[float64]()}
	for k, ct := range types {
		if ct.DatabaseTypeName() != wantNames[k] || ct.ScanType() != wantScan[k] {
			t.Errorf("column %s: %s %v, want %s %v", ct.Name(), ct.DatabaseTypeName(), ct.ScanType(), wantNames[k], wantScan[k])
		}
		if nullable, ok := ct.Nullable(); !ok || !nullable {
			t.Errorf("column %s: Nullable() = %v, %v", ct.Name(), nullable, ok)
		}
	}
	if p, s, ok := types[8].DecimalSize(); !ok || p != 10 || s != 2 {
		t.Errorf("dec DecimalSize = %d, %d, %v", p, s, ok)
	}
	// Row 10: n is NULL, d = 1970-01-11, ts = 2024-01-01 00:00:10, b = true, dec = 0.10.
	var (
		i, g   int64
		f, dec float64
		s      string
		nn     sql.NullInt64
		d, ts  time.Time
		b      bool
	)
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	if err := rows.Scan(&i, &g, &f, &s, &nn, &d, &ts, &b, &dec); err != nil {
		t.Fatal(err)
	}
	if i != 10 || g != 3 || f != 5 || s != "s0" || nn.Valid || !b || dec != 0.1 ||
		!d.Equal(time.Date(1970, 1, 11, 0, 0, 0, 0, time.UTC)) || !ts.Equal(time.Date(2024, 1, 1, 0, 0, 10, 0, time.UTC)) {
		t.Errorf("row 10: %d %d %v %q %v %v %v %v %v", i, g, f, s, nn, d, ts, b, dec)
	}
	rows.Close()

	// Prepared statements, reused; the statement takes no parameters yet
	// when none are written.
	st, err := db.PrepareContext(ctx, "SELECT count(*) FROM t WHERE g = 5")
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		var c int64
		// 3000 = 7·428 + 4: g = 0..3 have 429 rows, g = 4..6 have 428.
		if err := st.QueryRowContext(ctx).Scan(&c); err != nil || c != 428 {
			t.Errorf("prepared: %d, %v", c, err)
		}
	}
	st.Close()

	// Exec runs statements without rows.
	if _, err := db.ExecContext(ctx, "SET threads = 1"); err != nil {
		t.Errorf("ExecContext SET: %v", err)
	}
	// Errors keep their type through database/sql.
	_, err = db.QueryContext(ctx, "SELECT nope FROM t")
	var e *b2sql.Error
	if !errors.Is(err, b2sql.ErrUnknownColumn) || !errors.As(err, &e) || e.Pos != (b2sql.Pos{Line: 1, Col: 8}) {
		t.Errorf("unknown column through database/sql: %v", err)
	}
	// Transactions, read-only or not, begin (tx_test.go tests them).
	for _, o := range []*sql.TxOptions{{ReadOnly: true}, nil} {
		tx, err := db.BeginTx(ctx, o)
		if err != nil {
			t.Fatalf("BeginTx(%+v): %v", o, err)
		}
		if err := tx.Rollback(); err != nil {
			t.Errorf("Rollback: %v", err)
		}
	}
}

func TestDriverCancel(t *testing.T) {
	path := bigEvents(t)
	db, err := sql.Open("b2sql", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// 20 ms: far less than grouping 3M mostly unique titles takes on any
	// machine, so the deadline always lands mid-query (or before it starts).
	// (GROUP BY category no longer does: on dictionary codes it can finish
	// in under 20 ms.)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	rows, err := db.QueryContext(ctx, "SELECT title, count(*) FROM events GROUP BY title ORDER BY 2 DESC")
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("query returned after %v", d)
	}
}

func TestParseDSN(t *testing.T) {
	tests := []struct {
		dsn, path string
		nopts     int
		bad       bool
	}{
		{"data/", "data/", 0, false},
		{"", "", 0, false},
		{":memory:", ":memory:", 0, false},
		{"data/?threads=2&readonly=true", "data/", 2, false},
		{"/srv?root=/srv&memory_limit=4GiB", "/srv", 2, false},
		{"data?readonly=false", "data", 0, false},
		{"data?threads=0", "", 0, true},
		{"data?threads=x", "", 0, true},
		{"data?memory_limit=lots", "", 0, true},
		{"data?thread=2", "", 0, true},
	}
	for _, tc := range tests {
		path, opts, err := b2sql.ParseDSN(tc.dsn)
		if (err != nil) != tc.bad || (!tc.bad && (path != tc.path || len(opts) != tc.nopts)) {
			t.Errorf("ParseDSN(%q) = %q, %d options, %v", tc.dsn, path, len(opts), err)
		}
	}
	// memory_limit units reach the DB.
	db, err := b2sql.Open("", mustOpts(t, "?memory_limit=4GiB")...)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.MemoryLimit() != 4<<30 {
		t.Errorf("MemoryLimit = %d, want %d", db.MemoryLimit(), 4<<30)
	}
	if _, err := sql.Open("b2sql", filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("sql.Open of a missing path succeeded")
	}
}

func mustOpts(t *testing.T, dsn string) []b2sql.Option {
	_, opts, err := b2sql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return opts
}

func TestDriverWrites(t *testing.T) {
	dir := t.TempDir()
	writeFixture(t, dir, "t", 300, 1000, -1)
	db, err := sql.Open("b2sql", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	res, err := db.ExecContext(ctx, "CREATE TABLE firsts AS SELECT i FROM t WHERE i < ?", 120)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 120 {
		t.Errorf("RowsAffected = %d, %v; want 120", n, err)
	}
	var sum int64
	if err := db.QueryRowContext(ctx, "SELECT sum(i) FROM firsts").Scan(&sum); err != nil || sum != 7140 { // 0+…+119
		t.Errorf("sum = %d, %v", sum, err)
	}
	ro, err := sql.Open("b2sql", dir+"?readonly=true")
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.ExecContext(ctx, "DROP TABLE firsts"); !errors.Is(err, b2sql.ErrReadOnly) {
		t.Errorf("read-only DROP: %v", err)
	}
}
