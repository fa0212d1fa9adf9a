package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql/ast"
)

// typeNameMsg says why t names no type: an unknown name, ENUM values that
// are not distinct string literals, or parseTypeName's reason.
func typeNameMsg(text string, t *ast.TypeName, user func(string) (columnar.Type, bool)) string {
	written := text[t.Start:t.End]
	if _, why, is := geometryTypeName(t); is && why != "" {
		return why
	}
	if t.Name == "ENUM" && t.Schema == "" {
		if len(t.Params) == 0 {
			return "ENUM takes at least one value"
		}
		seen := map[string]bool{}
		for _, p := range t.Params {
			l, ok := p.(*ast.Literal)
			if !ok || l.Kind != ast.LitString {
				return "ENUM values are string literals"
			}
			if seen[l.Val] {
				return fmt.Sprintf("ENUM has the value %s twice", columnar.QuoteString(l.Val))
			}
			seen[l.Val] = true
		}
	}
	// The innermost name that is neither built in nor named by CREATE TYPE.
	for _, f := range t.Fields {
		if _, ok := resolveTypeName(f.Type, user); !ok {
			return typeNameMsg(text, f.Type, user)
		}
	}
	for _, a := range t.Args {
		if _, ok := resolveTypeName(a, user); !ok {
			return typeNameMsg(text, a, user)
		}
	}
	if typeNameShape(t) && len(t.Params) == 0 {
		name := written
		if i := strings.IndexAny(name, "[ \t\n"); i >= 0 {
			name = name[:i] // mood[] names mood
		}
		return fmt.Sprintf("type %q does not exist", name)
	}
	return fmt.Sprintf("type %q is not supported", written)
}
