package catalog

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql"
)

// Named types (CREATE TYPE) belong to the catalog and live as long as it,
// as in DuckDB's in-memory database: a database directory (opened, or
// ATTACHed) does not keep them. A table's columns do not depend on them: a
// column of an ENUM type keeps the ENUM's values in its table's own schema
// (a Parquet or CTable column of strings, an in-memory table's type), so
// DROP TYPE leaves the tables that used it as they are, as DuckDB does.

// UserType implements sql.TypeCatalog.
func (c *Catalog) UserType(name string) (columnar.Type, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.types[strings.ToLower(name)]
	return t.Type, ok
}

// CreateType runs CREATE TYPE name AS type.
func (c *Catalog) CreateType(s *sql.CreateType) error {
	t, err := s.Type.Resolve(c)
	if err != nil {
		return err
	}
	key := strings.ToLower(s.Name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.types[key]; ok {
		return &sql.Error{Pos: s.NamePos, Kind: sql.ErrType, Msg: fmt.Sprintf("type %q already exists", s.Name)}
	}
	if c.types == nil {
		c.types = map[string]namedType{}
	}
	c.types[key] = namedType{Name: s.Name, Type: t}
	delete(c.comments, typeCommentKey(key))
	return nil
}

// DropType runs DROP TYPE [IF EXISTS] name.
func (c *Catalog) DropType(d *sql.DropType) error {
	key := strings.ToLower(d.Name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.types[key]; !ok {
		if d.IfExists {
			return nil
		}
		return &sql.Error{Pos: d.NamePos, Kind: sql.ErrType, Msg: fmt.Sprintf("type %q does not exist", d.Name)}
	}
	delete(c.types, key)
	delete(c.comments, typeCommentKey(key))
	return nil
}
