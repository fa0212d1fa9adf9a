package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// INSERT … VALUES casts each value to the column it fills, as DuckDB
// does, so that rows may spell one column differently: ('  123 ', 1),
// (456, 2) into a BIGINT column, where a VALUES list of its own refuses
// to combine VARCHAR with INTEGER. Each value is cast on its own, not
// combined with the others first: '2024-01-01 10:00' and DATE
// '2024-02-02' into a TIMESTAMP keep the time, where combining them
// would make a DATE of both.

// SetTargetTypes gives the types of the table columns the values of q's
// VALUES rows fill, by their place in the row: q's body only, not a
// VALUES in its FROM (INSERT … SELECT * FROM (VALUES …) combines its
// values first, as DuckDB does).
func (q *Query) SetTargetTypes(ts []columnar.Type) { q.targets = ts }

// castToTarget casts each of xs (whose syntax is srcs) to t, as CAST does.
// A constant that does not convert ('seven' into an INTEGER) is cast when
// the INSERT runs, not refused here: as in DuckDB, the conversion error is
// one of running, which aborts an open transaction, where an error of
// binding does not.
func (b *binder) castToTarget(xs []planner.Expr, srcs []callexpr.Expr, t columnar.Type, c ectx) ([]planner.Expr, columnar.Type, error) {
	for r, x := range xs {
		y, err := b.castTo(x, srcs[r], t, false, c)
		if err != nil {
			if _, ok := x.(*planner.Const); !ok || !canCast(x.Type(), t) {
				return nil, t, err
			}
			y = &planner.Cast{Arg: x, To: t}
		}
		xs[r] = y
	}
	return xs, t, nil
}
