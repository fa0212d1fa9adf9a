package sql

import (
	"errors"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/planner"
)

// bindFileCall binds a file table function (read_csv(…), read_parquet([…],
// hive_partitioning = true)) to a scan of what the catalog opens; an alias
// with a column list, AS t(a, b), renames the first columns.
func (b *binder) bindFileCall(call *FileCall, alias string, cols []string, at, aliasAt int) (planner.Node, error) {
	tbl, err := b.openFileCall(call)
	if err != nil {
		var se *Error
		if errors.As(err, &se) && se.Pos != (Pos{}) {
			return nil, se
		}
		what := call.Paths[0]
		if len(call.Paths) > 1 {
			what = strings.Join(call.Paths, ", ")
		}
		return nil, &Error{Pos: call.PathPos, Kind: ErrUnknownTable, Msg: fmt.Sprintf("cannot open %q: %v", what, err)}
	}
	if alias == "" {
		alias = call.Func
	}
	if alias == "" {
		alias = "copy_source"
	}
	s := b.scan(tbl, call.Paths[0], alias)
	if len(cols) > 0 {
		if n := visibleCols(itemOf(s, alias)); len(cols) > n {
			return nil, b.errAt(aliasAt, ErrType,
				fmt.Sprintf("table %q has %d columns but %d column names were given", alias, n, len(cols)))
		}
		for i, n := range cols {
			s.Cols[i].Name = n
		}
	}
	return s, nil
}
