package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// Attach is ATTACH [OR REPLACE] [DATABASE] [IF NOT EXISTS] 'path' [AS
// name] [(options)]: a named database (internal/catalog/attach.go), in
// memory for ':memory:', else the directory path, whose table files are
// its tables (name.t). Without AS the name is the path's file name up to
// its first dot, as DuckDB names it (':memory:' is "memory").
type Attach struct {
	Path        string
	PathPos     Pos
	Alias       string
	IfNotExists bool
	OrReplace   bool
	// ReadOnly is the READ_ONLY option: statements that would change the
	// database's tables are refused.
	ReadOnly bool
}

// Detach is DETACH [DATABASE] [IF EXISTS] name: a database ATTACH made
// goes, with its names; an in-memory one with its tables, a directory's
// tables stay in their files.
type Detach struct {
	Name     string
	NamePos  Pos
	IfExists bool
}

// Use is USE name or USE database.schema: the session's later statements
// resolve unqualified names in that database or schema (the engine
// checks that it exists and makes it the session's Path).
type Use struct {
	Names []string // one or two parts
	Pos   Pos
}

// Path is where a session's unqualified names resolve, as USE set it:
// in Database, a database ATTACH made, or in Schema, a schema of the
// default database; the zero Path is the default database's main.
// b2sql keeps an attached database's relations, as a schema's, under
// keys prefixed by its name (relKey), so either is a key prefix.
type Path struct {
	Database, Schema string
}

// prefix is the catalog key prefix of an unqualified name ("" for main).
func (p Path) prefix() string {
	if p.Database != "" {
		return p.Database
	}
	return p.Schema
}

// PathCatalog is a catalog that knows its session's Path (USE).
type PathCatalog interface {
	SearchPath() Path
}

// pathOf is the Path of catalog c (the zero Path when it keeps none).
func pathOf(c any) Path {
	if pc, ok := c.(PathCatalog); ok {
		return pc.SearchPath()
	}
	return Path{}
}

// MemoryPath is the path of an in-memory database, as DuckDB names it.
const MemoryPath = ":memory:"

func (*Attach) statement() {}
func (*Detach) statement() {}
func (*Use) statement()    {}

func (b *stmtBuilder) attach(s *ast.Attach) (Statement, error) {
	path, ok := s.Path.(*ast.Literal)
	if !ok || path.Kind != ast.LitString {
		return nil, b.syntax(s.Path)
	}
	memory := path.Val == MemoryPath
	if s.OrReplace && !memory {
		return nil, b.errAt(s, ErrUnsupported, "ATTACH OR REPLACE applies to an in-memory database (':memory:'); a directory's tables are its files, which ATTACH does not replace")
	}
	a := &Attach{Path: path.Val, PathPos: b.pos(path.Start), IfNotExists: s.IfNotExists, OrReplace: s.OrReplace}
	if s.Alias != nil {
		a.Alias = s.Alias.Name
	}
	for _, o := range s.Options {
		if err := b.attachOption(a, o); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// attachOption reads one of ATTACH's options, as DuckDB 1.5 spells them:
// READ_ONLY (READONLY) [bool], READ_WRITE, TYPE duckdb (b2sql's
// databases are its own: the type names none other) and ROW_GROUP_SIZE
// n, DuckDB's storage unit, which b2sql's files do not have: accepted,
// and it changes no answer.
func (b *stmtBuilder) attachOption(a *Attach, o *ast.Option) error {
	name := strings.ToLower(o.Name.Name)
	val := ""
	switch v := o.Value.(type) {
	case nil:
	case *ast.Literal:
		val = strings.ToLower(v.Val)
	case *ast.ColumnRef:
		if len(v.Name) == 1 {
			val = strings.ToLower(v.Name[0].Name)
		}
	}
	switch name {
	case "read_only", "readonly", "read_write":
		on := true
		if o.Value != nil {
			var err error
			if on, err = strconv.ParseBool(val); err != nil {
				return b.errAt(o.Value, ErrType, fmt.Sprintf("ATTACH option %s expects a boolean", strings.ToUpper(name)))
			}
		}
		a.ReadOnly = on == (name != "read_write")
	case "type":
		if val != "duckdb" && val != "b2sql" {
			return b.errAt(o, ErrUnsupported, fmt.Sprintf("ATTACH (TYPE %s): b2sql attaches its own databases, directories of blosc2, Parquet and CSV files", val))
		}
	case "row_group_size":
		if n, err := strconv.ParseInt(val, 10, 64); err != nil || n <= 0 {
			return b.errAt(o, ErrType, "ATTACH option ROW_GROUP_SIZE expects a positive integer")
		}
	default:
		return b.errAt(o, ErrUnsupported, fmt.Sprintf("unrecognized option for attach %q", name))
	}
	return nil
}

// use builds USE name[.schema].
func (b *stmtBuilder) use(s *ast.Use) (Statement, error) {
	if len(s.Name) > 2 {
		return nil, b.syntax(s)
	}
	u := &Use{Pos: b.pos(s.Name[0].Start)}
	for _, n := range s.Name {
		u.Names = append(u.Names, n.Name)
	}
	return u, nil
}

// DatabaseLister is a catalog that lists the databases ATTACH made
// (duckdb_databases(), SHOW DATABASES).
type DatabaseLister interface {
	AttachedDatabases() []DatabaseInfo
}

// DatabaseInfo is a database ATTACH made.
type DatabaseInfo struct {
	Name     string
	Path     string // its directory, "" for an in-memory database
	ReadOnly bool
}

// attachedDatabases is the catalog's list (none when it keeps no list).
func (b *binder) attachedDatabases() []DatabaseInfo {
	if dl, ok := b.cat.(DatabaseLister); ok {
		return dl.AttachedDatabases()
	}
	return nil
}
