package catalog

import "errors"

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
