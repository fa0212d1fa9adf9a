package strftime

import (
	"testing"
	"time"
)

func TestParseAndFormat(t *testing.T) {
	ts := func(s string) int64 {
		v, err := time.Parse("2006-01-02 15:04:05.999999", s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UnixMicro()
	}
	tests := []struct {
		format, text string
		want         int64 // µs
		ok           bool
		out          string // formatted back ("" = text)
	}{
		{"%Y-%m-%d", "2024-01-05", ts("2024-01-05 00:00:00"), true, ""},
		{"%d/%m/%Y", "25/12/2024", ts("2024-12-25 00:00:00"), true, ""},
		{"%d/%m/%Y", "12/25/2024", 0, false, ""},
		{"%m/%d/%y", "12/25/24", ts("2024-12-25 00:00:00"), true, ""},
		{"%m/%d/%y", "12/25/70", ts("1970-12-25 00:00:00"), true, ""},
		{"%Y%m%d", "20240105", ts("2024-01-05 00:00:00"), true, ""},
		{"%d %b %Y", "05 Jan 2024", ts("2024-01-05 00:00:00"), true, ""},
		{"%d %B %Y", "05 january 2024", ts("2024-01-05 00:00:00"), true, "05 January 2024"},
		{"%Y-%m-%d %H:%M:%S.%f", "2024-01-05 10:30:00.5", ts("2024-01-05 10:30:00.5"), true, "2024-01-05 10:30:00.500000"},
		{"%m-%d-%Y %I:%M:%S %p", "01-05-2024 12:30:00 AM", ts("2024-01-05 00:30:00"), true, ""},
		{"%m-%d-%Y %I:%M:%S %p", "01-05-2024 01:30:00 PM", ts("2024-01-05 13:30:00"), true, ""},
		{"%Y-%m-%dT%H:%M:%S%z", "2024-01-05T10:00:00+02:00", ts("2024-01-05 08:00:00"), true, "2024-01-05T08:00:00+00"},
		{"%Y-%m-%d", "2024-02-30", 0, false, ""},
		{"%Y-%m-%d", "2024-01-05x", 0, false, ""},
		{"%Y-%j", "2024-060", ts("2024-02-29 00:00:00"), true, ""},
		{"%H:%M", "24:00", 0, false, ""},
	}
	for _, tc := range tests {
		f, err := Parse(tc.format)
		if err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		got, ok := f.ParseMicros([]byte(tc.text))
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("%s on %q: %d %v, want %d %v", tc.format, tc.text, got, ok, tc.want, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		want := tc.out
		if want == "" {
			want = tc.text
		}
		if s := string(f.AppendMicros(nil, got)); s != want && tc.format != "%m/%d/%y" {
			t.Errorf("%s: formatted %q, want %q", tc.format, s, want)
		}
	}
	for _, bad := range []string{"%", "%Q", "%-"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
