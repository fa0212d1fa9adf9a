package sql

import (
	"fmt"
	"strings"
)

// relKey resolves a relation's name parts to its catalog key and schema
// ("" for main). On a name that cannot resolve, bad is the index of the
// part at fault and msg says why.
func relKey(parts []string) (key, schema string, bad int, msg string) {
	isCatalog := func(s string) bool { return strings.EqualFold(s, "memory") || strings.EqualFold(s, "temp") }
	name := parts[len(parts)-1]
	switch len(parts) {
	case 1:
		return name, "", -1, ""
	case 2:
		// s.t: a schema of the database, else a catalog's default schema.
		if strings.EqualFold(parts[0], DefaultSchema) || isCatalog(parts[0]) {
			return name, "", -1, ""
		}
		return parts[0] + "." + name, parts[0], -1, ""
	case 3:
		if !isCatalog(parts[0]) {
			return "", "", 0, fmt.Sprintf("catalog %q does not exist (b2sql has \"memory\" and \"temp\")", parts[0])
		}
		if strings.EqualFold(parts[1], DefaultSchema) {
			return name, "", -1, ""
		}
		return parts[1] + "." + name, parts[1], -1, ""
	}
	return "", "", 0, fmt.Sprintf("name %q has too many parts", strings.Join(parts, "."))
}
