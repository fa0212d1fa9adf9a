package columnar

import "testing"

// TestInfinityText: DuckDB's words for infinite dates and timestamps read
// and print back, and conversions between the two keep them.
func TestInfinityText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		date string
		ts   string
	}{
		{"infinity", "infinity", "infinity"},
		{" -INFINITY ", "-infinity", "-infinity"},
		{"epoch", "1970-01-01", "1970-01-01 00:00:00"},
		{"2024-02-29 10:00", "2024-02-29", "2024-02-29 10:00:00"},
	} {
		d, ok := ParseDate(tc.in)
		if !ok || string(AppendDate(nil, d)) != tc.date {
			t.Errorf("ParseDate(%q) = %d %v, printed %q, want %q", tc.in, d, ok, AppendDate(nil, d), tc.date)
		}
		us, _, ok := ParseTimestamp(tc.in)
		if !ok || string(AppendTimestamp(nil, us)) != tc.ts {
			t.Errorf("ParseTimestamp(%q) printed %q, want %q", tc.in, AppendTimestamp(nil, us), tc.ts)
		}
		if got := string(AppendTimestamp(nil, DateToTimestamp(d))); tc.date[0] != '2' && got != tc.ts {
			t.Errorf("DateToTimestamp(%q) printed %q, want %q", tc.in, got, tc.ts)
		}
		if got := string(AppendDate(nil, TimestampToDate(us))); got != tc.date {
			t.Errorf("TimestampToDate(%q) printed %q, want %q", tc.in, got, tc.date)
		}
	}
	if _, ok := ParseDate("+infinity"); ok {
		t.Error("ParseDate accepted +infinity (DuckDB refuses it)")
	}
}
