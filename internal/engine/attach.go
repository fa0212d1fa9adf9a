package engine

import "github.com/b2sql/b2sql/sql"

// statementType is DuckDB's name of the type of a statement that changes
// a relation (relationOf's), as its refusal on a database attached
// READ_ONLY names it (catalog.CheckWritable).
func statementType(st sql.Statement) string {
	switch st.(type) {
	case *sql.Insert:
		return "INSERT"
	case *sql.Update:
		return "UPDATE"
	case *sql.Delete:
		return "DELETE"
	case *sql.DropTable, *sql.DropView, *sql.DropSequence, *sql.DropMacro:
		return "DROP"
	}
	return "CREATE"
}

// AttachedDatabases forwards the catalog's databases (sql.DatabaseLister).
func (c *bindCatalog) AttachedDatabases() []sql.DatabaseInfo {
	if dl, ok := c.ViewCatalog.(sql.DatabaseLister); ok {
		return dl.AttachedDatabases()
	}
	return nil
}
