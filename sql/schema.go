package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// Schemas, as DuckDB has them: the database (catalog "memory") holds the
// schema main and those CREATE SCHEMA makes; a relation's name is t,
// s.t, or c.s.t. Temporary tables (catalog "temp") are in-memory tables
// beside the others in b2sql, so temp.t and temp.main.t name the same
// tables as main.t.
//
// A name resolves to one catalog key (relKey): t for a relation of main,
// "s.t" for one of schema s. Every statement and the binder resolve names
// through relKey; the catalog keeps its tables, views and sequences under
// these keys, and the schemas that exist (SchemaCatalog).

// DefaultSchema is the schema an unqualified name is in.
const DefaultSchema = "main"

// SchemaCatalog is what a catalog that has schemas besides main tells the
// binder (a missing schema is reported as such, duckdb_schemas() lists
// them).
type SchemaCatalog interface {
	// HasSchema reports whether schema name exists (main always does).
	HasSchema(name string) bool
	// Schemas lists the schemas, main first, the others as created.
	Schemas() []string
}

// CreateSchema is CREATE [OR REPLACE] SCHEMA [IF NOT EXISTS] name.
type CreateSchema struct {
	Name        string
	NamePos     Pos
	IfNotExists bool
	Replace     bool
}

// DropSchema is DROP SCHEMA [IF EXISTS] name [CASCADE]: CASCADE drops the
// tables, views and sequences in it too.
type DropSchema struct {
	Name     string
	NamePos  Pos
	IfExists bool
	Cascade  bool
}

func (*CreateSchema) statement() {}
func (*DropSchema) statement()   {}

// schemaName reads a schema's name: s or memory.s.
func (b *stmtBuilder) schemaName(n ast.Name) (string, Pos, error) {
	switch {
	case len(n) == 2 && !strings.EqualFold(n[0].Name, "memory") && !strings.EqualFold(n[0].Name, "temp"):
		return "", Pos{}, b.errAt(n[0], ErrUnknownTable, fmt.Sprintf("catalog %q does not exist (b2sql has \"memory\" and \"temp\")", n[0].Name))
	case len(n) > 2:
		return "", Pos{}, b.errAt(n[0], ErrSyntax, fmt.Sprintf("schema name %q has too many parts", b.src.Text[n.Span().Start:n.Span().End]))
	}
	last := n.Last()
	return last.Name, b.pos(last.Start), nil
}

func (b *stmtBuilder) createSchema(s *ast.CreateSchema) (Statement, error) {
	name, pos, err := b.schemaName(s.Name)
	if err != nil {
		return nil, err
	}
	return &CreateSchema{Name: name, NamePos: pos, IfNotExists: s.IfNotExists, Replace: s.OrReplace}, nil
}

func (b *stmtBuilder) dropSchema(s *ast.Drop) (Statement, error) {
	if len(s.Names) != 1 {
		return nil, b.errAt(s.Names[1][0], ErrUnsupported, "DROP SCHEMA takes one name")
	}
	name, pos, err := b.schemaName(s.Names[0])
	if err != nil {
		return nil, err
	}
	return &DropSchema{Name: name, NamePos: pos, IfExists: s.IfExists, Cascade: s.Cascade}, nil
}
