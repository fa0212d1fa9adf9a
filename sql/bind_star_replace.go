package sql

import (
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// DuckDB's SELECT * REPLACE (expr AS col, …): the star's columns with col
// computed by expr instead (rewrite.go cuts the list out of the text and
// keeps its token range by the star's ordinal; it is parsed here on its
// own).

type starReplacement struct {
	name string
	expr callexpr.Expr
	sp   span // the list's tokens, for error positions
}
