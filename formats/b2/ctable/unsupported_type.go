package ctable

import "github.com/b2sql/b2sql/columnar"

// unsupportedType is the error for a SQL type no CTable column kind holds.
// TIME gets a way out: python-blosc2 has no time-of-day kind (its kinds
// are numbers, bool, complex, timestamp, strings and bytes), and writing
// the microseconds as int64 would lose the type silently.
func unsupportedType(t columnar.Type) error {
	if t.ID == columnar.Time {
		return unsupportedf("type TIME: a python-blosc2 CTable has no time-of-day column; CAST it to VARCHAR, or store epoch_us(…) (microseconds since midnight) as BIGINT")
	}
	return unsupportedf("type %s", t)
}
