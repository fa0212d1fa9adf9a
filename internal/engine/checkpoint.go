package engine

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql"
)

// checkpoint runs CHECKPOINT [db] and FORCE CHECKPOINT. In DuckDB it
// moves the write-ahead log into the database file. b2sql has no log to
// move: a statement that changes a table file writes the new version
// beside it, fsyncs it and renames it over the old one before it returns
// (internal/atomicfile), and a transaction stages such versions and
// publishes them at COMMIT (internal/catalog, tx_files.go), so whatever a
// finished statement or COMMIT wrote is already durable, and in-memory
// tables have no file to write. What is left is DuckDB's check of the
// name: the database must exist ("memory", "temp", or an attached one).
func (s *Session) checkpoint(c *sql.Checkpoint) error {
	name := c.Database
	switch {
	case name == "", strings.EqualFold(name, "memory"), strings.EqualFold(name, "temp"):
		return nil
	case s.cat().HasSchema(name):
		return nil
	}
	return &sql.Error{Pos: c.Pos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("database %q not found", name)}
}
