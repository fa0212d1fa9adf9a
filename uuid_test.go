package b2sql_test

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/b2sql/b2sql"
)

// TestUUIDAPI: a UUID scans as its text and exports to Arrow as utf8, as
// DuckDB exports it without arrow_lossless_conversion.
func TestUUIDAPI(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const want = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
	const q = "SELECT '{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}'::UUID u"
	rows, err := db.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var s string
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	if err := rows.Scan(&s); err != nil || s != want {
		t.Errorf("scanned %q, %v; want %q", s, err, want)
	}
	rows.Close()
	rows, err = db.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	rr := rows.RecordReader()
	defer rr.Release()
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	col, ok := rr.RecordBatch().Column(0).(*array.String)
	if !ok || col.Value(0) != want {
		t.Errorf("arrow column %v, want utf8 %q", rr.RecordBatch().Column(0), want)
	}
}
