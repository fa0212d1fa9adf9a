package ctable

import "github.com/b2sql/b2sql/columnar"

// unsupportedType is the error for a SQL type no CTable column kind holds.
// TIME gets a way out: python-blosc2 has no time-of-day kind (its kinds
// are numbers, bool, complex, timestamp, strings and bytes), and writing
// the microseconds as int64 would lose the type silently. BIT likewise:
// no kind holds a string of bits, and its text or bytes in a string or
// bytes column would read back as VARCHAR or BLOB.
func unsupportedType(t columnar.Type) error {
	switch t.ID {
	case columnar.Time:
		return unsupportedf("type TIME: a python-blosc2 CTable has no time-of-day column; CAST it to VARCHAR, or store epoch_us(…) (microseconds since midnight) as BIGINT")
	case columnar.Bit:
		return unsupportedf("type BIT: a python-blosc2 CTable has no bit-string column; CAST it to VARCHAR (its text, as DuckDB writes BIT to Parquet)")
	}
	return unsupportedf("type %s", t)
}
