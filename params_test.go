package b2sql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/b2sql/b2sql"
)

func TestParams(t *testing.T) {
	const n = 1000
	db := openFixture(t, n)
	type userID int32 // named types bind by their kind
	tests := []struct {
		name string
		q    string
		args []any
		want []int64
	}{
		// count of i in [lo, hi) = hi - lo; sum = (lo + hi - 1)(hi - lo)/2
		{"ints", "SELECT count(*), sum(i) FROM t WHERE i >= ? AND i < ?", []any{100, int64(200)}, []int64{100, 14950}},
		{"int32 column", "SELECT count(*) FROM t WHERE g = ?", []any{int8(3)}, []int64{143}}, // 1000 = 7·142 + 6: g = 0..5 have 143 rows
		{"uint", "SELECT count(*) FROM t WHERE i < ?", []any{uint64(10)}, []int64{10}},
		{"named type", "SELECT count(*) FROM t WHERE g = ?", []any{userID(6)}, []int64{142}},
		{"float", "SELECT count(*) FROM t WHERE f < ?", []any{2.5}, []int64{5}},                   // i/2 < 2.5: i = 0..4
		{"string", "SELECT count(*) FROM t WHERE s = ?", []any{"s7"}, []int64{100}},               // i % 10 = 7
		{"date as string", "SELECT count(*) FROM t WHERE d = ?", []any{"1970-01-03"}, []int64{3}}, // i % 365 = 2: i = 2, 367, 732
		{"time.Time", "SELECT count(*) FROM t WHERE ts < ?", []any{time.Date(2024, 1, 1, 0, 1, 0, 0, time.UTC)}, []int64{60}},
		{"bool", "SELECT count(*) FROM t WHERE b = ?", []any{true}, []int64{500}},
		{"nil", "SELECT count(*) FROM t WHERE n IS NULL OR i = ?", []any{nil}, []int64{200}}, // i % 5 = 0
		{"pointer", "SELECT count(*) FROM t WHERE i < ?", []any{ptr(int64(7))}, []int64{7}},
		{"sql.Null", "SELECT count(*) FROM t WHERE i < ?", []any{sql.NullInt64{Int64: 9, Valid: true}}, []int64{9}},
		{"decimal column", "SELECT count(*) FROM t WHERE dec <= ?", []any{0.05}, []int64{6}}, // i cents ≤ 5
		{"select list", "SELECT ? + i FROM t WHERE i = 4", []any{38}, []int64{42}},
		{"negated", "SELECT -? FROM t WHERE i = 0", []any{5}, []int64{-5}},
		{"in list", "SELECT count(*) FROM t WHERE i IN (?, ?, ?)", []any{1, 2, 5000}, []int64{2}},
		// $n takes the n-th value and may repeat; $name takes sql.Named's.
		// i in [lo, lo+10): count 10, sum = 10·lo + 45
		{"repeated $1", "SELECT count(*), sum(i) FROM t WHERE i >= $1 AND i < $1 + 10", []any{100}, []int64{10, 1045}},
		{"$2 before $1", "SELECT count(*) FROM t WHERE i >= $2 AND i < $1", []any{30, 10}, []int64{20}},
		{"? after $1", "SELECT $1 + ? FROM t WHERE i = 0", []any{40, 2}, []int64{42}},
		{"named", "SELECT count(*), sum(i) FROM t WHERE i >= $lo AND i < $lo + $len", []any{sql.Named("len", 10), sql.Named("lo", 100)}, []int64{10, 1045}},
		{"named case", "SELECT $Lo + $lo FROM t WHERE i = 0", []any{sql.Named("LO", 21)}, []int64{42}},
		{"number by name", "SELECT $1 FROM t WHERE i = 0", []any{sql.Named("1", 7)}, []int64{7}},
		{"named in subquery", "SELECT (SELECT count(*) FROM t WHERE i < $k) + $k FROM t WHERE i = 0", []any{sql.Named("k", 5)}, []int64{10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := expectIntsArgs(db, tc.q, tc.args, tc.want...); err != nil {
				t.Error(err)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestParamsAreNotSQL: a string argument is a value whatever it holds.
func TestParamsAreNotSQL(t *testing.T) {
	db := openFixture(t, 100)
	for _, evil := range []string{"s1' OR '1'='1", "s1'; SELECT 1; --", `s1" OR 1=1 --`} {
		if got := queryInts(t, db, "SELECT count(*) FROM t WHERE s = ?", evil); len(got) != 1 || got[0] != 0 {
			t.Errorf("%q matched %v rows", evil, got)
		}
	}
	rows, err := db.Query(context.Background(), "SELECT ? AS v", "it's ? not a marker")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var s string
	if !rows.Next() || rows.Scan(&s) != nil || s != "it's ? not a marker" {
		t.Errorf("SELECT ? = %q, %v", s, rows.Err())
	}
	// A ? inside a string literal is text, not a marker.
	if got := queryInts(t, db, "SELECT count(*) FROM t WHERE s <> '?' AND i < ?", 3); len(got) != 1 || got[0] != 3 {
		t.Errorf("'?' literal: %v", got)
	}
}

func TestParamErrors(t *testing.T) {
	db := openFixture(t, 10)
	ctx := context.Background()
	tests := []struct {
		q         string
		args      []any
		line, col int
	}{
		{"SELECT i FROM t WHERE i = ? AND g = ?", []any{1}, 1, 37}, // the marker without a value
		{"SELECT i FROM t WHERE i = ?", []any{1, 2}, 1, 27},        // too many: the last marker
		{"SELECT i\nFROM t\nWHERE i = ?", nil, 3, 11},              // none given
		{"SELECT i FROM t", []any{1}, 1, 1},                        // no markers at all
		{"SHOW TABLES", []any{1}, 1, 1},                            // statement without parameters
		{"SELECT $1, $a", []any{1}, 1, 12},                         // numbered and named markers
		{"SELECT i FROM t WHERE i = $a", []any{sql.Named("b", 1)}, 1, 27},
		{"SELECT $a", []any{sql.Named("a", 1), sql.Named("b", 2)}, 0, 0}, // b names no marker
		{"SELECT i FROM t WHERE i = $a", []any{1}, 1, 27},                // $a takes its value by name
		{"SELECT $a", []any{sql.Named("a", 1), 2}, 0, 0},                 // named and positional values
		{"SELECT $2", []any{1, 2}, 1, 1},                                 // no $1 takes the first value
		{"SELECT $1, $2, $1", []any{1}, 1, 12},
	}
	for _, tc := range tests {
		_, err := db.Query(ctx, tc.q, tc.args...)
		var e *b2sql.Error
		if !errors.Is(err, b2sql.ErrParam) || !errors.As(err, &e) {
			t.Errorf("%q %v: err = %v, want ErrParam", tc.q, tc.args, err)
			continue
		}
		if e.Pos.Line != tc.line || e.Pos.Col != tc.col {
			t.Errorf("%q %v: at %d:%d, want %d:%d (%v)", tc.q, tc.args, e.Pos.Line, e.Pos.Col, tc.line, tc.col, err)
		}
	}
	if _, err := db.Query(ctx, "SELECT i FROM t WHERE i = ?", struct{}{}); !errors.Is(err, b2sql.ErrParam) {
		t.Errorf("struct argument: %v, want ErrParam", err)
	}
	if _, err := db.Query(ctx, "SELECT i FROM t WHERE d = ?", "not a date"); !errors.Is(err, b2sql.ErrType) {
		t.Errorf("bad date string: %v, want ErrType", err)
	}
}

// TestPreparedConcurrent executes one Stmt from many goroutines with
// different arguments (run under -race).
func TestPreparedConcurrent(t *testing.T) {
	const n = 5000
	db := openFixture(t, n, b2sql.WithThreads(2))
	st, err := db.Prepare("SELECT count(*), sum(i) FROM t WHERE i >= ? AND i < ?")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.NumInput() != 2 {
		t.Fatalf("NumInput = %d", st.NumInput())
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 5 {
				lo := int64(w*100 + k)
				hi := lo + int64(w+1)*10
				rows, err := st.Query(context.Background(), lo, hi)
				if err != nil {
					errs <- err
					return
				}
				var c, s int64
				if !rows.Next() || rows.Scan(&c, &s) != nil {
					errs <- fmt.Errorf("no row: %v", rows.Err())
				} else if c != hi-lo || s != (lo+hi-1)*(hi-lo)/2 {
					errs <- fmt.Errorf("[%d, %d): count %d sum %d", lo, hi, c, s)
				}
				rows.Close()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st.Close()
	if _, err := st.Query(context.Background(), 1, 2); !errors.Is(err, b2sql.ErrClosed) {
		t.Errorf("Query on a closed Stmt: %v", err)
	}
}

func TestExecArgs(t *testing.T) {
	db := openFixture(t, 10)
	ctx := context.Background()
	// Each statement takes as many arguments as it has markers.
	if err := db.Exec(ctx, "SELECT i FROM t WHERE i = ?; SET threads = 1; SELECT i FROM t WHERE i BETWEEN ? AND ?", 1, 2, 3); err != nil {
		t.Errorf("Exec: %v", err)
	}
	if err := db.Exec(ctx, "SELECT i FROM t WHERE i = ?", 1, 2); !errors.Is(err, b2sql.ErrParam) {
		t.Errorf("Exec with an extra argument: %v", err)
	}
	if err := db.Exec(ctx, "SELECT 1; SELECT i FROM t WHERE i = ?"); !errors.Is(err, b2sql.ErrParam) {
		t.Errorf("Exec with a missing argument: %v", err)
	}
	if _, err := db.Explain("SELECT i FROM t WHERE i = ?", 3); err != nil {
		t.Errorf("Explain with an argument: %v", err)
	}
}

// TestParamsNamedPrepared: a prepared statement and a script take their
// $name markers' values from sql.Named arguments.
func TestParamsNamedPrepared(t *testing.T) {
	db := openFixture(t, 100)
	st, err := db.Prepare("SELECT count(*) FROM t WHERE i < $a AND i >= $b")
	if err != nil {
		t.Fatal(err)
	}
	if st.NumInput() != 2 {
		t.Errorf("NumInput = %d, want 2", st.NumInput())
	}
	rows, err := st.Query(context.Background(), sql.Named("b", 3), sql.Named("a", 8))
	if err != nil {
		t.Fatal(err)
	}
	var c int64
	if !rows.Next() || rows.Scan(&c) != nil || c != 5 {
		t.Errorf("prepared $a, $b: %d, %v", c, rows.Err())
	}
	rows.Close()
	if err := db.Exec(context.Background(), "SELECT $a; SELECT $a + $b", sql.Named("a", 1), sql.Named("b", 2)); err != nil {
		t.Errorf("Exec of a script with named values: %v", err)
	}
}

func TestDriverParams(t *testing.T) {
	dir := t.TempDir()
	writeFixture(t, dir, "t", 1000, 1000, -1)
	db, err := sql.Open("b2sql", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	var c int64
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM t WHERE s = ? AND i < ?", "s3", 500).Scan(&c); err != nil || c != 50 {
		t.Errorf("count = %d, %v; want 50", c, err)
	}
	st, err := db.PrepareContext(ctx, "SELECT count(*) FROM t WHERE ts >= ?")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, secs := range []int{0, 10, 999} {
		since := time.Date(2024, 1, 1, 0, 0, secs, 0, time.UTC)
		if err := st.QueryRowContext(ctx, since).Scan(&c); err != nil || c != int64(1000-secs) {
			t.Errorf("ts >= +%ds: %d, %v; want %d", secs, c, err, 1000-secs)
		}
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM t WHERE i = ?", sql.Named("x", 1)).Scan(&c); !errors.Is(err, b2sql.ErrParam) {
		t.Errorf("named argument for ?: %v, want ErrParam", err)
	}
	// s = 's3': i % 10 = 3, of which i < 500: 50 rows
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM t WHERE s = $s AND i < $n", sql.Named("n", 500), sql.Named("s", "s3")).Scan(&c); err != nil || c != 50 {
		t.Errorf("$s, $n: count = %d, %v; want 50", c, err)
	}
	st1, err := db.PrepareContext(ctx, "SELECT count(*) FROM t WHERE i < $1 AND i >= $1 - 5")
	if err != nil {
		t.Fatal(err)
	}
	defer st1.Close()
	if err := st1.QueryRowContext(ctx, 100).Scan(&c); err != nil || c != 5 {
		t.Errorf("repeated $1: %d, %v; want 5", c, err)
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM t WHERE i < ?", uint64(1<<63)).Scan(&c); err != nil || c != 1000 {
		t.Errorf("uint64 above int64: %d, %v", c, err)
	}
}

func TestParamLimit(t *testing.T) {
	db := openFixture(t, 100)
	// Rows 10..14 in order: LIMIT 5 OFFSET 10.
	if err := expectIntsArgs(db, "SELECT i FROM t ORDER BY i LIMIT ? OFFSET ?", []any{5, 10}, 10, 11, 12, 13, 14); err != nil {
		t.Error(err)
	}
	if err := expectIntsArgs(db, "SELECT i FROM t WHERE i > ? ORDER BY i DESC LIMIT ?", []any{0, 2}, 99, 98); err != nil {
		t.Error(err)
	}
	_, err := db.Query(context.Background(), "SELECT i FROM t LIMIT ?", -1)
	var e *b2sql.Error
	if !errors.Is(err, b2sql.ErrParam) || !errors.As(err, &e) || e.Pos != (b2sql.Pos{Line: 1, Col: 23}) {
		t.Errorf("LIMIT -1: %v, want ErrParam at 1:23", err)
	}
	// The value is cast to BIGINT as DuckDB 1.5.6 casts it
	// (tests/sql/order/limit_parameter.test): a numeric string is read,
	// a fraction rounds, NULL is no limit.
	for _, c := range []struct {
		v any
		n int
	}{{"5", 5}, {2.5, 3}, {nil, 100}} {
		want := make([]int64, c.n)
		for i := range want {
			want[i] = int64(i)
		}
		if err := expectIntsArgs(db, "SELECT i FROM t ORDER BY i LIMIT ?", []any{c.v}, want...); err != nil {
			t.Errorf("LIMIT %#v: %v", c.v, err)
		}
	}
}
