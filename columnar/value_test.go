package columnar

import "testing"

func TestTextForms(t *testing.T) {
	day := int64(MicrosPerDay)
	hour := int64(3_600_000_000)
	cases := []struct {
		v    Value
		want string
	}{
		{IntervalValue(IntervalParts{Days: 2}), "2 days"},
		{IntervalValue(IntervalParts{Days: 1}), "1 day"},
		{IntValue(TInterval, 2*day), "48:00:00"},
		{IntValue(TInterval, 30*60_000_000), "00:30:00"},
		{IntValue(TInterval, 0), "00:00:00"},
		{IntervalValue(IntervalParts{Days: -1, Micros: -hour}), "-1 day -01:00:00"},
		{IntValue(TInterval, 500_000), "00:00:00.5"},
		{IntervalValue(IntervalParts{Days: 3, Micros: hour + 1}), "3 days 01:00:00.000001"},
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

func TestGather(t *testing.T) {
	src := NewVector(TInt64, 5)
	for i := range 5 {
		src.Ints[i] = int64(10 * i)
	}
	src.SetNull(3, 5)
	dst := NewVector(TInt64, 0)
	dst.Gather(src, []int32{4, 3, 0, 3})
	want := []string{"40", "NULL", "0", "NULL"}
	for i, w := range want {
		if got := dst.Value(i).String(); got != w {
			t.Errorf("row %d: got %s, want %s", i, got, w)
		}
	}
	dst.Gather(src, []int32{1, 2}) // reuse clears the old NULLs
	if dst.Valid != nil || dst.Ints[0] != 10 || dst.Ints[1] != 20 {
		t.Errorf("reuse: %v %v", dst.Valid, dst.Ints[:2])
	}
}
