package b2sql_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/columnar"
)

// timeRows are the TIME values of testdata/time_duckdb.parquet, written by
// DuckDB 1.5 with
//
//	COPY (SELECT * FROM (VALUES (1, TIME '00:00:00'), (2, TIME '12:34:56.789'),
//	  (3, NULL), (4, TIME '24:00:00'), (5, TIME '23:59:59.999999'),
//	  (6, TIME '08:15:00')) v(id, t)) TO 'time_duckdb.parquet' (FORMAT parquet)
//
// as microseconds since midnight (-1 for NULL), worked out by hand.
var timeRows = []int64{0, 45_296_789_000, -1, 86_400_000_000, 86_399_999_999, 29_700_000_000}

// readTimes returns id → t of a two-column (id, t) file, -1 for NULL.
func readTimes(t *testing.T, db *b2sql.DB, path string) []int64 {
	t.Helper()
	rows, err := db.Query(context.Background(), "SELECT t FROM '"+path+"' ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if got := rows.Columns()[0].Type; got != columnar.TTime {
		t.Fatalf("column t is %s, want TIME", got)
	}
	var out []int64
	for rows.Next() {
		var v columnar.Value
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		if v.Null {
			out = append(out, -1)
			continue
		}
		out = append(out, v.I)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTimeParquetFromDuckDB(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := readTimes(t, db, "testdata/time_duckdb.parquet")
	if len(got) != len(timeRows) {
		t.Fatalf("got %d rows, want %d", len(got), len(timeRows))
	}
	for i := range got {
		if got[i] != timeRows[i] {
			t.Errorf("row %d: %d µs, want %d", i+1, got[i], timeRows[i])
		}
	}
}

// TestTimeParquetRoundTrip writes TIME with COPY, checks the file's
// annotation (TIME(MICROS), not adjusted to UTC, as DuckDB writes it) with
// arrow-go, and reads the values back.
func TestTimeParquetRoundTrip(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := db.Exec(context.Background(), "COPY (SELECT id, t FROM 'testdata/time_duckdb.parquet') TO '"+path+"'"); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pr, err := file.NewParquetReader(f)
	if err != nil {
		t.Fatal(err)
	}
	col := pr.MetaData().Schema.Column(1)
	lt, ok := col.LogicalType().(schema.TimeLogicalType)
	if !ok || lt.TimeUnit() != schema.TimeUnitMicros || lt.IsAdjustedToUTC() {
		t.Fatalf("column t is %s, want TIME(MICROS, isAdjustedToUTC=false)", col.LogicalType())
	}
	got := readTimes(t, db, path)
	for i := range timeRows {
		if i >= len(got) || got[i] != timeRows[i] {
			t.Fatalf("read back %v, want %v", got, timeRows)
		}
	}
}

// TestTimeCTableRefused: a CTable has no TIME kind, so writing one is an
// error naming the column and the way out.
func TestTimeCTableRefused(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	path := filepath.Join(t.TempDir(), "t.b2d")
	err = db.Exec(context.Background(), "COPY (SELECT 1 AS id, TIME '01:02:03' AS t) TO '"+path+"'")
	if err == nil {
		t.Fatal("COPY of a TIME column to a CTable succeeded")
	}
	for _, want := range []string{`column "t"`, "TIME", "CAST"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, statErr := os.Stat(path); !os.IsNotExist(statErr) {
		t.Errorf("%s exists after the failed COPY", path)
	}
}

// TestTimeOutputs: the Go value of a TIME (time.Time on 0001-01-01 UTC,
// as the DuckDB driver scans one), its database/sql scan type, and its
// Arrow type (time64[us]) with the microseconds unchanged.
func TestTimeOutputs(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const q = "SELECT TIME '12:34:56.789' AS t"
	want := time.Date(1, 1, 1, 12, 34, 56, 789_000_000, time.UTC)

	rows, err := db.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	if v := b2sql.Value(rows.Values()[0]); v != any(want) {
		t.Errorf("Values: %#v, want %v", v, want)
	}
	var tm time.Time
	var d time.Duration
	var s string
	if err := rows.Scan(&tm); err != nil || !tm.Equal(want) {
		t.Errorf("Scan(*time.Time) = %v, %v; want %v", tm, err, want)
	}
	if err := rows.Scan(&d); err != nil || d != 12*time.Hour+34*time.Minute+56789*time.Millisecond {
		t.Errorf("Scan(*time.Duration) = %v, %v", d, err)
	}
	if err := rows.Scan(&s); err != nil || s != "12:34:56.789" {
		t.Errorf("Scan(*string) = %q, %v", s, err)
	}
	rows.Close()

	rows, err = db.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	rr := rows.RecordReader()
	defer rr.Release()
	if !rr.Next() {
		t.Fatal("no record")
	}
	rec := rr.RecordBatch()
	if dt := rec.Schema().Field(0).Type; dt.ID() != arrow.TIME64 || dt.(*arrow.Time64Type).Unit != arrow.Microsecond {
		t.Fatalf("arrow type %s, want time64[us]", dt)
	}
	if v := rec.Column(0).(*array.Time64).Value(0); int64(v) != 45_296_789_000 {
		t.Errorf("arrow value %d, want 45296789000", v)
	}

	sdb, err := sql.Open("b2sql", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	srows, err := sdb.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer srows.Close()
	cts, err := srows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	if cts[0].DatabaseTypeName() != "TIME" || cts[0].ScanType() != reflect.TypeFor[time.Time]() {
		t.Errorf("database/sql column: %s scanning into %v", cts[0].DatabaseTypeName(), cts[0].ScanType())
	}
	srows.Next()
	var st time.Time
	if err := srows.Scan(&st); err != nil || !st.Equal(want) {
		t.Errorf("database/sql Scan = %v, %v; want %v", st, err, want)
	}
}

// TestTimeParquetUnitsPruning reads TIME(MILLIS) (INT32) and TIME(NANOS)
// columns written by arrow-go in row groups of 10, and checks that
// filters give the same rows with row-group pruning on and off, and that
// pruning skips groups. Row i holds i seconds + 7 ms (millis) and i
// seconds + 7 µs + 999 ns (nanos: the 999 ns are dropped, floor).
func TestTimeParquetUnitsPruning(t *testing.T) {
	const n = 100
	path := filepath.Join(t.TempDir(), "units.parquet")
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "ms", Type: arrow.FixedWidthTypes.Time32ms},
		{Name: "ns", Type: arrow.FixedWidthTypes.Time64ns},
	}, nil)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer rb.Release()
	for i := range n {
		rb.Field(0).(*array.Time32Builder).Append(arrow.Time32(i*1000 + 7))
		rb.Field(1).(*array.Time64Builder).Append(arrow.Time64(int64(i)*1_000_000_000 + 7_999))
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	writeArrowParquet(t, path, rec, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(10)))
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	from := " FROM '" + path + "'"
	if got := queryText(t, db, "SELECT ms, ns"+from+" WHERE ms = '00:00:42.007'"); got != "00:00:42.007|00:00:42.000007" {
		t.Errorf("row 42: %q", got)
	}
	for _, q := range []string{
		// 00:00:20.007 .. 00:00:29.007: rows 20..29
		"SELECT count(*), min(ms), max(ns)" + from + " WHERE ms BETWEEN '00:00:20' AND '00:00:29.5'",
		// rows 95..99
		"SELECT count(*), min(ms), max(ns)" + from + " WHERE ns > TIME '00:01:34.000008'",
	} {
		on := queryText(t, db, q)
		if err := db.Exec(context.Background(), "SET pruning = off"); err != nil {
			t.Fatal(err)
		}
		off := queryText(t, db, q)
		if err := db.Exec(context.Background(), "SET pruning = on"); err != nil {
			t.Fatal(err)
		}
		if on != off {
			t.Errorf("%s: %q with pruning, %q without", q, on, off)
		}
		explain := queryText(t, db, "EXPLAIN ANALYZE "+q)
		if !strings.Contains(explain, "row groups=1/10") {
			t.Errorf("%s: no row group skipped:\n%s", q, explain)
		}
	}
	if got := queryText(t, db, "SELECT count(*), min(ms), max(ns)"+from+" WHERE ms BETWEEN '00:00:20' AND '00:00:29.5'"); got != "10|00:00:20.007|00:00:29.000007" {
		t.Errorf("rows 20..29: %q", got)
	}
	if got := queryText(t, db, "SELECT count(*), min(ms), max(ns)"+from+" WHERE ns > TIME '00:01:34.000008'"); got != "5|00:01:35.007|00:01:39.000007" {
		t.Errorf("rows 95..99: %q", got)
	}
}
