package sql

import (
	"strconv"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// expandOrderAll turns DuckDB's ORDER BY ALL [ASC|DESC] [NULLS FIRST|LAST]
// (parsed as ORDER BY 1) into ORDER BY 1, 2, …, n over the n select
// items, each with the same direction and NULLS placement.
func (b *binder) expandOrderAll(n int) {
	sel := b.q.sel
	if !b.q.rw.orderAll || len(sel.OrderBy) != 1 || n <= 1 {
		return
	}
	dir := sel.OrderBy[0].Direction
	nulls, hasNulls := b.q.rw.nulls[0]
	order := make(sqlparser.OrderBy, n)
	for k := range n {
		order[k] = &sqlparser.Order{Expr: sqlparser.NewIntVal([]byte(strconv.Itoa(k + 1))), Direction: dir}
		if hasNulls {
			b.q.rw.nulls[k] = nulls
		}
	}
	sel.OrderBy = order
}
