package sql

import (
	"errors"
	"fmt"
)

// Pos is a position in a script: 1-based line and column, the column
// counting runes (not bytes) so that a caret lines up under the token.
type Pos struct{ Line, Col int }

// Error is a positioned SQL error, the one error type from the parser to
// the embedded API (b2sql.Error is this type). Error() is one line
// ("line L:C: msg", or msg when Pos is zero: an error about no place in
// the text); the REPL adds the source line and a caret.
type Error struct {
	Pos Pos
	// End is the position just past the token the error is about, on
	// Pos's line or a later one (zero when only Pos is known): the REPL
	// underlines Pos up to End.
	End  Pos
	Kind error  // one of the Err* sentinels, for errors.Is
	Msg  string // lower case, names quoted, no final period
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// Unwrap returns Kind so that errors.Is(err, ErrUnknownColumn) works.
func (e *Error) Unwrap() error { return e.Kind }

// Error kinds.
var (
	ErrSyntax          = errors.New("syntax error")
	ErrUnknownColumn   = errors.New("unknown column")
	ErrUnknownTable    = errors.New("unknown table")
	ErrUnknownFunction = errors.New("unknown function")
	ErrAmbiguousColumn = errors.New("ambiguous column")
	ErrType            = errors.New("type error")
	ErrUnsupported     = errors.New("unsupported")
	ErrGrouping        = errors.New("grouping error")
)
