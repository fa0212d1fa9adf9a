package columnar

import (
	"testing"
	"time"
)

func TestTimestampUnitConversions(t *testing.T) {
	at := func(s string) time.Time {
		tm, err := time.Parse("2006-01-02 15:04:05.999999999", s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	cases := []struct {
		name string
		text string
		typ  Type
		want int64 // the payload, computed from time.Time
	}{
		{"ns keeps nine digits", "2020-01-01 12:00:00.123456789", TTimestampNS, at("2020-01-01 12:00:00.123456789").UnixNano()},
		{"ns before 1970", "1960-01-01 12:00:00.723456789", TTimestampNS, at("1960-01-01 12:00:00.723456789").UnixNano()},
		{"ms rounds up", "2020-01-01 12:00:00.7239", TTimestampMS, at("2020-01-01 12:00:00.724").UnixMilli()},
		{"ms half away from the epoch", "1960-01-01 12:00:00.0005", TTimestampMS, at("1960-01-01 12:00:00.000").UnixMilli()},
		{"s half up after 1970", "2020-01-01 12:00:00.5", TTimestampS, at("2020-01-01 12:00:01").Unix()},
		{"s half down before 1970", "1969-12-31 23:59:59.5", TTimestampS, at("1969-12-31 23:59:59").Unix()},
		{"s nearest before 1970", "1969-12-31 23:59:59.6", TTimestampS, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got int64
			var ok bool
			if tc.typ.ID == TimestampNS {
				got, ok = ParseTimestampNS(tc.text)
			} else {
				us, _, pok := ParseTimestamp(tc.text)
				if !pok {
					t.Fatalf("ParseTimestamp(%q) failed", tc.text)
				}
				got, ok = MicrosToUnit(tc.typ, us)
			}
			if !ok || got != tc.want {
				t.Fatalf("got %d, %v; want %d", got, ok, tc.want)
			}
			// Printing reads back the same instant.
			txt := string(AppendTimestampUnit(nil, tc.typ, got))
			if !TimestampUnitToTime(tc.typ, got).Equal(at(txt)) {
				t.Fatalf("printed %q, which is not %v", txt, TimestampUnitToTime(tc.typ, got))
			}
		})
	}
}

func TestTimestampUnitRanges(t *testing.T) {
	if _, ok := ParseTimestampNS("2262-04-12 00:00:00"); ok {
		t.Error("2262-04-12 fits no int64 of nanoseconds")
	}
	if _, ok := MicrosToUnit(TTimestampNS, time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()); ok {
		t.Error("3000-01-01 fits no int64 of nanoseconds")
	}
	// NS to TIMESTAMP truncates toward zero, as DuckDB.
	if us, _ := UnitToMicros(TTimestampNS, -1); us != 0 {
		t.Errorf("-1ns as TIMESTAMP = %d, want 0", us)
	}
	if us, _ := UnitToMicros(TTimestampNS, 1999); us != 1 {
		t.Errorf("1999ns as TIMESTAMP = %d, want 1", us)
	}
	// Coarser to finer is exact; finer to coarser is refused (DuckDB).
	if v, ok := UnitToUnit(TTimestampS, TTimestampNS, 3); !ok || v != 3e9 {
		t.Errorf("3s as NS = %d, %v", v, ok)
	}
	if _, ok := UnitToUnit(TTimestampNS, TTimestampMS, 3e9); ok {
		t.Error("NS to MS must be refused")
	}
	for _, typ := range []Type{TTimestampS, TTimestampMS, TTimestampNS} {
		inf := InfinityOf(TTimestamp, 1)
		if v, ok := MicrosToUnit(typ, inf); !ok || Infinity(typ, v) != 1 || string(AppendTimestampUnit(nil, typ, v)) != "infinity" {
			t.Errorf("%s: infinity is %d", typ, v)
		}
	}
	for p, want := range map[int]Type{0: TTimestampS, 3: TTimestampMS, 6: TTimestamp, 9: TTimestampNS} {
		if got, ok := TimestampUnitType(p); !ok || got != want {
			t.Errorf("TIMESTAMP(%d) = %s", p, got)
		}
	}
}
