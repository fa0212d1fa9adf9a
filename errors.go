package b2sql

import (
	"errors"
	"fmt"

	"github.com/b2sql/b2sql/sql"
)

// Pos is a position in the SQL text: 1-based line and column, the column
// counting runes. The zero Pos means the error has no position.
type Pos struct{ Line, Col int }

// Error is a typed error from the embedded API: where in the SQL text it
// happened, what kind it is (one of the Err* sentinels below, for
// errors.Is) and a one-line message. Error() is "line L:C: msg", or just
// msg without a position.
//
// Errors that are not about the SQL text (a context's cancellation, a
// corrupt file found mid-scan) are returned as they are, not as *Error:
// a cancelled query returns exactly ctx.Err().
type Error struct {
	Pos  Pos
	Kind error  // ErrSyntax, ErrUnknownColumn, … ; never nil
	Msg  string // lower case, names quoted, no final period

	cause error // the *sql.Error this one converts, if any
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// Unwrap returns the Kind (so errors.Is(err, ErrUnknownColumn) holds) and,
// for errors from the SQL front end, the original *sql.Error (so
// errors.As(err, new(*sql.Error)) keeps working).
func (e *Error) Unwrap() []error {
	if e.cause != nil {
		return []error{e.Kind, e.cause}
	}
	return []error{e.Kind}
}

// Error kinds, for errors.Is. The SQL ones are the sql package's
// sentinels, so a check against either spelling matches.
var (
	ErrSyntax          = sql.ErrSyntax
	ErrUnknownColumn   = sql.ErrUnknownColumn
	ErrUnknownTable    = sql.ErrUnknownTable
	ErrUnknownFunction = sql.ErrUnknownFunction
	ErrAmbiguousColumn = sql.ErrAmbiguousColumn
	ErrType            = sql.ErrType
	ErrUnsupported     = sql.ErrUnsupported
	ErrGrouping        = sql.ErrGrouping
	ErrParam           = sql.ErrParam // wrong number or type of ? arguments

	// ErrClosed: the DB (or the Stmt) was closed; queries still running
	// when DB.Close was called end with it.
	ErrClosed = errors.New("b2sql: database is closed")
	// ErrReadOnly: a write was attempted on a DB opened WithReadOnly.
	ErrReadOnly = errors.New("b2sql: database is read-only")
	// ErrOutsideRoot: a path resolves outside the directory given to
	// WithRoot (symbolic links followed).
	ErrOutsideRoot = errors.New("b2sql: path outside the root directory")
	// ErrTableExists: CREATE TABLE names a registered table.
	ErrTableExists = errors.New("b2sql: table already exists")
	// ErrScan: Rows.Scan could not store a value in a destination.
	ErrScan = errors.New("b2sql: cannot scan value")
)

// apiError converts errors from the SQL front end into *Error; any other
// error is returned unchanged.
func apiError(err error) error {
	var se *sql.Error
	if err == nil || !errors.As(err, &se) {
		return err
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Pos: Pos{se.Pos.Line, se.Pos.Col}, Kind: se.Kind, Msg: se.Msg, cause: se}
}

// errorf returns an unpositioned *Error of kind.
func errorf(kind error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}
