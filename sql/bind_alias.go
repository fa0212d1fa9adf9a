package sql

import "github.com/b2sql/b2sql/sql/ast"

// aliasName is an alias's name ("" for none).
func aliasName(a *ast.Alias) string {
	if a == nil {
		return ""
	}
	return a.Name.Name
}

func aliasColumns(a *ast.Alias) []string {
	if a == nil {
		return nil
	}
	out := make([]string, len(a.Columns))
	for i, c := range a.Columns {
		out[i] = c.Name
	}
	return out
}
