package catalog

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql"
)

// Comments (COMMENT ON) are kept by the lower-case key of what they are
// on: a table's or view's key, key.column for a column, a macro's key
// under "macro:". A relation made anew (CREATE, DROP, a file registered
// again) starts without them (clearComments); a new version of a table
// (Swap, after a write) keeps them.

// Comment runs COMMENT ON TABLE|VIEW|COLUMN|MACRO name IS 'text' | NULL.
func (c *Catalog) Comment(st *sql.Comment) error {
	key := strings.ToLower(st.Key)
	c.mu.Lock()
	defer c.mu.Unlock()
	_, isTable := c.tables[key]
	_, isView := c.views[key]
	missing := func(what string) error {
		return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("%s %q does not exist", what, st.Key)}
	}
	target := key
	switch st.Kind {
	case "TABLE":
		if !isTable {
			return missing("table")
		}
	case "VIEW":
		if !isView {
			return missing("view")
		}
	case "COLUMN":
		rel := strings.ToLower(st.Relation)
		t, ok := c.tables[rel]
		if !ok {
			return missing("table")
		}
		found := false
		for _, f := range t.Schema() {
			found = found || strings.EqualFold(f.Name, st.Column)
		}
		if !found {
			return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnknownColumn, Msg: fmt.Sprintf("table %q has no column %q", st.Relation, st.Column)}
		}
		target = rel + "." + strings.ToLower(st.Column)
	case "MACRO":
		m, ok := c.macros[key]
		if !ok {
			return missing("macro")
		}
		cp := *m // readers hold the old one without the lock: a new macro
		cp.Comment = st.Text
		c.macros[key] = &cp
		return nil
	}
	if c.comments == nil {
		c.comments = map[string]string{}
	}
	if st.Null {
		delete(c.comments, target)
	} else {
		c.comments[target] = st.Text
	}
	return nil
}

// comment is the comment on key ("" for none). Guarded by c.mu.
func (c *Catalog) comment(key string) string { return c.comments[key] }
