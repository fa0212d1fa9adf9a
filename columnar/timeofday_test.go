package columnar

import "testing"

func TestParseTime(t *testing.T) {
	const h, m, s = MicrosPerHour, MicrosPerMinute, MicrosPerSecond
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"12:34:56", 12*h + 34*m + 56*s, true},
		{"1:2:3", 1*h + 2*m + 3*s, true},
		{"12:34", 12*h + 34*m, true},
		{"012:34:56", 12*h + 34*m + 56*s, true},
		{"12:34:56.789", 12*h + 34*m + 56*s + 789_000, true},
		{"12:34:56.1234567", 12*h + 34*m + 56*s + 123_456, true}, // 7th digit dropped
		{"12:34:56.", 12*h + 34*m + 56*s, true},
		{" 23:59:59.999999 ", 24*h - 1, true},
		{"24:00:00", 24 * h, true},
		{"2020-01-01 07:08:09", 7*h + 8*m + 9*s, true},
		{"2020-01-01T07:08:09", 7*h + 8*m + 9*s, true},
		{"2020-01-01", 0, true},
		{"12:00:00Z", 12 * h, true},
		{"12:00:00+02:30", 12 * h, true},
		{"12:00:00 -05", 12 * h, true},
		{"24:00:01", 0, false},
		{"25:00:00", 0, false},
		{"12:60", 0, false},
		{"12:34:60", 0, false},
		{"-01:00:00", 0, false},
		{"12", 0, false},
		{"12.34.56", 0, false},
		{"abc", 0, false},
		{"", 0, false},
		{"2020-13-01 12:00:00", 0, false},
		{"12:00:00 x", 12 * h, true}, // DuckDB ignores text after the seconds
		{"12:34:56x", 12*h + 34*m + 56*s, true},
		{"12:34:56.5 PM", 12*h + 34*m + 56*s + 500_000, true},
		{"12:34 x", 0, false},
		{"2020-01-01 12:34:56 x", 0, false},
		{"99999999999999999999:00", 0, false},
	} {
		got, ok := ParseTime(tc.in)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("ParseTime(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestAppendTime(t *testing.T) {
	for _, tc := range []struct {
		us   int64
		want string
	}{
		{0, "00:00:00"},
		{45_296_000_000, "12:34:56"},
		{45_296_789_000, "12:34:56.789"},
		{45_296_100_000, "12:34:56.1"},
		{45_296_000_001, "12:34:56.000001"},
		{86_400_000_000, "24:00:00"},
		{86_399_999_999, "23:59:59.999999"},
	} {
		if got := string(AppendTime(nil, tc.us)); got != tc.want {
			t.Errorf("AppendTime(%d) = %q, want %q", tc.us, got, tc.want)
		}
	}
}

func TestTimeOfDay(t *testing.T) {
	// 1960-01-01 03:00:00.25 is -315608399750000 µs: floor, not truncation.
	if got := TimeOfDay(-315_608_399_750_000); got != 3*MicrosPerHour+250_000 {
		t.Errorf("TimeOfDay = %d", got)
	}
	if got := WrapTime(-MicrosPerHour); got != 23*MicrosPerHour {
		t.Errorf("WrapTime(-1h) = %d", got)
	}
}
