package b2sql

import (
	"errors"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

// Pos is a position in the SQL text: 1-based line and column, the column
// counting runes. The zero Pos means the error has no position.
type Pos = sql.Pos

// Error is the one error type of b2sql, from the parser to the API: where
// in the SQL text it happened, what kind it is (one of the Err* sentinels
// below, for errors.Is) and a one-line message. Error() is
// "line L:C: msg", or just msg without a position. It is the SQL front
// end's *sql.Error.
//
// Errors that are not about the SQL text (a context's cancellation, a
// corrupt file found mid-scan) are returned as they are, not as *Error:
// a cancelled query returns exactly ctx.Err().
type Error = sql.Error

// Error kinds, for errors.Is. The SQL ones are the sql package's
// sentinels, the others the catalog's, so a check against either spelling
// matches.
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
	ErrClosed = catalog.ErrClosed
	// ErrReadOnly: a write was attempted on a DB opened WithReadOnly.
	ErrReadOnly = catalog.ErrReadOnly
	// ErrOutsideRoot: a path resolves outside the directory given to
	// WithRoot (symbolic links followed).
	ErrOutsideRoot = catalog.ErrOutsideRoot
	// ErrTableExists: CREATE TABLE names a registered table.
	ErrTableExists = catalog.ErrTableExists
	// ErrConstraint: a row breaks a column's declared constraint (NOT NULL,
	// CHECK bounds, VARCHAR length) or a key.
	ErrConstraint = catalog.ErrConstraint
	// ErrTransaction: transaction control out of place (BEGIN within a
	// transaction, COMMIT or ROLLBACK without one), a statement in a
	// transaction an error aborted, a write in a READ ONLY one.
	ErrTransaction = catalog.ErrTransaction
	// ErrConflict: COMMIT found a table or name the transaction changed
	// changed by another session since it began; nothing of the
	// transaction was applied.
	ErrConflict = catalog.ErrConflict
	// ErrScan: Rows.Scan could not store a value in a destination.
	ErrScan = errors.New("b2sql: cannot scan value")
)

// errorf returns an unpositioned *Error of kind.
func errorf(kind error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// mismatch is Scan's error for a value its destination cannot hold.
func mismatch(v columnar.Value, dest any) error {
	return fmt.Errorf("cannot store %s in %T", v.Type, dest)
}
