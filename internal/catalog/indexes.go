package catalog

import (
	"sort"
	"strings"

	"github.com/b2sql/b2sql/formats/b2/ctable"
)

// Index names. A CTable's indexes live in its own catalog (python-blosc2
// index sidecars); an in-memory table has nothing to index, so CREATE
// INDEX there only records the name, here, so that scripts written for
// other databases run and DROP INDEX / REINDEX find it.

// MemIndex is an index recorded on an in-memory table.
type MemIndex struct {
	Name    string // as written
	Table   string // lower-case table key
	Columns []string
}

// AddMemIndex records the index name on an in-memory table; false when
// the name is taken.
func (c *Catalog) AddMemIndex(name string, ix MemIndex) bool {
	key := strings.ToLower(name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.memIndexes[key]; dup {
		return false
	}
	if c.memIndexes == nil {
		c.memIndexes = map[string]MemIndex{}
	}
	c.memIndexes[key] = ix
	delete(c.comments, indexCommentKey(key))
	return true
}

// HasMemIndex reports whether name is an index of an in-memory table.
func (c *Catalog) HasMemIndex(name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, ok := c.memIndexes[strings.ToLower(name)]
	return ok
}

// DropMemIndex forgets the index name; false when there was none.
func (c *Catalog) DropMemIndex(name string) bool {
	key := strings.ToLower(name)
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.memIndexes[key]
	delete(c.memIndexes, key)
	delete(c.comments, indexCommentKey(key))
	return ok
}

// CTableIndex is an index found in a CTable's catalog.
type CTableIndex struct {
	Table string // lower-case table name
	T     *ctable.Table
	Info  ctable.IndexInfo
}

// FindCTableIndex looks for a named index in every registered CTable, in
// table-name order.
func (c *Catalog) FindCTableIndex(name string) (CTableIndex, bool) {
	cts := c.CTables()
	keys := make([]string, 0, len(cts))
	for k := range cts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, ix := range cts[k].Indexes() {
			if strings.EqualFold(ix.Name, name) {
				return CTableIndex{Table: k, T: cts[k], Info: ix}, true
			}
		}
	}
	return CTableIndex{}, false
}
