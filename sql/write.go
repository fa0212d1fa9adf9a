package sql

// Copy is COPY (query) TO 'path' [(options)] or COPY table TO 'path' …:
// the query's result written as a file of the format FORMAT or the path's
// extension names (internal/dml checks the options against it). The path
// may be a ? marker (PathParam), whose value follows those of the query's
// markers.
type Copy struct {
	Query     *Query
	Path      string
	PathParam bool
	PathPos   Pos
	Options   []FileArg // copy_options.go
}

// CreateTableAs is CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name
// [WITH (options)] AS query.
type CreateTableAs struct {
	Name        string
	NamePos     Pos
	Temp        bool // CREATE TEMP TABLE … AS (an in-memory table: FORMAT memory)
	Replace     bool
	IfNotExists bool
	Query       *Query
	Options     []Option
}

// DropTable is DROP TABLE [IF EXISTS] name.
type DropTable struct {
	Name     string
	NamePos  Pos
	Catalog  string // "temp" or "memory" when the name gives it (CatalogMismatch)
	IfExists bool
}

func (*Copy) statement()          {}
func (*CreateTableAs) statement() {}
func (*DropTable) statement()     {}
