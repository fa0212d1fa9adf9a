package sql

// Attach is ATTACH [DATABASE] 'directory' [AS name]: the directory's
// tables join the catalog and new tables are written there (stmt.go
// builds it). ATTACH [OR REPLACE] [IF NOT EXISTS] ':memory:' AS name is
// an in-memory database: the schema name, whose tables are in memory.
type Attach struct {
	Path        string
	PathPos     Pos
	Alias       string
	IfNotExists bool
	OrReplace   bool
}

// Detach is DETACH [DATABASE] [IF EXISTS] name: an in-memory database
// ATTACH made goes, with its tables.
type Detach struct {
	Name     string
	NamePos  Pos
	IfExists bool
}

// MemoryPath is the path of an in-memory database, as DuckDB names it.
const MemoryPath = ":memory:"

func (*Attach) statement() {}
func (*Detach) statement() {}
