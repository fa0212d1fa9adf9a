package catalog

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/planner"
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

// CreateView runs CREATE [OR REPLACE] [TEMP] VIEW [IF NOT EXISTS]: the
// query must bind now, in bind (the session's catalog, whose USE path
// resolves its names; nil: c).
func (c *Catalog) CreateView(v *sql.CreateView, bind planner.Catalog) error {
	if bind == nil {
		bind = c
	}
	if err := checkView(v, bind); err != nil {
		return err
	}
	key := strings.ToLower(v.Name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tables[key]; ok {
		return &sql.Error{Pos: v.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("a table named %q exists", v.Name)}
	}
	if _, ok := c.views[key]; ok {
		switch {
		case c.tempViews[key] != v.Temp:
			return &sql.Error{Pos: v.NamePos, Kind: ErrTableExists, Msg: fmt.Sprintf("a view %q exists (temporary: %v): b2sql keeps temporary and other views in one namespace (DROP VIEW %s first)", v.Name, c.tempViews[key], v.Name)}
		case v.IfNotExists:
			return nil
		case !v.Replace:
			return &sql.Error{Pos: v.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("view %q already exists", v.Name)}
		}
	}
	if c.views == nil {
		c.views = map[string]string{}
		c.tempViews = map[string]bool{}
	}
	c.views[key] = v.Text
	c.tempViews[key] = v.Temp
	c.clearComments(key)
	return nil
}

// DropView runs DROP VIEW [IF EXISTS].
func (c *Catalog) DropView(d *sql.DropView) error {
	if msg := sql.CatalogMismatch(c, d.Catalog, d.Name); msg != "" {
		if d.IfExists {
			return nil
		}
		return &sql.Error{Pos: d.NamePos, Kind: sql.ErrUnknownTable, Msg: msg}
	}
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
	delete(c.tempViews, key)
	c.clearComments(key)
	return nil
}

// checkView binds the view's query now, for its errors, and checks that
// its column list renames no more columns than the query has.
func checkView(v *sql.CreateView, c planner.Catalog) error {
	if v.Recursive {
		// Only the recursive CTE of the view's name binds.
		q, err := sql.Parse(v.TextAt)
		if err == nil {
			_, err = sql.Bind(q.(*sql.Query), c)
		}
		return err
	}
	b, err := sql.Bind(v.Query, c)
	if err != nil {
		return err
	}
	if len(v.Columns) > len(b.Names) {
		return &sql.Error{Pos: v.ColumnsPos, Kind: sql.ErrType, Msg: fmt.Sprintf("view %q: its query has %d columns but %d column names were given", v.Name, len(b.Names), len(v.Columns))}
	}
	return nil
}
