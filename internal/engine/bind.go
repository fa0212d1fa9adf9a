package engine

import (
	"errors"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// bindCatalog is the catalog one bind sees. It remembers a path refused by
// the root so that the binder's positioned "cannot open" error can carry
// the kind ErrOutsideRoot (the binder reports every unopenable path as an
// unknown table).
type bindCatalog struct {
	planner.ViewCatalog
	sess *Session // current_setting and duckdb_settings() (settings_sql.go)
	// writes are the rows of the statements that write named in the
	// statement's WITH, by lower-case name (with_writes.go): the names
	// stand before the catalog's tables and views.
	writes map[string]planner.Table
	mu     sync.Mutex
	denied bool
}

// Table is the catalog's table, or the rows a WITH's write named name
// gave.
func (c *bindCatalog) Table(name string) (planner.Table, bool) {
	if t, ok := c.writes[strings.ToLower(name)]; ok {
		return t, true
	}
	return c.ViewCatalog.Table(name)
}

// View is the catalog's view, unless a WITH's write is named name.
func (c *bindCatalog) View(name string) (string, bool) {
	if _, ok := c.writes[strings.ToLower(name)]; ok {
		return "", false
	}
	return c.ViewCatalog.View(name)
}

func (c *bindCatalog) OpenPath(fn, path string) (planner.Table, error) {
	t, err := c.ViewCatalog.OpenPath(fn, path)
	if errors.Is(err, catalog.ErrOutsideRoot) {
		c.mu.Lock()
		c.denied = true
		c.mu.Unlock()
	}
	return t, err
}

// UserType forwards the catalog's named types (sql.TypeCatalog).
func (c *bindCatalog) UserType(name string) (columnar.Type, bool) {
	if tc, ok := c.ViewCatalog.(sql.TypeCatalog); ok {
		return tc.UserType(name)
	}
	return columnar.Type{}, false
}

// SequenceToken forwards the catalog's sequences (sql.SequenceCatalog).
func (c *bindCatalog) SequenceToken(name string) (int64, bool) {
	if sc, ok := c.ViewCatalog.(sql.SequenceCatalog); ok {
		return sc.SequenceToken(name)
	}
	return 0, false
}

// IsTemp forwards the catalog's temporary tables (sql.TempCatalog).
func (c *bindCatalog) IsTemp(key string) (temp, ok bool) {
	if tc, ok := c.ViewCatalog.(sql.TempCatalog); ok {
		return tc.IsTemp(key)
	}
	return false, false
}

// HasSchema forwards the catalog's schemas (sql.SchemaCatalog).
func (c *bindCatalog) HasSchema(name string) bool {
	if sc, ok := c.ViewCatalog.(sql.SchemaCatalog); ok {
		return sc.HasSchema(name)
	}
	return name == sql.DefaultSchema
}

// Schemas forwards the catalog's schemas (sql.SchemaCatalog).
func (c *bindCatalog) Schemas() []string {
	if sc, ok := c.ViewCatalog.(sql.SchemaCatalog); ok {
		return sc.Schemas()
	}
	return []string{sql.DefaultSchema}
}

// bind is sql.BindParams with refusals by the root reported as such, and
// the session's settings readable from SQL.
func (s *Session) bind(q *sql.Query, cat planner.ViewCatalog, args []columnar.Value) (*sql.Bound, error) {
	return s.bindIn(q, cat, args, nil)
}

// bindIn is bind with the names of a WITH's writes standing for their
// rows (writes, by lower-case name; nil: none).
func (s *Session) bindIn(q *sql.Query, cat planner.ViewCatalog, args []columnar.Value, writes map[string]planner.Table) (*sql.Bound, error) {
	bc := &bindCatalog{ViewCatalog: cat, sess: s, writes: writes}
	bound, err := sql.BindParams(q, bc, args)
	var se *sql.Error
	if err != nil && bc.denied && errors.As(err, &se) && se.Kind == sql.ErrUnknownTable {
		return nil, &sql.Error{Pos: se.Pos, Kind: catalog.ErrOutsideRoot, Msg: se.Msg}
	}
	return bound, err
}

// OpenFiles forwards file table functions with options (sql.FileOpener)
// to the catalog, noting root refusals as OpenPath does.
func (c *bindCatalog) OpenFiles(call *sql.FileCall) (planner.Table, error) {
	fo, ok := c.ViewCatalog.(sql.FileOpener)
	if !ok {
		return nil, errors.New("this catalog does not open files with options")
	}
	t, err := fo.OpenFiles(call)
	if errors.Is(err, catalog.ErrOutsideRoot) {
		c.mu.Lock()
		c.denied = true
		c.mu.Unlock()
	}
	return t, err
}

// Macros forwards the catalog's macros (sql.MacroCatalog): duckdb_functions()
// lists them. Calls of macros are expanded before binding (Run).
func (c *bindCatalog) Macros() []*sql.Macro {
	if mc, ok := c.ViewCatalog.(sql.MacroCatalog); ok {
		return mc.Macros()
	}
	return nil
}

// Glob forwards the catalog's file listing (sql.Globber): glob().
func (c *bindCatalog) Glob(pattern string) ([]string, error) {
	if g, ok := c.ViewCatalog.(sql.Globber); ok {
		return g.Glob(pattern)
	}
	return nil, errors.New("this catalog does not list files")
}

// Relations forwards the catalog's tables and views (sql.RelationLister).
func (c *bindCatalog) Relations() []sql.RelationInfo {
	if rl, ok := c.ViewCatalog.(sql.RelationLister); ok {
		return rl.Relations()
	}
	return nil
}

// Sequences, Indexes and Types forward the catalog's lists
// (sql.ObjectLister): duckdb_sequences(), duckdb_indexes(), duckdb_types().
func (c *bindCatalog) Sequences() []sql.SequenceInfo { return c.objects().Sequences() }
func (c *bindCatalog) Indexes() []sql.IndexInfo      { return c.objects().Indexes() }
func (c *bindCatalog) Types() []sql.TypeInfo         { return c.objects().Types() }

func (c *bindCatalog) objects() sql.ObjectLister {
	if ol, ok := c.ViewCatalog.(sql.ObjectLister); ok {
		return ol
	}
	return sql.NoObjects
}
