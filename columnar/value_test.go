package columnar

import "testing"

func TestTextForms(t *testing.T) {
	day := int64(MicrosPerDay)
	hour := int64(3_600_000_000)
	cases := []struct {
		v    Value
		want string
	}{
		{IntValue(TInterval, 2*day), "2 days"},
		{IntValue(TInterval, day), "1 day"},
		{IntValue(TInterval, 30*60_000_000), "00:30:00"},
		{IntValue(TInterval, 0), "00:00:00"},
		{IntValue(TInterval, -(day + hour)), "-1 day -01:00:00"},
		{IntValue(TInterval, 500_000), "00:00:00.5"},
		{IntValue(TInterval, 3*day+hour+1), "3 days 01:00:00.000001"},
		{Value{Type: TBlob, S: "\x00\xffz"}, `\x00\xFFz`},
		{Value{Type: TBlob, S: `a'b\`}, `a\x27b\x5C`},
		{FloatValue(TFloat64, 2), "2.0"},
		{FloatValue(TFloat64, 0.1), "0.1"},
		{FloatValue(TFloat64, 1e20), "1e+20"},
		{IntValue(DecimalType(5, 2), -5), "-0.05"},
		{IntValue(TDate, 19723), "2024-01-01"},
		{IntValue(TTimestamp, 1704067200_000000+1500), "2024-01-01 00:00:00.0015"},
	}
	for _, c := range cases {
		if got := c.v.String(); got != c.want {
			t.Errorf("%v: got %q, want %q", c.v.Type, got, c.want)
		}
	}
}
