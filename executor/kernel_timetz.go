package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// DuckDB's min and max of TIME WITH TIME ZONE compare its stored bits —
// the local time of day, then the larger offset first — where its
// comparison operators and ORDER BY go by the UTC instant (columnar
// timetz.go). The binder makes min(x) arg_min(x, timetz_local_key(x)) to
// give DuckDB's answer.
//
//	timetz_local_key(TIMETZ)  BIGINT  local µs · 2^24 + (15:59:59 − offset)
func init() {
	function.Register(internalRows("datetime", "timetz_local_key", "the order DuckDB's min/max of TIME WITH TIME ZONE use", fnTimeTZLocalKey))
}

func fnTimeTZLocalKey(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	us, off := columnar.TimeTZParts(a[0].I)
	return columnar.IntValue(t, us<<24|int64(columnar.MaxTimeTZOffset-off)), nil
}
