package b2sql_test

import (
	"bytes"
	"context"
	"database/sql"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	b2sql "github.com/b2sql/b2sql"
)

// pointWKB is POINT (1 2) as ISO WKB, little-endian, by hand: byte order
// 1, type 1, then the doubles 1.0 and 2.0. DuckDB's Go driver scans
// 'POINT(1 2)'::GEOMETRY as these bytes.
var pointWKB = []byte{1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x40}

// TestGeometryScan: a GEOMETRY scans as DuckDB's Go driver (duckdb-go
// v2.10506.0 on DuckDB 1.5) gives it: its WKB as a []byte into *any and
// *[]byte (so WKB decoders and sql.Scanner geometry types read it), type
// name GEOMETRY (with a CRS too), scan type []byte; into a *string,
// database/sql converts the []byte: the WKB bytes, as with duckdb-go
// (st_astext(g) or g::VARCHAR give the text). b2sql's own Rows.Scan into a
// *string gives the WKT text, as CAST(g AS VARCHAR). Arrow gives the WKB in
// a binary column.
func TestGeometryScan(t *testing.T) {
	db, err := sql.Open("b2sql", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT 'POINT(1 2)'::GEOMETRY, g, NULL::GEOMETRY, 'POINT(1 2)'::GEOMETRY, 'POINT(1 2)'::GEOMETRY FROM 'tests/testdata/files/geoparquet.parquet' WHERE id = 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	for i, ct := range cts {
		if ct.DatabaseTypeName() != "GEOMETRY" || ct.ScanType() != reflect.TypeFor[[]byte]() {
			t.Errorf("column %d: type %q, scan type %v; want GEOMETRY, []byte", i+1, ct.DatabaseTypeName(), ct.ScanType())
		}
	}
	if !rows.Next() {
		t.Fatal("no row", rows.Err())
	}
	var a, crs, null any
	var b []byte
	var s string
	if err := rows.Scan(&a, &crs, &null, &b, &s); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]any{"any": a, "any (GEOMETRY('OGC:CRS84'))": crs, "[]byte": b} {
		if g, ok := got.([]byte); !ok || !bytes.Equal(g, pointWKB) {
			t.Errorf("%s: %T %x; want []byte %x", name, got, got, pointWKB)
		}
	}
	if null != nil || s != string(pointWKB) {
		t.Errorf("NULL %v (want nil), string %q (want the WKB bytes %q)", null, s, pointWKB)
	}

	bdb, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	r, err := bdb.Query(context.Background(), "SELECT 'POINT(1 2)'::GEOMETRY AS g")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rows2, err := bdb.Query(context.Background(), "SELECT 'POINT(1 2)'::GEOMETRY")
	if err != nil {
		t.Fatal(err)
	}
	defer rows2.Close()
	var text string
	if !rows2.Next() || rows2.Scan(&text) != nil || text != "POINT (1 2)" {
		t.Errorf("Rows.Scan into *string: %q, %v; want POINT (1 2)", text, rows2.Err())
	}
	rr := r.RecordReader()
	defer rr.Release()
	if !rr.Next() {
		t.Fatal("no Arrow record", rr.Err())
	}
	col, ok := rr.RecordBatch().Column(0).(*array.Binary)
	if !ok || col.Len() != 1 || !bytes.Equal(col.Value(0), pointWKB) {
		t.Fatalf("Arrow column %T %v; want binary %x", rr.RecordBatch().Column(0), rr.RecordBatch().Column(0), pointWKB)
	}
}
