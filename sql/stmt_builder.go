package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/sql/ast"
)

// stmtBuilder turns syntax tree statements into Statements.
type stmtBuilder struct {
	src  Source
	toks []token // the statement's tokens, from the parser's lexer pass (tokens)
	// with is the WITH before an INSERT, UPDATE or DELETE, given to the
	// queries made of the statement (withCTEs).
	with *ast.With
	// path is where unqualified names resolve (USE; ParseIn), but for
	// the temporary tables of temps (tempFirst; nil: none).
	path  Path
	temps any
}

func (b *stmtBuilder) pos(off int) Pos { return posIn(b.src.Text, off, Pos{b.src.Line, b.src.Col}) }

func (b *stmtBuilder) errAt(n ast.Node, kind error, msg string) *Error {
	return errAt(b.src, n.Extent().Start, kind, msg)
}

// syntax reports a syntax error at node n: grammar the parser takes but
// b2sql's statement does not.
func (b *stmtBuilder) syntax(n ast.Node) *Error {
	s := n.Extent()
	return b.errAt(n, ErrSyntax, fmt.Sprintf("syntax error at or near %q", b.src.Text[s.Start:s.End]))
}

// tableName reads a relation's name (a table, view, sequence or type):
// t, s.t, main.t, memory.main.t, temp.main.t, … to its catalog key
// (relKey, schema.go).
func (b *stmtBuilder) tableName(n ast.Name) (string, Pos, error) {
	key, _, pos, err := b.qualifiedName(n)
	return key, pos, err
}

// nameCatalog is the catalog name n gives ("temp", "memory" or "":
// relCatalog).
func nameCatalog(n ast.Name) string {
	parts := make([]string, len(n))
	for i, p := range n {
		parts[i] = p.Name
	}
	return relCatalog(parts)
}

// qualifiedName is tableName that also returns the catalog the name gives
// ("temp", "memory" or "": relCatalog).
// An unqualified name is the temporary relation of that name if there is
// one (tempFirst), else the used database's (USE).
func (b *stmtBuilder) qualifiedName(n ast.Name) (key, catalog string, at Pos, err error) {
	return b.resolveName(n, b.path, true)
}

// qualifiedNameIn is qualifiedName of the name of a relation to create:
// unqualified, it is in path, the used database's or, for what is always
// the default database's (a TEMP relation, a macro), the zero Path.
func (b *stmtBuilder) qualifiedNameIn(n ast.Name, path Path) (key, catalog string, at Pos, err error) {
	return b.resolveName(n, path, false)
}

func (b *stmtBuilder) resolveName(n ast.Name, path Path, temps bool) (key, catalog string, at Pos, err error) {
	parts := make([]string, len(n))
	for i, p := range n {
		parts[i] = p.Name
	}
	key, schema, bad, msg := relKey(parts, path)
	if temps {
		key, schema = tempFirst(b.temps, parts, key, schema)
	}
	if bad >= 0 {
		kind := ErrUnknownTable
		if len(n) > 3 {
			kind = ErrSyntax
		}
		return "", "", Pos{}, b.errAt(n[bad], kind, msg)
	}
	off := n.Last().Start
	if schema != "" && len(n) > 1 {
		off = n[len(n)-2].Start // s.t: errors about it may be about s
	}
	return key, relCatalog(parts), b.pos(off), nil
}
