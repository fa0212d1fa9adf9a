package executor

import (
	"fmt"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// More date functions of DuckDB (see planner/functions.go):
//
//	make_date(y, m, d)    DATE       an error for a day that does not exist
//	last_day(x)           DATE       the last day of x's month
//	dayname(x), monthname(x)  VARCHAR  English names
//	epoch_ms(x)           BIGINT milliseconds of a DATE/TIMESTAMP, or the
//	                      TIMESTAMP of a BIGINT count of milliseconds
func init() {
	for name, f := range map[string]rowFunc{
		"epoch_ms": fnEpochMs,
	} {
		moreFuncs[name] = struct {
			f      rowFunc
			strict bool
		}{f, true}
	}
}

func fnMakeDate(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	y, m, d := a[0].I, a[1].I, a[2].I
	if y < -290000 || y > 290000 || m < 1 || m > 12 || d < 1 || d > 31 {
		return columnar.Value{}, fmt.Errorf("make_date: %d-%d-%d is not a valid date", y, m, d)
	}
	tm := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
	if tm.Day() != int(d) {
		return columnar.Value{}, fmt.Errorf("make_date: %d-%d-%d is not a valid date", y, m, d)
	}
	return columnar.IntValue(t, floorDiv(tm.Unix(), 86400)), nil
}

func dateTime(v columnar.Value) time.Time { return time.UnixMicro(micros(v)).UTC() }

func fnLastDay(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	tm := dateTime(a[0])
	last := time.Date(tm.Year(), tm.Month()+1, 0, 0, 0, 0, 0, time.UTC)
	return columnar.IntValue(t, floorDiv(last.Unix(), 86400)), nil
}

func fnDayName(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.StringValue(dateTime(a[0]).Weekday().String()), nil
}

func fnMonthName(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.StringValue(dateTime(a[0]).Month().String()), nil
}

func fnEpochMs(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if t.ID == columnar.Timestamp {
		ms := a[0].I
		if ms > (1<<63-1)/1000 || ms < -(1<<63-1)/1000 {
			return columnar.Value{}, fmt.Errorf("epoch_ms: %d is out of the TIMESTAMP range", ms)
		}
		return columnar.IntValue(t, ms*1000), nil
	}
	return columnar.IntValue(t, floorDiv(micros(a[0]), 1000)), nil
}
