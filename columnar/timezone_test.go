package columnar

import (
	"testing"
	"time"
)

// The expected instants are worked out by hand from the New York rules
// (EST -05, EDT -04 from 2024-03-10 02:00 to 2024-11-03 02:00 local) and
// agree with DuckDB 1.5.6's ICU answers.
func TestLocalToInstant(t *testing.T) {
	ny, err := LoadZone("america/new_york")
	if err != nil {
		t.Fatal(err)
	}
	if ny.String() != "America/New_York" {
		t.Fatalf("canonical name %q", ny.String())
	}
	utc := func(s string) int64 {
		tm, err := time.Parse("2006-01-02 15:04:05", s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixMicro()
	}
	for _, tc := range []struct{ local, instant string }{
		{"2024-07-04 08:00:00", "2024-07-04 12:00:00"}, // EDT
		{"2024-01-04 07:00:00", "2024-01-04 12:00:00"}, // EST
		{"2024-03-10 02:30:00", "2024-03-10 07:30:00"}, // never happens: read at -05
		{"2024-11-03 01:30:00", "2024-11-03 06:30:00"}, // happens twice: the standard time's
		{"1850-01-01 00:00:00", "1850-01-01 04:56:02"}, // local mean time, -4:56:02
	} {
		got := LocalToInstant(utc(tc.local), ny)
		if want := utc(tc.instant); got != want {
			t.Errorf("%s: got %s, want %s", tc.local, TimestampToTime(got), tc.instant)
		}
		if back := InstantToLocal(got, ny); tc.local != "2024-03-10 02:30:00" && back != utc(tc.local) {
			t.Errorf("%s: back to %s", tc.local, TimestampToTime(back))
		}
	}
	if got := LocalToInstant(TimestampInfinity, ny); got != TimestampInfinity {
		t.Errorf("infinity moved to %d", got)
	}
}

func TestTimestampTZText(t *testing.T) {
	kol, _ := LoadZone("Asia/Kolkata")
	ny, _ := LoadZone("America/New_York")
	us := time.Date(2024, 7, 4, 12, 0, 0, 500000000, time.UTC).UnixMicro()
	for _, tc := range []struct {
		loc  *time.Location
		want string
	}{
		{time.UTC, "2024-07-04 12:00:00.5+00"},
		{kol, "2024-07-04 17:30:00.5+05:30"},
		{ny, "2024-07-04 08:00:00.5-04"},
	} {
		if got := string(AppendTimestampTZ(nil, us, tc.loc)); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
	for _, tc := range []struct {
		in   string
		want string // UTC
		ok   bool
	}{
		{"2024-01-01 10:00:00+01", "2024-01-01 09:00:00", true},
		{"2024-01-01 10:00:00Z", "2024-01-01 10:00:00", true},
		{"2024-01-01 10:00:00 Europe/Paris", "2024-01-01 09:00:00", true},
		{"2024-01-01 10:00:00", "2024-01-01 15:00:00", true}, // local in New York
		{"2024-01-01", "2024-01-01 05:00:00", true},
		{"2024-01-01 10:00:00 Nowhere/Land", "", false},
		{"yesterday", "", false},
	} {
		got, ok := ParseTimestampTZ(tc.in, ny)
		if ok != tc.ok {
			t.Errorf("%q: ok %v", tc.in, ok)
			continue
		}
		if ok && TimestampToTime(got).Format("2006-01-02 15:04:05") != tc.want {
			t.Errorf("%q: got %s, want %s", tc.in, TimestampToTime(got), tc.want)
		}
	}
}
