package tests

// End-to-end checks of the embedded API that .test files cannot express:
// Open on a directory, Rows lifecycle, statements without rows, context
// cancellation, error kinds, concurrent queries on one DB, use after Close.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/sql"
)

// writeFixture writes a generated Parquet file into dir (spec lines as in
// a .test generate directive) and returns its path.
func writeFixture(t *testing.T, dir, name string, rows int, cols ...string) string {
	t.Helper()
	ds, err := parseDataHeader([]string{"generate", name, fmt.Sprintf("rows=%d", rows), "rowgroup=100"})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.parseGenerateBody(cols); err != nil {
		t.Fatal(err)
	}
	path, err := ds.write(dir)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// queryAll runs q and returns its rows as text, one string per row.
func queryAll(t *testing.T, db *b2sql.DB, q string) ([]string, error) {
	t.Helper()
	rows, err := db.Query(context.Background(), q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var cells []string
		for _, v := range rows.Values() {
			cells = append(cells, cellText(v))
		}
		out = append(out, strings.Join(cells, "\t"))
	}
	return out, rows.Err()
}

func TestOpenDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFixture(t, dir, "alpha", 300, "i BIGINT seq")
	writeFixture(t, dir, "beta", 50, "j INTEGER seq*2")
	// Not Parquet: ignored.
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := b2sql.Open(dir)
	if err != nil {
		t.Fatalf("Open(%q): %v", dir, err)
	}
	defer db.Close()

	got, err := queryAll(t, db, "SHOW TABLES")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if want := []string{"alpha", "beta"}; !slices.Equal(got, want) {
		t.Errorf("SHOW TABLES = %q, want %q", got, want)
	}
	// sum(0..299) = 44850; sum(0, 2, .., 98) = 2450
	got, err = queryAll(t, db, "SELECT count(*), sum(i) FROM alpha")
	if err != nil || !slices.Equal(got, []string{"300\t44850"}) {
		t.Errorf("alpha: %q, %v", got, err)
	}
	got, err = queryAll(t, db, "SELECT count(*), sum(j) FROM beta")
	if err != nil || !slices.Equal(got, []string{"50\t2450"}) {
		t.Errorf("beta: %q, %v", got, err)
	}
}

func TestOpenMissingDirectory(t *testing.T) {
	db, err := b2sql.Open(filepath.Join(t.TempDir(), "does-not-exist"))
	if err == nil {
		db.Close()
		t.Fatal("Open of a missing directory succeeded")
	}
}

func TestRegisterTableErrors(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.RegisterTable("x", filepath.Join(t.TempDir(), "missing.parquet")); err == nil {
		t.Error("RegisterTable of a missing file succeeded")
	}
	bad := filepath.Join(t.TempDir(), "bad.parquet")
	if err := os.WriteFile(bad, []byte("this is not parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := db.RegisterTable("y", bad); err == nil {
		if _, qerr := queryAll(t, db, "SELECT * FROM y"); qerr == nil {
			t.Error("a corrupt file registered and scanned without error")
		}
	}
}

func TestRowsLifecycle(t *testing.T) {
	dir := t.TempDir()
	path := writeFixture(t, dir, "t", 1000, "i BIGINT seq")
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.RegisterTable("t", path); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	rows, err := db.Query(ctx, "SELECT i, i * 2 AS twice FROM t ORDER BY i")
	if err != nil {
		t.Fatal(err)
	}
	// Columns are known before the first Next.
	cols := rows.Columns()
	if len(cols) != 2 || cols[0].Name != "i" || cols[1].Name != "twice" || cols[0].Type.String() != "BIGINT" {
		t.Errorf("Columns() = %+v", cols)
	}
	// Closing early is fine, twice too; Next after Close is false.
	if !rows.Next() {
		t.Fatalf("no first row: %v", rows.Err())
	}
	if v := rows.Values(); len(v) != 2 || v[0].I != 0 {
		t.Errorf("first row %v", v)
	}
	if err := rows.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := rows.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if rows.Next() {
		t.Error("Next after Close returned true")
	}

	// Reading to the end, then Err and Close.
	rows, err = db.Query(ctx, "SELECT i FROM t WHERE i >= 990 ORDER BY i")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		if got := rows.Values()[0].I; got != int64(990+n) {
			t.Errorf("row %d: %d", n, got)
		}
		n++
	}
	if rows.Next() {
		t.Error("Next after the end returned true")
	}
	if err := rows.Err(); err != nil {
		t.Errorf("Err: %v", err)
	}
	if n != 10 {
		t.Errorf("got %d rows, want 10", n)
	}
	rows.Close()

	// Statements without rows return empty Rows.
	rows, err = db.Query(ctx, "SET threads = 1")
	if err != nil {
		t.Fatal(err)
	}
	if rows.Next() {
		t.Error("SET returned a row")
	}
	if err := rows.Err(); err != nil {
		t.Errorf("SET: Err = %v", err)
	}
	rows.Close()
}

