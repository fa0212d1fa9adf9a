package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// Checkpoint is CHECKPOINT [database] or FORCE CHECKPOINT: DuckDB's
// statement that writes the write-ahead log into the database file. The
// engine checks the database name and does nothing else (engine
// checkpoint.go says why).
type Checkpoint struct {
	Database string // "" for the current database
	Force    bool
	Pos      Pos
}

func (*Checkpoint) statement() {}

// checkpoint builds CHECKPOINT; ok is false for the other statements of
// ast.Simple, which stay with parseLegacy.
func (b *stmtBuilder) checkpoint(s *ast.Simple) (Statement, bool) {
	if s.Kind != "CHECKPOINT" && s.Kind != "FORCE CHECKPOINT" {
		return nil, false
	}
	name := ""
	if len(s.Name) > 0 {
		name = s.Name.Last().Name
	}
	return &Checkpoint{Database: name, Force: strings.HasPrefix(s.Kind, "FORCE"), Pos: b.pos(s.Start)}, true
}
