package b2sql

import (
	"errors"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// bindCatalog is the catalog one bind sees. It remembers a path refused by
// WithRoot so that the binder's positioned "cannot open" error can carry
// the kind ErrOutsideRoot (the binder reports every unopenable path as an
// unknown table).
type bindCatalog struct {
	catalog
	mu     sync.Mutex
	denied bool
}

func (c *bindCatalog) OpenPath(fn, path string) (planner.Table, error) {
	t, err := c.catalog.OpenPath(fn, path)
	if errors.Is(err, ErrOutsideRoot) {
		c.mu.Lock()
		c.denied = true
		c.mu.Unlock()
	}
	return t, err
}

// bind is sql.BindParams with refusals by the root reported as such.
func (db *DB) bind(q *sql.Query, args []columnar.Value) (*sql.Bound, error) {
	cat := &bindCatalog{catalog: catalog{db}}
	bound, err := sql.BindParams(q, cat, args)
	var se *sql.Error
	if err != nil && cat.denied && errors.As(err, &se) && se.Kind == sql.ErrUnknownTable {
		return nil, &Error{Pos: Pos{se.Pos.Line, se.Pos.Col}, Kind: ErrOutsideRoot, Msg: se.Msg, cause: se}
	}
	return bound, err
}