func TestQueryErrors(t *testing.T) {
	dir := t.TempDir()
	path := writeFixture(t, dir, "t", 10, "price DOUBLE seq")
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.RegisterTable("t", path); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q    string
		kind error
		want string
	}{
		{"SELECT pricee FROM t", sql.ErrUnknownColumn, `line 1:8: unknown column "pricee" (did you mean "price"?)`},
		{"SELECT * FROM nosuch", sql.ErrUnknownTable, `line 1:15: unknown table "nosuch"`},
		{"SELECT foo(price) FROM t", sql.ErrUnknownFunction, `line 1:8: unknown function "foo"`},
		{"SELECT * FROM t WHERE", sql.ErrSyntax, "syntax error"},
		{"SELECT price, count(*) FROM t", sql.ErrGrouping, `column "price" must appear in the GROUP BY clause`},
	}
	for _, tc := range tests {
		_, err := queryAll(t, db, tc.q)
		if err == nil {
			t.Errorf("%s: no error", tc.q)
			continue
		}
		if !errors.Is(err, tc.kind) {
			t.Errorf("%s: error %q is not %v", tc.q, err, tc.kind)
		}
		var se *sql.Error
		if !errors.As(err, &se) {
			t.Errorf("%s: error %q is not a *sql.Error", tc.q, err)
		} else if se.Pos.Line < 1 || se.Pos.Col < 1 || se.Pos.Col > len(tc.q)+1 {
			t.Errorf("%s: position %d:%d outside the query", tc.q, se.Pos.Line, se.Pos.Col)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q does not contain %q", tc.q, err, tc.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %q spans several lines", tc.q, err)
		}
	}
	// More than one statement, and none.
	for _, q := range []string{"SELECT 1; SELECT 2", "", "  ;  "} {
		if _, err := queryAll(t, db, q); err == nil {
			t.Errorf("%q: no error", q)
		}
	}
	// A trailing semicolon and comments are fine.
	for _, q := range []string{"SELECT 1;", "SELECT 1 -- one", "/* c */ SELECT 1", "SELECT 1 ;\n"} {
		got, err := queryAll(t, db, q)
		if err != nil || !slices.Equal(got, []string{"1"}) {
			t.Errorf("%q: %q, %v", q, got, err)
		}
	}
}

func TestQueryCancelled(t *testing.T) {
	dir := t.TempDir()
	path := writeFixture(t, dir, "t", 20000, "i BIGINT seq")
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.RegisterTable("t", path); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rows, err := db.Query(ctx, "SELECT i FROM t ORDER BY i DESC")
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("query under a cancelled context: err = %v, want context.Canceled", err)
	}
	// Cancelling while reading stops the stream with the context's error.
	ctx, cancel = context.WithCancel(context.Background())
	rows, err = db.Query(ctx, "SELECT i FROM t")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
		if n == 1 {
			cancel()
		}
	}
	if err := rows.Err(); !errors.Is(err, context.Canceled) && n != 20000 {
		t.Errorf("cancelled mid-stream after %d rows: err = %v", n, err)
	}
	rows.Close()
	cancel()
	// The database still works.
	got, err := queryAll(t, db, "SELECT count(*) FROM t")
	if err != nil || !slices.Equal(got, []string{"20000"}) {
		t.Errorf("after cancellation: %q, %v", got, err)
	}
}

