package columnar

import "testing"

// TestTimeTZ: text round trips as DuckDB prints it, and keys order by the
// UTC instant, then the larger offset first (DuckDB 1.5's ORDER BY).
func TestTimeTZ(t *testing.T) {
	for in, want := range map[string]string{
		"12:00:00+05": "12:00:00+05", "12:34:56.789-03:30": "12:34:56.789-03:30", "12:00:00": "12:00:00+00",
		"12:00:00+05:30:15": "12:00:00+05:30:15", "24:00:00-15:59:59": "24:00:00-15:59:59", "00:00:00+15:59:59": "00:00:00+15:59:59",
		" 01:02:03+01 ": "01:02:03+01", "01:02:03+0530": "01:02:03+05:30", "2024-01-01 12:00:00-02": "14:00:00+00",
		"12:00:00 +05": "12:00:00+05", "12:00:00.123456789+01": "12:00:00.123456+01",
	} {
		k, ok := ParseTimeTZ(in)
		if got := string(AppendTimeTZ(nil, k)); !ok || got != want {
			t.Errorf("%q: got %q (%v), want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"12:00:00+16", "abc", "12:00:00+5:3", "25:00:00+00", "01:02:03Z", "12:00:00+5", "12:00+05"} {
		if _, ok := ParseTimeTZ(bad); ok {
			t.Errorf("%q: accepted", bad)
		}
	}
	order := []string{"12:00:00+05", "08:00:00+01", "07:00:00+00", "06:00:00-01", "07:00:01+00", "06:00:00-02"}
	for i := 1; i < len(order); i++ {
		a, _ := ParseTimeTZ(order[i-1])
		b, _ := ParseTimeTZ(order[i])
		if a >= b {
			t.Errorf("%s should sort before %s", order[i-1], order[i])
		}
	}
}
