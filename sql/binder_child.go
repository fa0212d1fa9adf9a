package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql/ast"
)

// astQuery returns the Query binding from tree, the syntax tree of
// src.Text.
func astQuery(src Source, tree *ast.Query) (*Query, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	return &Query{src: src, toks: withoutSemicolon(toks), tree: tree}, nil
}

// child returns a binder for a nested query that shares this one's
// column numbering, literals and WITH names.
func (b *binder) child(q *Query, params []columnar.Value) *binder {
	return &binder{q: q, cat: b.cat, lits: b.lits, expanding: map[string]bool{},
		params: params, nextID: b.nextID, ctes: b.ctes, now: b.now}
}
