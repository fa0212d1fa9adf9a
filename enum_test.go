package b2sql_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/b2sql/b2sql"
)

// ENUM and TIME WITH TIME ZONE values leave the engine as DuckDB's
// drivers give them: an ENUM as its value's text (database/sql) or an
// Arrow dictionary of its values, a TIMETZ as a time.Time at its offset
// or an Arrow time64 of its local time.
func TestEnumTimeTZOut(t *testing.T) {
	ctx := context.Background()
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Exec(ctx, "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')"); err != nil {
		t.Fatal(err)
	}
	const q = "SELECT m::mood AS m, TIMETZ '12:34:56+05:30' AS tz FROM (VALUES ('happy'), (NULL), ('sad')) v(m)"

	rows, err := db.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var got []any
	for rows.Next() {
		got = append(got, b2sql.Value(rows.Values()[0]))
		tz, ok := b2sql.Value(rows.Values()[1]).(time.Time)
		if _, off := tz.Zone(); !ok || off != 5*3600+30*60 || tz.Hour() != 12 || tz.Minute() != 34 || tz.Second() != 56 {
			t.Errorf("TIMETZ scans as %v", tz)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != "happy" || got[1] != nil || got[2] != "sad" {
		t.Errorf("ENUM values %v, want [happy <nil> sad]", got)
	}

	rows, err = db.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	rr := rows.RecordReader()
	defer rr.Release()
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	rec := rr.RecordBatch()
	dict, ok := rec.Column(0).(*array.Dictionary)
	if !ok {
		t.Fatalf("ENUM column is %T (%s), want a dictionary", rec.Column(0), rec.Column(0).DataType())
	}
	if it := dict.DataType().(*arrow.DictionaryType).IndexType.ID(); it != arrow.UINT8 {
		t.Errorf("indices are %s, want uint8", it)
	}
	vals := dict.Dictionary().(*array.String)
	if vals.Len() != 3 || vals.Value(0) != "sad" || vals.Value(2) != "happy" {
		t.Errorf("dictionary %v", vals)
	}
	if dict.IsNull(0) || vals.Value(dict.GetValueIndex(0)) != "happy" || !dict.IsNull(1) || vals.Value(dict.GetValueIndex(2)) != "sad" {
		t.Errorf("ENUM column %v", dict)
	}
	tz := rec.Column(1).(*array.Time64)
	if want := arrow.Time64((12*3600 + 34*60 + 56) * 1e6); tz.Value(0) != want {
		t.Errorf("TIMETZ as time64 %d, want %d (the local time)", tz.Value(0), want)
	}
}

// The database/sql driver scans an ENUM into a string.
func TestEnumDriverScan(t *testing.T) {
	sdb, err := sql.Open("b2sql", "")
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	var s string
	if err := sdb.QueryRow("SELECT 'ok'::ENUM('sad', 'ok')").Scan(&s); err != nil || s != "ok" {
		t.Fatalf("got %q, %v", s, err)
	}
}