func TestConcurrentQueries(t *testing.T) {
	dir := t.TempDir()
	path := writeFixture(t, dir, "t", 10000, "i BIGINT seq", "g INTEGER mod 4")
	db, err := b2sql.Open("", b2sql.WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.RegisterTable("t", path); err != nil {
		t.Fatal(err)
	}
	// g = r holds i = r + 4m, m = 0..2499: sum = 2500 r + 4 * sum(0..2499)
	want := []string{"0\t2500\t12495000", "1\t2500\t12497500", "2\t2500\t12500000", "3\t2500\t12502500"}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 5; k++ {
				got, err := queryAll(t, db, "SELECT g, count(*), sum(i) FROM t GROUP BY g ORDER BY g")
				if err != nil || !slices.Equal(got, want) {
					errs <- fmt.Sprintf("%q, %v", got, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent query: %s", e)
	}
}

func TestUseAfterClose(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("Query after Close panicked: %v", p)
			}
		}()
		if _, err := queryAll(t, db, "SELECT 1"); err == nil {
			t.Error("Query after Close succeeded")
		}
	}()
	if err := db.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestLimitWithoutOrder checks what .test files cannot express without
// subqueries: LIMIT without ORDER BY may return any rows, but exactly as
// many as asked (or all matches), each matching the filter, none twice,
// under every configuration of the matrix.
func TestLimitWithoutOrder(t *testing.T) {
	dir := t.TempDir()
	// 20000 rows in 100 row groups: id = i, g = i % 7, n = i or NULL when i % 10 = 0
	path := writeFixture(t, dir, "big", 20000, "id BIGINT seq", "g INTEGER mod 7", "n INTEGER nullevery 10")
	tests := []struct {
		q     string
		want  int
		check func(id, g int64, nNull bool) bool
	}{
		{"SELECT id, g, n FROM big LIMIT 5", 5, func(id, g int64, nNull bool) bool { return true }},
		{"SELECT id, g, n FROM big WHERE g = 3 LIMIT 1234", 1234, func(id, g int64, nNull bool) bool { return g == 3 }},
		{"SELECT id, g, n FROM big WHERE id > 19990 LIMIT 100", 9, func(id, g int64, nNull bool) bool { return id > 19990 }},
		{"SELECT id, g, n FROM big WHERE n IS NULL LIMIT 1500 OFFSET 100", 1500, func(id, g int64, nNull bool) bool { return nNull }},
		{"SELECT id, g, n FROM big WHERE n IS NULL LIMIT 1500 OFFSET 1000", 1000, func(id, g int64, nNull bool) bool { return nNull }},
		{"SELECT id, g, n FROM big WHERE id % 1000 = 7 LIMIT 3", 3, func(id, g int64, nNull bool) bool { return id%1000 == 7 }},
	}
	for _, cfg := range configs {
		db, err := b2sql.Open("", b2sql.WithThreads(cfg.threads))
		if err != nil {
			t.Fatal(err)
		}
		if err := db.RegisterTable("big", path); err != nil {
			t.Fatal(err)
		}
		p := map[bool]string{true: "on", false: "off"}[cfg.pruning]
		if _, err := queryAll(t, db, "SET pruning = "+p); err != nil {
			t.Fatal(err)
		}
		for _, tc := range tests {
			rows, err := db.Query(context.Background(), tc.q)
			if err != nil {
				t.Errorf("[%s] %s: %v", cfg, tc.q, err)
				continue
			}
			seen := map[int64]bool{}
			n := 0
			for rows.Next() {
				v := rows.Values()
				id, g, nNull := v[0].I, v[1].I, v[2].Null
				if !tc.check(id, g, nNull) {
					t.Errorf("[%s] %s: row id=%d does not match the filter", cfg, tc.q, id)
				}
				if seen[id] {
					t.Errorf("[%s] %s: id %d returned twice", cfg, tc.q, id)
				}
				seen[id] = true
				n++
			}
			if err := rows.Err(); err != nil {
				t.Errorf("[%s] %s: %v", cfg, tc.q, err)
			}
			rows.Close()
			if n != tc.want {
				t.Errorf("[%s] %s: %d rows, want %d", cfg, tc.q, n, tc.want)
			}
		}
		db.Close()
	}
}
