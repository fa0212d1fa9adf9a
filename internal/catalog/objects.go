package catalog

import (
	"slices"
	"strings"

	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/sql"
)

// The catalog's sequences, indexes and named types as lists, for
// duckdb_sequences(), duckdb_indexes() and duckdb_types():
// sql.ObjectLister. Like Relations, they read what the catalog already
// holds and open nothing.

// Sequences lists the sequences with their state, in schema and name
// order.
func (c *Catalog) Sequences() []sql.SequenceInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []sql.SequenceInfo
	for key, token := range c.seqs {
		s, ok := executor.SequenceOf(token)
		if !ok {
			continue
		}
		st := s.State()
		r := c.relationInfo(key, s.Name)
		out = append(out, sql.SequenceInfo{Schema: r.Schema, Name: r.Name, Temp: c.tempSeqs[key],
			Start: s.Start, Incr: s.Incr, Min: s.Min, Max: s.Max, Cycle: s.Cycle,
			Next: st.Next, Used: st.Used, Last: st.Last, Comment: c.comment(sequenceCommentKey(key))})
	}
	slices.SortFunc(out, func(a, b sql.SequenceInfo) int { return compareNames(a.Schema, a.Name, b.Schema, b.Name) })
	return out
}

// Indexes lists the indexes of the in-memory tables and of the CTables'
// index catalogs, in table and index name order.
func (c *Catalog) Indexes() []sql.IndexInfo {
	cts := c.CTables() // takes c.mu itself
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []sql.IndexInfo
	for _, ix := range c.memIndexes {
		r := c.relationInfo(ix.Table, c.names[ix.Table])
		out = append(out, sql.IndexInfo{Schema: r.Schema, Name: ix.Name, Table: r.Name, Columns: ix.Columns,
			Comment: c.comment(indexCommentKey(ix.Name))})
	}
	for key, t := range cts {
		r := c.relationInfo(key, c.names[key])
		for _, ix := range t.Indexes() {
			info := sql.IndexInfo{Schema: r.Schema, Table: r.Name, Columns: []string{ix.Column}, Kind: ix.Kind}
			if ix.Name != unnamedCTableIndex {
				info.Name, info.Comment = ix.Name, c.comment(indexCommentKey(ix.Name))
			}
			out = append(out, info)
		}
	}
	slices.SortFunc(out, func(a, b sql.IndexInfo) int {
		if n := compareNames(a.Schema, a.Table, b.Schema, b.Table); n != 0 {
			return n
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// Types lists CREATE TYPE's types in name order.
func (c *Catalog) Types() []sql.TypeInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []sql.TypeInfo
	for key, t := range c.types {
		r := c.relationInfo(key, t.Name)
		out = append(out, sql.TypeInfo{Schema: r.Schema, Name: r.Name, Type: t.Type, Comment: c.comment(typeCommentKey(key))})
	}
	slices.SortFunc(out, func(a, b sql.TypeInfo) int { return compareNames(a.Schema, a.Name, b.Schema, b.Name) })
	return out
}

// unnamedCTableIndex is the name python-blosc2 gives an index made
// without one (ctable.IndexInfo); such an index is listed without a name.
const unnamedCTableIndex = "__self__"

// compareNames orders (schema, name) pairs.
func compareNames(schemaA, nameA, schemaB, nameB string) int {
	if n := strings.Compare(schemaA, schemaB); n != 0 {
		return n
	}
	return strings.Compare(nameA, nameB)
}
