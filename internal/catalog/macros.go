package catalog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/sql"
)

// Macros (CREATE MACRO) live in their own namespace, as in DuckDB: a
// macro and a table may share a name. The catalog implements
// sql.MacroCatalog.

// Macro returns the macro under key (case-insensitive).
func (c *Catalog) Macro(key string) (*sql.Macro, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	m, ok := c.macros[strings.ToLower(key)]
	return m, ok
}

// HasMacros reports whether any macro exists.
func (c *Catalog) HasMacros() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.macros) > 0
}

// Macros returns the macros in name order (duckdb_functions).
func (c *Catalog) Macros() []*sql.Macro {
	c.mu.RLock()
	defer c.mu.RUnlock()
	keys := make([]string, 0, len(c.macros))
	for k := range c.macros {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]*sql.Macro, len(keys))
	for i, k := range keys {
		out[i] = c.macros[k]
	}
	return out
}

// CreateMacro runs CREATE [OR REPLACE] [TEMP] MACRO [IF NOT EXISTS].
func (c *Catalog) CreateMacro(st *sql.CreateMacro) error {
	key := strings.ToLower(st.Key)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.macros[key]; ok {
		switch {
		case st.IfNotExists:
			return nil
		case !st.Replace:
			kind := "macro"
			if old.Table {
				kind = "table macro"
			}
			return &sql.Error{Pos: st.NamePos, Kind: ErrTableExists, Msg: fmt.Sprintf("%s %q already exists (CREATE OR REPLACE MACRO replaces it)", kind, st.Macro.Name)}
		}
	}
	if c.macros == nil {
		c.macros = map[string]*sql.Macro{}
	}
	c.macros[key] = st.Macro
	return nil
}

// DropMacro runs DROP MACRO [TABLE] | DROP FUNCTION [IF EXISTS]. DROP
// MACRO drops either kind, as in DuckDB; DROP MACRO TABLE only a table
// macro.
func (c *Catalog) DropMacro(st *sql.DropMacro) error {
	key := strings.ToLower(st.Key)
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.macros[key]
	if !ok || (st.Table && !m.Table) {
		if st.IfExists {
			return nil
		}
		kind := "macro"
		if st.Table {
			kind = "table macro"
		}
		return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnknownFunction, Msg: fmt.Sprintf("%s %q does not exist", kind, st.Key)}
	}
	delete(c.macros, key)
	return nil
}
