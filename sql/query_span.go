package sql

import "github.com/b2sql/b2sql/sql/ast"

// tokSpan is the span of tokens of node n.
func (q *Query) tokSpan(n ast.Node) (lo, hi int) {
	s := n.Extent()
	return q.tokAt(s.Start), q.tokAt(s.End)
}

func (q *Query) spanOf(n ast.Node) span {
	lo, hi := q.tokSpan(n)
	return span{lo, hi}
}
