package executor

import (
	"math"
	"math/big"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// avg(INTERVAL) is an INTERVAL in DuckDB: the months, days and
// microseconds are summed apart and the sums divided by the count as
// PostgreSQL divides an interval, each field's remainder carried down to
// the next (a month as 30 days, a day as 24 hours). The binder plans it as
// three BIGINT sums of interval_part(x, k) and count(x) (sql
// bind_agg_time.go), which the fast, parallel int64 aggregation runs.
//
//	interval_part(INTERVAL, k)          BIGINT    k = 0 months, 1 days, 2 microseconds
//	interval_avg(months, days, us, n)   INTERVAL  the sums' average
//	interval_list_avg(LIST)             INTERVAL  the same over a list's non-NULL values
//
// avg(DISTINCT x) averages list(DISTINCT x): the fields of distinct
// intervals need not be distinct.
func init() {
	function.Register(
		internal(scalar("interval", "interval_part", "field k (a constant: 0 months, 1 days, 2 microseconds) of an INTERVAL", nil,
			function.Overload{Args: []function.Arg{function.Any, function.Any}, Kernel: func(_ []columnar.Type, consts []*columnar.Value, _ columnar.Type) (function.Kernel, error) {
				if consts[1] == nil || consts[1].I < 0 || consts[1].I > 2 {
					return nil, errorf("interval_part takes an INTERVAL and a constant field number 0..2")
				}
				return function.Kernel(intervalPartKernel(int(consts[1].I))), nil
			}})),
		internalRows("interval", "interval_avg", "the average INTERVAL of field sums and a count, divided as DuckDB divides", fnIntervalAvg),
		internalRows("interval", "interval_list_avg", "the average of a list's INTERVALs (avg(DISTINCT x) over list(DISTINCT x))", fnIntervalListAvg),
	)
}

func intervalPartKernel(k int) kernel {
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x := args[0]
		b.ForEach(func(i int) {
			if out.Valid != nil && !out.Valid.Get(i) {
				return
			}
			iv := x.IntervalAt(idx(x, i))
			switch k {
			case 0:
				out.Ints[i] = int64(iv.Months)
			case 1:
				out.Ints[i] = int64(iv.Days)
			default:
				out.Ints[i] = iv.Micros
			}
		})

		return nil
	}
}

// fnIntervalAvg divides the field sums by the count n: each field's
// quotient, the months' remainder moved to days, the days' remainder to
// microseconds. DuckDB adds the microseconds' own remainder undivided
// (avg of 1 µs, 0, 0 is 1 µs), and so does this, to answer as it does.
// maxDaysRem bounds a days remainder whose microseconds fit an int64.
const maxDaysRem = math.MaxInt64 / columnar.MicrosPerDay

func fnIntervalAvg(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
	return intervalAvg(a[0].I, a[1].I, a[2].I, a[3].I)
}

func fnIntervalListAvg(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
	var m, d, u, n int64
	for _, e := range a[0].Elems {
		if e.Null {
			continue
		}
		iv := e.Interval()
		r := u + iv.Micros
		if (u^r)&(iv.Micros^r) < 0 {
			return columnar.Value{}, errorf("overflow in SUM of INTERVAL")
		}
		m, d, u, n = m+int64(iv.Months), d+int64(iv.Days), r, n+1
	}
	return intervalAvg(m, d, u, n)
}

func intervalAvg(m, d, u, n int64) (columnar.Value, error) {
	if n == 0 {
		return columnar.NullValue(columnar.TInterval), nil
	}
	months, monthsRem := m/n, m%n
	days, daysRem := d/n, d%n
	micros, microsRem := u/n, u%n
	monthsRem *= columnar.DaysPerMonth
	days += monthsRem / n
	daysRem += monthsRem % n
	if daysRem > -maxDaysRem && daysRem < maxDaysRem {
		microsRem += daysRem * columnar.MicrosPerDay / n
	} else { // past 10^8 rows the product leaves 64 bits
		q := new(big.Int).Mul(big.NewInt(daysRem), big.NewInt(columnar.MicrosPerDay))
		microsRem += q.Quo(q, big.NewInt(n)).Int64()
	}
	micros += microsRem
	if months != int64(int32(months)) || days != int64(int32(days)) {
		return columnar.Value{}, errorf("interval value is out of range")
	}
	return columnar.IntervalValue(columnar.IntervalParts{Months: int32(months), Days: int32(days), Micros: micros}), nil
}
