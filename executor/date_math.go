package executor

import "time"

// julianEpoch is the Julian day number of 1970-01-01.
const julianEpoch = 2440588

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// yearWeek is the ISO year × 100 + the ISO week, the week negative with a
// negative year (DuckDB: -1000 week 11 is -100011).
func yearWeek(tm time.Time) int64 {
	y, w := tm.ISOWeek()
	if y < 0 {
		return int64(y)*100 - int64(w)
	}
	return int64(y)*100 + int64(w)
}
