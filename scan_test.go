package b2sql_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/b2sql/b2sql"
)

func TestScanTypes(t *testing.T) {
	db := openFixture(t, 100)
	rows, err := db.Query(context.Background(), "SELECT i, g, f, s, n, d, ts, b, dec, i * 2 FROM t WHERE i = 37")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatalf("no row: %v", rows.Err())
	}
	var (
		i   int64
		g   int32
		f   float64
		s   string
		n   sql.NullInt64
		d   time.Time
		ts  time.Time
		b   bool
		dec float64
		twi uint16
	)
	if err := rows.Scan(&i, &g, &f, &s, &n, &d, &ts, &b, &dec, &twi); err != nil {
		t.Fatal(err)
	}
	// Row 37: g = 37 % 7 = 2, f = 18.5, s = "s7", n = 37, d = 1970-02-07,
	// ts = 2024-01-01 00:00:37, b = false (odd), dec = 0.37, i*2 = 74.
	if i != 37 || g != 2 || f != 18.5 || s != "s7" || !n.Valid || n.Int64 != 37 || b || dec != 0.37 || twi != 74 {
		t.Errorf("got i=%d g=%d f=%v s=%q n=%v b=%v dec=%v twice=%d", i, g, f, s, n, b, dec, twi)
	}
	if want := time.Date(1970, 2, 7, 0, 0, 0, 0, time.UTC); !d.Equal(want) {
		t.Errorf("d = %v, want %v", d, want)
	}
	if want := time.Date(2024, 1, 1, 0, 0, 37, 0, time.UTC); !ts.Equal(want) {
		t.Errorf("ts = %v, want %v", ts, want)
	}
	// The same row into *any, strings and narrower or wider types.
	var (
		ai, as, an, ab any
		si, sdec       string
		u64            uint64
		f32            float32
	)
	if err := rows.Scan(&ai, &si, &f32, &as, &an, &d, &ts, &ab, &sdec, &u64); err != nil {
		t.Fatal(err)
	}
	if ai != int64(37) || si != "2" || f32 != 18.5 || as != "s7" || an != int64(37) || ab != false || sdec != "0.37" || u64 != 74 {
		t.Errorf("any/string scans: %v %q %v %v %v %v %q %v", ai, si, f32, as, an, ab, sdec, u64)
	}
	// Errors: count mismatch, overflow, type mismatch.
	if err := rows.Scan(&i); !errors.Is(err, b2sql.ErrScan) {
		t.Errorf("Scan with too few destinations: %v", err)
	}
}

func TestScanNullsAndRanges(t *testing.T) {
	db := openFixture(t, 300)
	rows, err := db.Query(context.Background(), "SELECT n, i * 1000, s, f, b FROM t WHERE i = 200")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatalf("no row: %v", rows.Err())
	}
	// Row 200: n is NULL (200 % 5 == 0), i*1000 = 200000.
	var (
		n    int64
		big  int64
		s    string
		f    float64
		b    bool
		pn   *int64
		nn   sql.NullInt64
		nany any
		nraw []byte
	)
	if err := rows.Scan(&n, &big, &s, &f, &b); !errors.Is(err, b2sql.ErrScan) {
		t.Errorf("NULL into *int64: err = %v, want ErrScan", err)
	}
	if err := rows.Scan(&pn, &big, &s, &f, &b); err != nil || pn != nil || big != 200000 {
		t.Errorf("NULL into **int64: %v, %v, %d", err, pn, big)
	}
	if err := rows.Scan(&nn, &big, &s, &f, &b); err != nil || nn.Valid {
		t.Errorf("NULL into sql.NullInt64: %v, %v", err, nn)
	}
	if err := rows.Scan(&nany, &big, &nraw, &f, &b); err != nil || nany != nil || string(nraw) != "s0" {
		t.Errorf("NULL into *any: %v, %v, %q", err, nany, nraw)
	}
	var i16 int16
	if err := rows.Scan(&nany, &i16, &s, &f, &b); !errors.Is(err, b2sql.ErrScan) {
		t.Errorf("200000 into int16: err = %v, want ErrScan", err)
	}
	var u8 uint8
	if err := rows.Scan(&nany, &big, &u8, &f, &b); !errors.Is(err, b2sql.ErrScan) {
		t.Errorf("VARCHAR into uint8: err = %v, want ErrScan", err)
	}
	var bi int
	if err := rows.Scan(&nany, &big, &s, &bi, &b); err != nil || bi != 100 {
		t.Errorf("f = 100.0 into int: %v, %d", err, bi)
	}
	var sb sql.NullBool
	var sf sql.Null[float64]
	if err := rows.Scan(&nany, &big, &s, &sf, &sb); err != nil || !sb.Valid || !sb.Bool || !sf.Valid || sf.V != 100 {
		t.Errorf("sql.Null scanners: %v, %v, %v", err, sb, sf)
	}
}
