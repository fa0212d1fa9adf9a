package parser

import (
	"fmt"
	"strconv"

	"github.com/b2sql/b2sql/sql/ast"
)

// Error is a syntax error: Offset is the byte offset in the script of the
// token it is about (len(script) at the end of the input), Line and Col
// the same position 1-based (Col in runes).
type Error struct {
	Offset    int
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d:%d: %s", e.Line, e.Col, e.Msg) }

func errorAt(src string, off int, msg string) *Error {
	l, c := ast.LineCol(src, off)
	return &Error{Offset: off, Line: l, Col: c, Msg: msg}
}

// quote quotes s for a message as PostgreSQL does: "FROM".
func quote(s string) string { return strconv.Quote(s) }
