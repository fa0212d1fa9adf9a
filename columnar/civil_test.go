package columnar

import "testing"

// The calendar against DuckDB 1.5's day numbers and texts.
func TestCivilDates(t *testing.T) {
	for _, c := range []struct {
		text string
		days int64
	}{
		{"1970-01-01", 0},
		{"0001-01-01", -719162}, // DuckDB: DATE '0001-01-01' - DATE '1970-01-01'
		{"5881580-07-10", MaxDate},
		{"5877642-06-25 (BC)", MinDate},
		{"2000-02-29", 11016},
		{"0001-12-31 (BC)", -719163},
	} {
		d, ok := ParseDate(c.text)
		if !ok || d != c.days {
			t.Errorf("ParseDate(%q) = %d, %v; want %d", c.text, d, ok, c.days)
		}
		if got := string(AppendDate(nil, c.days)); got != c.text {
			t.Errorf("AppendDate(%d) = %q, want %q", c.days, got, c.text)
		}
	}
	// Other spellings DuckDB reads (its answers to TRY_CAST(… AS DATE)).
	for text, want := range map[string]string{
		"0000-01-01": "0001-01-01 (BC)", "-0001-01-01": "0002-01-01 (BC)", "044-03-15 (BC)": "0044-03-15 (BC)",
		"1992/01/01": "1992-01-01", "1992-1-1": "1992-01-01", "99999-01-01": "99999-01-01",
		"1992-01-01T10:00:00": "1992-01-01", "1992-01-01 (BC) 10:00": "1992-01-01 (BC)",
	} {
		d, ok := ParseDate(text)
		if got := string(AppendDate(nil, d)); !ok || got != want {
			t.Errorf("ParseDate(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
	for _, text := range []string{"1992.01.01", "19920101", "5881580-07-11", "-5877641-06-24", "1992-02-30", "+1992-01-01", "1992-01/01", "-1992-01-01 (BC)"} {
		if d, ok := ParseDate(text); ok {
			t.Errorf("ParseDate(%q) = %d, want no date", text, d)
		}
	}
	for d := int64(-800000); d < 800000; d += 37 {
		y, m, dd := CivilFromDays(d)
		if DaysFromCivil(y, m, dd) != d {
			t.Fatalf("day %d: %d-%d-%d does not round trip", d, y, m, dd)
		}
	}
}

func TestCivilTimestamps(t *testing.T) {
	for _, c := range []struct {
		text string
		us   int64
	}{
		{"290309-12-22 (BC) 00:00:00", MinTimestamp},
		{"294247-01-10 04:00:54.775806", MaxTimestamp},
		{"1001-03-15 (BC) 20:38:40", -93717746480000000},
		{"1969-12-31 23:59:59.5", -500000},
	} {
		us, _, ok := ParseTimestamp(c.text)
		if !ok || us != c.us {
			t.Errorf("ParseTimestamp(%q) = %d, %v; want %d", c.text, us, ok, c.us)
		}
		if got := string(AppendTimestamp(nil, c.us)); got != c.text {
			t.Errorf("AppendTimestamp(%d) = %q, want %q", c.us, got, c.text)
		}
	}
	for _, text := range []string{"294247-01-10 04:00:54.775807", "290309-12-21 (BC) 23:59:59", " 1992-01-01 10:00"} {
		if us, _, ok := ParseTimestamp(text); ok {
			t.Errorf("ParseTimestamp(%q) = %d, want no timestamp", text, us)
		}
	}
}
