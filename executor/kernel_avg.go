package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// AVG of an integer or DECIMAL is bound as its exact SUM and its COUNT
// (sql exactAvg) and divided here, once, as DuckDB divides
// (columnar.AvgFloat): the states, the parallel merge, grouping sets and
// the CTable index all keep the exact sum, and only this division makes
// the DOUBLE.
//
//	avg_of_sum(sum, count, narrow)  DOUBLE  sum BIGINT, HUGEINT or DECIMAL(38,s);
//	                                        narrow: the argument was SMALLINT or DECIMAL(≤4)
func init() {
	function.Register(internalRows("math", "avg_of_sum", "AVG from an exact sum and a count, divided as DuckDB divides", fnAvgOfSum))
}

func fnAvgOfSum(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	sum, n := a[0], a[1].I
	if n == 0 {
		return columnar.NullValue(t), nil
	}
	var x columnar.Int128
	if sum.Type.Wide() {
		x = sum.Wide128()
	} else {
		x = columnar.Int128Of(sum.I)
	}
	s := 0
	if sum.Type.ID == columnar.Decimal || sum.Type.ID == columnar.Decimal128 {
		s = int(sum.Type.Scale)
	}
	return columnar.FloatValue(t, columnar.AvgFloat(x, n, s, a[2].I != 0)), nil
}
