package catalog

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql"
)

// Comments (COMMENT ON) are kept by the lower-case key of what they are
// on: a table's or view's key, key.column for a column, a sequence's,
// index's or type's key under "sequence:", "index:" or "type:". A macro
// keeps its own (sql.Macro.Comment). A relation or object made anew
// (CREATE, DROP, a file registered again) starts without them
// (clearComments, forgetSequence, …); a new version of a table (Swap,
// after a write) keeps them.

func sequenceCommentKey(key string) string { return "sequence:" + key }
func typeCommentKey(key string) string     { return "type:" + key }
func indexCommentKey(name string) string   { return "index:" + strings.ToLower(name) }

// ForgetIndexComment forgets the comment on index name: the index was
// made or dropped (a CTable's, whose index catalog is its files').
func (c *Catalog) ForgetIndexComment(name string) {
	c.mu.Lock()
	delete(c.comments, indexCommentKey(name))
	c.mu.Unlock()
}

// Comment runs COMMENT ON TABLE|VIEW|COLUMN|MACRO|SEQUENCE|INDEX|TYPE
// name IS 'text' | NULL.
func (c *Catalog) Comment(st *sql.Comment) error {
	key := strings.ToLower(st.Key)
	indexExists := false
	if st.Kind == "INDEX" { // before c.mu: FindCTableIndex takes it
		_, onCTable := c.FindCTableIndex(st.Key)
		indexExists = onCTable || c.HasMemIndex(st.Key)
	}
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
	case "SEQUENCE":
		if _, ok := c.seqs[key]; !ok {
			return missing("sequence")
		}
		target = sequenceCommentKey(key)
	case "TYPE":
		if _, ok := c.types[key]; !ok {
			return missing("type")
		}
		target = typeCommentKey(key)
	case "INDEX":
		if !indexExists {
			return missing("index")
		}
		target = indexCommentKey(key)
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
