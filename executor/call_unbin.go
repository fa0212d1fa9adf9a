package executor

import (
	"fmt"
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// fnUnbin is unbin(text) (from_binary): the BLOB whose bits the text's
// binary digits spell, most significant first; a text whose length is
// not a multiple of 8 is padded with zeros on the left ('101' is \x05),
// as in DuckDB.
func fnUnbin(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	s := a[0].S
	out := make([]byte, (len(s)+7)/8)
	bit := len(out)*8 - len(s) // the first digit's place, after the padding
	for i := 0; i < len(s); i, bit = i+1, bit+1 {
		switch s[i] {
		case '0':
		case '1':
			out[bit/8] |= 0x80 >> (bit % 8)
		default:
			return columnar.Value{}, fmt.Errorf("unbin: %q is not a binary digit", s[i])
		}
	}
	return columnar.Value{Type: t, S: string(out)}, nil
}

// fnMakeTimestampMS is make_timestamp_ms(ms): the TIMESTAMP of
// milliseconds since 1970; one whose microseconds overflow is an error.
func fnMakeTimestampMS(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	ms := a[0].I
	if ms > (math.MaxInt64-1)/1000 || ms < -(math.MaxInt64-1)/1000 {
		return columnar.Value{}, fmt.Errorf("make_timestamp_ms: %d milliseconds is out of the TIMESTAMP range", ms)
	}
	return fnMakeTimestamp([]columnar.Value{columnar.IntValue(columnar.TInt64, ms*1000)}, t)
}
