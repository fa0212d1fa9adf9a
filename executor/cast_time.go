package executor

import "github.com/b2sql/b2sql/columnar"

// timeOf is CAST(v AS TIME) for the sources DuckDB accepts: text (see
// columnar.ParseTime) and TIMESTAMP (its time of day). DATE, numbers and
// INTERVAL do not cast to TIME in DuckDB; ok is false for them.
func timeOf(v columnar.Value) (us int64, ok bool) {
	switch {
	case v.Type.IsString():
		return columnar.ParseTime(v.S)
	case v.Type.ID == columnar.Timestamp && columnar.Infinity(v.Type, v.I) == 0:
		return columnar.TimeOfDay(v.I), true
	}
	return 0, false
}
