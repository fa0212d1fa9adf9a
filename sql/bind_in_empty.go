package sql

import "github.com/dolthub/vitess/go/vt/sqlparser"

// markEmptyIn stands in for the empty list of x IN () (rewrite.go): as in
// SQLite, x IN () is FALSE and x NOT IN () TRUE even when x is NULL, since
// no value of the (empty) list can be equal or unknown.
const markEmptyIn = "b2sql:empty_in"

func isEmptyIn(tuple sqlparser.ValTuple) bool {
	if len(tuple) != 1 {
		return false
	}
	v, ok := tuple[0].(*sqlparser.SQLVal)
	return ok && v.Type == sqlparser.StrVal && string(v.Val) == markEmptyIn
}
