package sql

import (
	"fmt"
	"strings"
)

// relKey resolves a relation's name parts to its catalog key and schema
// ("" for main), unqualified names in path (USE). On a name that cannot
// resolve, bad is the index of the part at fault and msg says why.
func relKey(parts []string, path Path) (key, schema string, bad int, msg string) {
	isCatalog := func(s string) bool { return strings.EqualFold(s, "memory") || strings.EqualFold(s, "temp") }
	name := parts[len(parts)-1]
	switch len(parts) {
	case 1:
		if p := path.prefix(); p != "" {
			return p + "." + name, p, -1, ""
		}
		return name, "", -1, ""
	case 2:
		// s.t: a schema of the database, else a catalog's default schema;
		// main is the used database's.
		if strings.EqualFold(parts[0], DefaultSchema) && path.Database != "" {
			return path.Database + "." + name, path.Database, -1, ""
		}
		if strings.EqualFold(parts[0], DefaultSchema) || isCatalog(parts[0]) {
			return name, "", -1, ""
		}
		return parts[0] + "." + name, parts[0], -1, ""
	case 3:
		if !isCatalog(parts[0]) {
			// db.main.t of an in-memory database ATTACH made: its
			// schema db (internal/catalog/attach_memory.go).
			if strings.EqualFold(parts[1], DefaultSchema) {
				return parts[0] + "." + name, parts[0], -1, ""
			}
			return "", "", 0, fmt.Sprintf("catalog %q does not exist (b2sql has \"memory\", \"temp\" and the in-memory databases ATTACH ':memory:' AS db makes, as db.main)", parts[0])
		}
		if strings.EqualFold(parts[1], DefaultSchema) {
			return name, "", -1, ""
		}
		return parts[1] + "." + name, parts[1], -1, ""
	}
	return "", "", 0, fmt.Sprintf("name %q has too many parts", strings.Join(parts, "."))
}

// tempFirst is the key and schema of a one-part name that relKey put in
// the database or schema USE chose (schema set): the temporary table of
// that name if catalog c has one, as DuckDB's search path looks in temp
// first; else key and schema as they are.
func tempFirst(c any, parts []string, key, schema string) (string, string) {
	if len(parts) != 1 || schema == "" {
		return key, schema
	}
	if tc, ok := c.(TempCatalog); ok {
		if temp, _ := tc.IsTemp(parts[0]); temp {
			return parts[0], ""
		}
	}
	return key, schema
}

// relCatalog returns the catalog a relation's name gives explicitly,
// "temp" or "memory" (lower case), or "" when it names none (t, main.t,
// s.t). b2sql keeps temporary and other tables in one namespace, so a
// catalog only checks that the table is (temp) or is not (memory)
// temporary: CatalogMismatch.
func relCatalog(parts []string) string {
	if len(parts) < 2 || len(parts) > 3 {
		return ""
	}
	if c := strings.ToLower(parts[0]); c == "temp" || c == "memory" {
		return c
	}
	return ""
}

// TempCatalog is what a catalog that has temporary tables tells the
// binder and the statements that name a table with its catalog.
type TempCatalog interface {
	// IsTemp reports whether the table under key exists (ok) and was
	// created TEMP.
	IsTemp(key string) (temp, ok bool)
}

// CatalogMismatch says why the table under key does not exist in
// catalog (from relCatalog): temp.t of a table that is not temporary,
// memory.t of one that is; "" when it does or when no table has that
// name. DuckDB keeps the two catalogs apart; b2sql has one namespace and
// refuses the name rather than use the other catalog's table.
func CatalogMismatch(c any, catalog, key string) string {
	tc, ok := c.(TempCatalog)
	if catalog == "" || !ok {
		return ""
	}
	temp, exists := tc.IsTemp(key)
	if !exists || temp == (catalog == "temp") {
		return ""
	}
	what, other := "not a temporary table", "memory"
	if temp {
		what, other = "a temporary table", "temp"
	}
	return fmt.Sprintf("unknown table %q: %s is %s (did you mean %q?)", catalog+"."+key, key, what, other+"."+key)
}

// TempMismatch says why a table made TEMP (temp) or not cannot take the
// name key of an existing table of the other kind, or "": b2sql keeps
// temporary and other tables in one namespace, where DuckDB would keep
// both.
func TempMismatch(c any, key string, temp bool) string {
	tc, ok := c.(TempCatalog)
	if !ok {
		return ""
	}
	old, exists := tc.IsTemp(key)
	switch {
	case !exists || old == temp:
		return ""
	case old:
		return fmt.Sprintf("a temporary table %q exists: b2sql keeps temporary and other tables in one namespace (DROP TABLE temp.%s first)", key, key)
	}
	return fmt.Sprintf("table %q exists and is not temporary: b2sql keeps temporary and other tables in one namespace (DROP TABLE %s first)", key, key)
}
