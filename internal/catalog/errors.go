package catalog

import (
	"errors"
	"fmt"

	"github.com/b2sql/b2sql/sql"
)

// Error kinds the catalog and the statements over it report, for
// errors.Is; the module root re-exports them (b2sql.ErrClosed, …).
var (
	// ErrClosed: the database was closed; queries still running when it
	// closed end with it.
	ErrClosed = errors.New("b2sql: database is closed")
	// ErrReadOnly: a write was attempted on a read-only database.
	ErrReadOnly = errors.New("b2sql: database is read-only")
	// ErrOutsideRoot: a path resolves outside the root directory
	// (symbolic links followed).
	ErrOutsideRoot = errors.New("b2sql: path outside the root directory")
	// ErrTableExists: CREATE TABLE names a registered table.
	ErrTableExists = errors.New("b2sql: table already exists")
	// ErrConstraint: a row breaks a column's declared constraint (NOT
	// NULL, CHECK bounds, VARCHAR length) or a key.
	ErrConstraint = errors.New("b2sql: constraint violated")
)

// ErrTransaction is the kind of the errors of transaction control:
// BEGIN within a transaction, COMMIT or ROLLBACK without one, a
// statement in an aborted transaction, a write in a READ ONLY one.
var ErrTransaction = errors.New("b2sql: transaction error")

// ErrConflict is the kind of a COMMIT that found a table or name the
// transaction changed changed by another session since the transaction
// began; nothing of the transaction was applied.
var ErrConflict = errors.New("b2sql: transaction conflict")

// conflictError is COMMIT's error when what name changed under the
// transaction (tx.go).
func conflictError(what, name string) error {
	return &sql.Error{Kind: ErrConflict, Msg: fmt.Sprintf("Transaction conflict: %s %q was changed by another transaction since this one began; nothing of this transaction was applied", what, name)}
}
