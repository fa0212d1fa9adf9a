package b2sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql"
)

// Views are named queries kept as SQL text; the binder expands them where
// they are used (catalog.View, planner.ViewCatalog). A view and a table
// cannot share a name.

// View implements planner.ViewCatalog.
func (c catalog) View(name string) (string, bool) {
	c.db.mu.RLock()
	defer c.db.mu.RUnlock()
	v, ok := c.db.views[strings.ToLower(name)]
	return v, ok
}

// createView runs CREATE [OR REPLACE] VIEW: the query must bind now.
func (db *DB) createView(v *sql.CreateView) (*Rows, error) {
	if _, err := sql.Bind(v.Query, catalog{db}); err != nil {
		return nil, err
	}
	key := strings.ToLower(v.Name)
	db.mu.Lock()
	defer db.mu.Unlock()
	if _, ok := db.tables[key]; ok {
		return nil, &sql.Error{Pos: v.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("a table named %q exists", v.Name)}
	}
	if _, ok := db.views[key]; ok && !v.Replace {
		return nil, &sql.Error{Pos: v.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("view %q already exists", v.Name)}
	}
	if db.views == nil {
		db.views = map[string]string{}
	}
	db.views[key] = v.Text
	return valueRows(nil, nil), nil
}

// dropView runs DROP VIEW [IF EXISTS].
func (db *DB) dropView(d *sql.DropView) (*Rows, error) {
	key := strings.ToLower(d.Name)
	db.mu.Lock()
	defer db.mu.Unlock()
	if _, ok := db.views[key]; !ok {
		if d.IfExists {
			return valueRows(nil, nil), nil
		}
		return nil, &sql.Error{Pos: d.NamePos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("unknown view %q", d.Name)}
	}
	delete(db.views, key)
	return valueRows(nil, nil), nil
}
