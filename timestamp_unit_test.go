package b2sql_test

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/b2sql/b2sql"
)

// TestTimestampUnitsAPI: TIMESTAMP_S/MS/NS scan into time.Time with all
// their digits and export to Arrow in their own units.
func TestTimestampUnitsAPI(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const q = "SELECT TIMESTAMP_NS '1960-01-01 12:00:00.723456789' ns, TIMESTAMP_MS '2020-01-01 12:00:00.123' ms, TIMESTAMP_S '2020-01-01 12:00:01' s"
	want := []time.Time{
		time.Date(1960, 1, 1, 12, 0, 0, 723456789, time.UTC),
		time.Date(2020, 1, 1, 12, 0, 0, 123_000_000, time.UTC),
		time.Date(2020, 1, 1, 12, 0, 1, 0, time.UTC),
	}
	rows, err := db.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	got := make([]time.Time, 3)
	if err := rows.Scan(&got[0], &got[1], &got[2]); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	for i := range want {
		if !got[i].Equal(want[i]) {
			t.Errorf("column %d: %v, want %v", i, got[i], want[i])
		}
	}

	rows, err = db.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	rr := rows.RecordReader()
	defer rr.Release()
	units := []arrow.TimeUnit{arrow.Nanosecond, arrow.Millisecond, arrow.Second}
	for k, f := range rr.Schema().Fields() {
		if ts, ok := f.Type.(*arrow.TimestampType); !ok || ts.Unit != units[k] || ts.TimeZone != "" {
			t.Errorf("field %s: %s, want a local timestamp in %s", f.Name, f.Type, units[k])
		}
	}
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	rec := rr.RecordBatch()
	for k := range want {
		v := rec.Column(k).(*array.Timestamp).Value(0)
		if tm := v.ToTime(units[k]); !tm.Equal(want[k]) {
			t.Errorf("arrow column %d: %v, want %v", k, tm, want[k])
		}
	}
}

// TestTimeParamLocation: a time.Time outside UTC is an instant: it
// compares with TIMESTAMPTZ values by instant and with TIMESTAMP values in
// the session's TimeZone; a UTC time stays a TIMESTAMP.
func TestTimeParamLocation(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	ctx := context.Background()
	if err := db.Exec(ctx, "SET TimeZone = 'Europe/Paris'"); err != nil {
		t.Fatal(err)
	}
	noonNY := time.Date(2024, 1, 1, 12, 0, 0, 0, ny) // 17:00 UTC, 18:00 in Paris
	for _, tc := range []struct {
		q    string
		arg  any
		want string
	}{
		{"SELECT typeof(?), ? = TIMESTAMPTZ '2024-01-01 17:00:00+00'", noonNY, "TIMESTAMP WITH TIME ZONE true"},
		{"SELECT typeof(?), ? = TIMESTAMP '2024-01-01 18:00:00'", noonNY, "TIMESTAMP WITH TIME ZONE true"},
		{"SELECT typeof(?), ? = TIMESTAMP '2024-01-01 12:00:00'", time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC), "TIMESTAMP true"},
	} {
		rows, err := db.Query(ctx, tc.q, tc.arg, tc.arg)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		var typ string
		var eq bool
		if !rows.Next() {
			t.Fatal(rows.Err())
		}
		if err := rows.Scan(&typ, &eq); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		if got := typ + " " + map[bool]string{true: "true", false: "false"}[eq]; got != tc.want {
			t.Errorf("%s with %v: %s, want %s", tc.q, tc.arg, got, tc.want)
		}
	}
}
