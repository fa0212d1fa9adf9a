package catalog

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql"
)

// Views are named queries kept as SQL text; the binder expands them where
// they are used (planner.ViewCatalog). A view and a table cannot share a
// name.

// View implements planner.ViewCatalog.
func (c *Catalog) View(name string) (string, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.views[strings.ToLower(name)]
	return v, ok
}

// CreateView runs CREATE [OR REPLACE] VIEW: the query must bind now.
func (c *Catalog) CreateView(v *sql.CreateView) error {
	if _, err := sql.Bind(v.Query, c); err != nil {
		return err
	}
	key := strings.ToLower(v.Name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tables[key]; ok {
		return &sql.Error{Pos: v.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("a table named %q exists", v.Name)}
	}
	if _, ok := c.views[key]; ok && !v.Replace {
		return &sql.Error{Pos: v.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("view %q already exists", v.Name)}
	}
	if c.views == nil {
		c.views = map[string]string{}
	}
	c.views[key] = v.Text
	return nil
}

// DropView runs DROP VIEW [IF EXISTS].
func (c *Catalog) DropView(d *sql.DropView) error {
	key := strings.ToLower(d.Name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.views[key]; !ok {
		if d.IfExists {
			return nil
		}
		return &sql.Error{Pos: d.NamePos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("unknown view %q", d.Name)}
	}
	delete(c.views, key)
	return nil
}
