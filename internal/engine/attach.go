package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

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

// SearchPath is where the session's unqualified names resolve: the
// database or schema USE chose (sql.PathCatalog).
func (s *Session) SearchPath() sql.Path {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.path
}

// SearchPath is the session's (sql.PathCatalog).
func (c *bindCatalog) SearchPath() sql.Path { return c.sess.SearchPath() }

// use runs USE name or USE database.schema, as DuckDB resolves them:
// memory (and memory.main) is the default database; a database ATTACH
// made, with its only schema main; main alone is the used database's;
// any other name a schema of the default database (b2sql keeps schemas
// and attached databases in one namespace, so db.t and s.t resolve
// alike).
func (s *Session) use(cat *catalog.Catalog, st *sql.Use) error {
	isMain := func(n string) bool { return strings.EqualFold(n, sql.DefaultSchema) }
	first := st.Names[0]
	_, attached := cat.Database(first)
	var path sql.Path
	switch {
	case len(st.Names) == 1 && strings.EqualFold(first, "memory"):
	case len(st.Names) == 1 && attached:
		path.Database = first
	case len(st.Names) == 1 && isMain(first):
		path.Database = s.SearchPath().Database
	case len(st.Names) == 1 && cat.HasSchema(first) && s.SearchPath().Database == "":
		path.Schema = first
	case len(st.Names) == 2 && strings.EqualFold(first, "memory") && isMain(st.Names[1]):
	case len(st.Names) == 2 && strings.EqualFold(first, "memory") && cat.HasSchema(st.Names[1]):
		if _, db := cat.Database(st.Names[1]); db {
			return noPath(st)
		}
		path.Schema = st.Names[1]
	case len(st.Names) == 2 && attached && isMain(st.Names[1]):
		path.Database = first
	default:
		return noPath(st)
	}
	s.mu.Lock()
	s.path = path
	s.mu.Unlock()
	return nil
}

// noPath is USE's error for a name that is no database or schema.
func noPath(st *sql.Use) error {
	return &sql.Error{Pos: st.Pos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("SET schema: no catalog + schema named %q found", strings.Join(st.Names, "."))}
}

// detachable refuses, as DuckDB does, to DETACH the database the session
// uses.
func (s *Session) detachable(st *sql.Detach) error {
	if db := s.SearchPath().Database; db != "" && strings.EqualFold(db, st.Name) {
		return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("cannot detach database %q because it is the default database: select a different database using USE to allow detaching this database", st.Name)}
	}
	return nil
}

// showTables runs SHOW TABLES: the tables of the database or schema the
// session uses (main's by default) and the temporary tables, as DuckDB
// lists them.
func (s *Session) showTables(cat *catalog.Catalog) *Result {
	prefix := ""
	if p := s.SearchPath(); p.Database != "" {
		prefix = strings.ToLower(p.Database) + "."
	} else if p.Schema != "" {
		prefix = strings.ToLower(p.Schema) + "."
	}
	var vals [][]columnar.Value
	for _, n := range cat.Tables() {
		sch, name, qualified := strings.Cut(n, ".")
		switch {
		case qualified && cat.HasSchema(sch):
			if prefix == "" || !strings.EqualFold(sch+".", prefix) {
				continue // a table of another schema or database
			}
			n = name
		case prefix != "":
			if temp, _ := cat.IsTemp(n); !temp {
				continue // the default database's
			}
		}
		vals = append(vals, []columnar.Value{columnar.StringValue(n)})
	}
	slices.SortFunc(vals, func(a, b []columnar.Value) int { return strings.Compare(a[0].S, b[0].S) })
	return values([]Column{{Name: "name", Type: columnar.TVarchar}}, vals)
}
