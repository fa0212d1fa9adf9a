package executor

import "github.com/b2sql/b2sql/columnar"

// What DuckDB's date functions give for an infinite DATE or TIMESTAMP
// argument ('infinity', '-infinity'): a function that reads the calendar
// (parts, names, epochs, differences) gives NULL; one that moves or
// buckets a date gives the infinity itself; strftime gives its text. A
// function not listed here compares or prints its arguments and needs no
// case (greatest, least, hash, format).
var (
	infinityIsNull = map[string]bool{
		"age": true, "date_diff": true, "date_sub": true, "dayname": true, "monthname": true,
		"epoch_ms": true, "epoch_us": true, "epoch_ns": true, "julian": true, "last_day": true,
		"yearweek": true,
	}
	infinityIsItself = map[string]bool{"time_bucket": true}
)

// guardInfinity wraps the row function f of fn so that infinite DATE and
// TIMESTAMP arguments get DuckDB's answer before f, which reads dates as
// calendar days, sees them.
func guardInfinity(fn string, f rowFunc, args []columnar.Type) rowFunc {
	var temporal []int
	for i, a := range args {
		if a.IsTemporal() {
			temporal = append(temporal, i)
		}
	}
	text := fn == "strftime"
	if len(temporal) == 0 || !infinityIsNull[fn] && !infinityIsItself[fn] && !text {
		return f
	}
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		if fn == "time_bucket" && len(a) == 3 && !a[2].Null && columnar.Infinity(a[2].Type, a[2].I) != 0 {
			return columnar.NullValue(t), nil // an infinite origin has no buckets (DuckDB: NULL)
		}
		for _, i := range temporal {
			s := columnar.Infinity(a[i].Type, a[i].I)
			if a[i].Null || s == 0 {
				continue
			}
			switch {
			case text:
				return columnar.StringValue(a[i].String()), nil
			case infinityIsItself[fn] && t.IsTemporal():
				return columnar.IntValue(t, columnar.InfinityOf(t, s)), nil
			}
			return columnar.NullValue(t), nil
		}
		return f(a, t)
	}
}
