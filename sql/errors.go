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

// WithEnd returns err with its End set when it is an *Error positioned
// in src without one (errors built from a statement's recorded positions,
// as internal/dml builds them): the end of the token at Pos, so that the
// caret underlines the whole name or value. Other errors, and *Error
// values wrapped in others, are returned as they are.
func WithEnd(src Source, err error) error {
	var e *Error
	if !errors.As(err, &e) || e.End != (Pos{}) || e.Pos.Line <= 0 {
		return err
	}
	off, ok := offsetOf(src, e.Pos)
	if !ok {
		return err
	}
	if err != error(e) {
		return err // wrapped: left as it is
	}
	c := *e
	c.End = posIn(src.Text, tokenEnd(src.Text, off), Pos{src.Line, src.Col})
	return &c
}

// offsetOf is the byte offset of position p in src.Text (p is in the
// script src sits in), ok false when p is outside src.
func offsetOf(src Source, p Pos) (int, bool) {
	line, col := max(src.Line, 1), max(src.Col, 1)
	for off, r := range src.Text {
		if line == p.Line && col == p.Col {
			return off, true
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return 0, false
}
