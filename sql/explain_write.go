package sql

import (
	"fmt"
	"strings"
)

// explainWrite parses tokens [i:] of an EXPLAIN as a statement that writes
// (INSERT, REPLACE INTO, UPDATE, DELETE, COPY, CREATE TABLE [AS], DROP
// TABLE); ok is false when they start no statement of ParseWrite or
// ParseIndex, so that the caller parses a query. Errors are positioned in
// the whole script, as for the statement alone; a write statement with
// nothing to plan (ATTACH, views, indexes) is refused at its first word.
func (p *stmtParser) explainWrite(i int) (st Statement, ok bool, err error) {
	t := p.at(i)
	pos := p.pos(i)
	sub := Source{Text: p.src.Text[t.off:], Offset: p.src.Offset + t.off, Line: pos.Line, Col: pos.Col}
	st, ok, err = parseWrite(sub)
	if !ok || err != nil {
		return st, ok, err
	}
	switch st.(type) {
	case *Insert, *Update, *Delete, *Copy, *CreateTableAs, *CreateTable, *DropTable:
		return st, true, nil
	}
	words := strings.ToUpper(t.val)
	if n := p.at(i + 1); n.kind == tkIdent {
		words += " " + strings.ToUpper(n.val)
	}
	return nil, true, errAt(p.src, t.off, ErrUnsupported, fmt.Sprintf("EXPLAIN of %s is not supported (EXPLAIN takes a query, INSERT, UPDATE, DELETE, COPY, CREATE TABLE or DROP TABLE)", words))
}
