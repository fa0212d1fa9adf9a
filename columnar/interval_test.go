package columnar

import "testing"

// TestParseInterval checks interval text against DuckDB's answers
// (/work/bin/duck, DuckDB 1.5.6): each case's text form after parsing.
func TestParseInterval(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"2 years", "2 years"},
		{"2Y 1 month 1 M 3S 20mS 16uS", "2 years 1 month 00:01:03.020016"},
		{"-2Y 4 days 5 Hours 1 MinUteS 3S 20mS 16uS", "-2 years 4 days 05:01:03.020016"},
		{"35:10:00", "35:10:00"},
		{"-876:54:32.101234", "-876:54:32.101234"},
		{"1 month 35:10:00", "1 month 35:10:00"},
		{"1.5 days", "1 day 12:00:00"},
		{"1.11 weeks", "7 days 18:28:48"},
		{"1.111111111 days", "1 day 02:39:59.9904"},
		{"0.11 month", "3 days"},
		{"1.5 quarter", "4 months 15 days"},
		{"0.05 years", "00:00:00"},
		{"0.09 years", "1 month"},
		{"1.5 millennium", "1500 years"},
		{"-1.5 years", "-1 year -6 months"},
		{"42", "00:00:42"},
		{"42 ", "00:00:42"},
		{"1d2h", "1 day 02:00:00"},
		{"@ 1 day", "1 day"},
		{"1 year 2 months ago", "-1 year -2 months"},
		{"1 year -1 month", "11 months"},
		{"00:00:", "00:00:00"},
		{"1:", "01:00:00"},
		{"5. days", "5 days"},
		{"2147483647 months", "178956970 years 7 months"},
	} {
		iv, ok := ParseInterval(tc.in)
		if got := string(AppendInterval(nil, iv)); !ok || got != tc.want {
			t.Errorf("ParseInterval(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
	for _, bad := range []string{"", "1 fortnight", "1 day 1", "1 2", ".5 days", "1e2 days", "2147483648 months", "+1 day"} {
		if iv, ok := ParseInterval(bad); ok {
			t.Errorf("ParseInterval(%q) = %v, want an error", bad, iv)
		}
	}
}

// TestIntervalOrder: byte forms order and compare as DuckDB's intervals
// (a month as 30 days, a day as 24 hours), and keep the written fields.
func TestIntervalOrder(t *testing.T) {
	p := func(s string) IntervalParts {
		iv, ok := ParseInterval(s)
		if !ok {
			t.Fatalf("ParseInterval(%q) failed", s)
		}
		return iv
	}
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"1 month", "30 days", 0}, {"1 day", "24 hours", 0}, {"1 year", "12 months", 0},
		{"31 days", "1 month", 1}, {"36 hours", "2 days", -1}, {"-1734799452 days", "2 days", -1},
		{"2147483647 months 2147483647 days 9223372036854775807 microseconds", "2147483647 months", 1},
	} {
		a, b := p(tc.a), p(tc.b)
		if got := CompareIntervals(a, b); got != tc.want {
			t.Errorf("CompareIntervals(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		ka, kb := IntervalOrderKey(AppendIntervalBytes(nil, a)), IntervalOrderKey(AppendIntervalBytes(nil, b))
		if got := CompareBytes(ka, kb); got != tc.want {
			t.Errorf("byte order of %q, %q = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if back := IntervalFromBytes(AppendIntervalBytes(nil, a)); back != a {
			t.Errorf("%q round trip: %v, want %v", tc.a, back, a)
		}
	}
}
