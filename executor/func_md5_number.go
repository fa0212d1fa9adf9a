package executor

import (
	"encoding/binary"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// md5_number, md5_number_upper and md5_number_lower: the MD5 digest of a
// string's bytes as numbers, as DuckDB gives them: the 16 bytes read
// little-endian as a UHUGEINT, and its first and last 8 bytes, each read
// little-endian, as UBIGINTs (DuckDB's "upper" is the first half).
func init() {
	s := param{"value", function.Str}
	half := func(first bool) rowFunc {
		return func(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
			d := digestMD5([]byte(a[0].S))
			if first {
				return columnar.UintValue(binary.LittleEndian.Uint64(d[:8])), nil
			}
			return columnar.UintValue(binary.LittleEndian.Uint64(d[8:])), nil
		}
	}
	whole := func(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
		d := digestMD5([]byte(a[0].S))
		n := columnar.Int128{Lo: binary.LittleEndian.Uint64(d[:8]), Hi: int64(binary.LittleEndian.Uint64(d[8:]))} // the bits of the high half
		return columnar.WideValue(columnar.TUhugeint, n), nil
	}
	function.Register(
		scalar("string", "md5_number", "The MD5 digest of the string as a UHUGEINT (its 16 bytes little-endian)", ex("md5_number('abc')"),
			over(columnar.TUhugeint, rows(whole), s)),
		scalar("string", "md5_number_upper", "The first 8 bytes of the MD5 digest of the string, little-endian, as a UBIGINT", ex("md5_number_upper('abc')"),
			over(columnar.TUint64, rows(half(true)), s)),
		scalar("string", "md5_number_lower", "The last 8 bytes of the MD5 digest of the string, little-endian, as a UBIGINT", ex("md5_number_lower('abc')"),
			over(columnar.TUint64, rows(half(false)), s)),
	)
}
