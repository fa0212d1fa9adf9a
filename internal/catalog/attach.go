package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/sql"
)

// Attach runs ATTACH 'path' [AS alias]: every table file in the directory
// path is registered (as Open does for a directory) and it becomes where
// CREATE TABLE writes (a missing directory is created). Tables keep
// unqualified names: the alias is accepted for DuckDB compatibility but
// does not prefix them.
//
// ATTACH ':memory:' AS name is an in-memory database (attach_memory.go).
//
// ATTACH of one table ('events.b2d', 'x.parquet', …: what a DuckDB user
// attaches is one file) registers that table under the alias, or under
// the file's name without its extension, and leaves the directory alone.
func (c *Catalog) Attach(s *sql.Attach) error {
	if s.Path == sql.MemoryPath {
		return c.attachMemory(s) // attach_memory.go
	}
	at := s.PathPos
	path, err := c.Confine(s.Path)
	if err != nil {
		return err
	}
	if Kind(path) != "" {
		name := s.Alias
		if name == "" {
			base := filepath.Base(strings.TrimRight(path, `/\`))
			name = strings.TrimSuffix(base, filepath.Ext(base))
		}
		if err := c.Register(name, path); err != nil {
			return &sql.Error{Pos: at, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("ATTACH: %v", err)}
		}
		return nil
	}
	st, err := os.Stat(path)
	if os.IsNotExist(err) && !c.readOnly {
		// A new database, as DuckDB's ATTACH of a missing file makes one.
		if err = os.MkdirAll(path, 0o755); err == nil {
			st, err = os.Stat(path)
		}
	}
	if err != nil {
		return &sql.Error{Pos: at, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("ATTACH: %v", err)}
	}
	if !st.IsDir() {
		return &sql.Error{Pos: at, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("ATTACH: %s is not a directory (query a file with FROM '%s')", s.Path, s.Path)}
	}
	if err := c.RegisterDir(path); err != nil {
		return err
	}
	c.SetDir(path)
	return nil
}
