package engine

import (
	"errors"

	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

// A session runs each statement in a transaction of its own (autocommit)
// until BEGIN; from there on its statements read and write the catalog
// of one transaction (catalog.Begin: a snapshot of the database's names,
// in-memory tables changed as versions of their own), which COMMIT
// publishes at once and ROLLBACK drops. As in DuckDB:
//
//   - an error while a statement runs (a constraint, a conversion, a
//     failed commit of its rows) aborts the transaction: every statement
//     but COMMIT and ROLLBACK then fails until one of them ends it, and
//     COMMIT of an aborted transaction rolls it back; an error found
//     before running (syntax, an unknown name, a table that exists) does
//     not abort it;
//   - BEGIN READ ONLY refuses every statement that changes the database,
//     and that refusal, like BEGIN within the transaction, aborts it;
//   - SET, secrets, prepared statements and sequence values are not
//     transactional, and COPY … TO writes its file at once;
//   - a CTable's rows or indexes changed, or a file table created,
//     inside a transaction go to a staged version beside the table's
//     file, which COMMIT publishes, and a dropped file table's file goes
//     at COMMIT (catalog/tx_files.go); ATTACH registers its tables and
//     directory in the transaction's catalog (ROLLBACK forgets them).

// cat is the catalog the session's statements run against: its open
// transaction's, else the database's.
func (s *Session) cat() *catalog.Catalog {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.tx != nil {
		return s.tx.cat
	}
	return s.e.Cat
}

// InTransaction reports whether the session has an open transaction, and
// whether that one is aborted (the REPL shows both in its prompt).
func (s *Session) InTransaction() (open, aborted bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.tx != nil, s.tx != nil && s.tx.aborted
}

// Begin starts a transaction (BEGIN; database/sql's BeginTx).
func (s *Session) Begin(readOnly bool, pos sql.Pos) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tx != nil {
		return txError(pos, "cannot start a transaction within a transaction")
	}
	cat, err := s.e.Cat.Begin()
	if err != nil {
		return err
	}
	s.tx = &txn{cat: cat, readOnly: readOnly}
	return nil
}

// Commit ends the open transaction, publishing its changes (or, when it
// is aborted, dropping them).
func (s *Session) Commit(pos sql.Pos) error {
	tx, err := s.end(pos, "commit")
	if err != nil || tx.aborted {
		return err
	}
	return tx.cat.CommitTransaction()
}

// Rollback ends the open transaction, dropping its changes.
func (s *Session) Rollback(pos sql.Pos) error {
	_, err := s.end(pos, "rollback")
	return err
}

// Close ends the session: an open transaction is rolled back.
func (s *Session) Close() {
	s.mu.Lock()
	tx := s.tx
	s.tx = nil
	s.mu.Unlock()
	if tx != nil {
		tx.cat.RollbackTransaction()
	}
}

// end detaches the open transaction from the session (rolled back unless
// the caller commits it).
func (s *Session) end(pos sql.Pos, what string) (*txn, error) {
	s.mu.Lock()
	tx := s.tx
	s.tx = nil
	s.mu.Unlock()
	if tx == nil {
		return nil, txError(pos, "cannot "+what+" - no transaction is active")
	}
	if what == "rollback" || tx.aborted {
		tx.cat.RollbackTransaction()
	}
	return tx, nil
}

// transaction runs BEGIN, COMMIT or ROLLBACK.
func (s *Session) transaction(t *sql.Transaction) error {
	switch t.Kind {
	case "BEGIN":
		return s.Begin(t.ReadOnly, t.Pos)
	case "COMMIT":
		return s.Commit(t.Pos)
	}
	return s.Rollback(t.Pos)
}

// admit refuses a statement in an aborted transaction, or one that
// changes the database in a READ ONLY transaction.
func (s *Session) admit(stmt sql.Statement, pos sql.Pos) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	switch {
	case s.tx == nil:
		return nil
	case s.tx.aborted:
		return txError(pos, "Current transaction is aborted (please ROLLBACK)")
	case s.tx.readOnly && changesDatabase(stmt):
		return txError(pos, `Cannot write to database "memory" - transaction is launched in read-only mode`)
	}
	return nil
}

// failed aborts the open transaction when err is an error of running:
// it came once the statement's plan ran, or is of no kind the binder
// and the catalog give.
func (s *Session) failed(err error, running bool) {
	if err == nil || !running && !aborts(err) {
		return
	}
	s.mu.Lock()
	if s.tx != nil {
		s.tx.aborted = true
	}
	s.mu.Unlock()
}

// aborts reports whether err aborts a transaction: DuckDB's binder and
// catalog errors (found before anything ran) do not; the errors of
// running do, and so do BEGIN within the transaction and a write in a
// READ ONLY one (ErrTransaction), as in DuckDB.
func aborts(err error) bool {
	var e *sql.Error
	if !errors.As(err, &e) {
		return true
	}
	for _, k := range []error{sql.ErrSyntax, sql.ErrUnknownColumn, sql.ErrUnknownTable, sql.ErrUnknownFunction,
		sql.ErrAmbiguousColumn, sql.ErrType, sql.ErrUnsupported, sql.ErrGrouping, sql.ErrParam,
		sql.ErrUnknownPrepared, catalog.ErrTableExists, catalog.ErrReadOnly} {
		if errors.Is(err, k) {
			return false
		}
	}
	return true
}

// changesDatabase reports whether stmt changes tables or names (what a
// READ ONLY transaction refuses); COPY … TO (sql.Copy) writes a file,
// not the database, and COPY … FROM is an sql.Insert.
func changesDatabase(stmt sql.Statement) bool {
	switch stmt.(type) {
	case *sql.Insert, *sql.Update, *sql.Delete, *sql.CreateTable, *sql.CreateTableAs, *sql.DropTable,
		*sql.CreateView, *sql.DropView, *sql.CreateSequence, *sql.DropSequence, *sql.CreateMacro, *sql.DropMacro,
		*sql.CreateType, *sql.DropType, *sql.CreateSchema, *sql.DropSchema, *sql.CreateIndex, *sql.DropIndex,
		*sql.Reindex, *sql.Comment, *sql.Attach, *sql.Detach, *sql.WithWrites:
		return true
	}
	return false
}

func txError(pos sql.Pos, msg string) error {
	return &sql.Error{Pos: pos, Kind: catalog.ErrTransaction, Msg: msg}
}
