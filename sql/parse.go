package sql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
	"github.com/dolthub/vitess/go/vt/sqlparser"
	"github.com/dolthub/vitess/go/vt/vterrors"
)

// parseLegacy parses the statements Parse does not build from the
// syntax tree yet, through the token rewriting and vitess (issue 15).
func parseLegacy(src Source) (Statement, error) {
	if st, ok, err := parseWrite(src); ok {
		return st, err
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	if n := len(toks); n > 0 && toks[n-1].isOp(";") {
		toks = toks[:n-1]
	}
	for _, t := range toks {
		if t.isOp(";") {
			return nil, errAt(src, t.off, ErrSyntax, "more than one statement; split the script first")
		}
	}
	if len(toks) == 0 {
		return nil, errAt(src, 0, ErrSyntax, "empty statement")
	}
	p := &stmtParser{src: src, toks: toks}
	return p.statement()
}

type stmtParser struct {
	src  Source
	toks []token
}

func (p *stmtParser) at(i int) token {
	if i < len(p.toks) {
		return p.toks[i]
	}
	return token{kind: tkOp, off: len(p.src.Text), end: len(p.src.Text)}
}

// name reports whether token i is a name (identifier or quoted identifier).
func (p *stmtParser) name(i int) bool {
	t := p.at(i)
	return t.kind == tkIdent || t.kind == tkQIdent
}

func (p *stmtParser) syntax(i int) error {
	return errAt(p.src, p.at(i).off, ErrSyntax, syntaxNear(p.src, p.at(i)))
}

func (p *stmtParser) statement() (Statement, error) {
	first := p.toks[0]
	switch {
	case first.is("SELECT") || first.isOp("("):
		return parseQuery(p.src, p.toks)
	case first.is("WITH"):
		return parseQuery(p.src, p.toks)
	case first.is("FROM") && len(p.toks) > 1:
		return p.fromFirst()
	case first.kind == tkIdent && unsupportedStatements[strings.ToUpper(first.val)]:
		return nil, errAt(p.src, first.off, ErrUnsupported, strings.ToUpper(first.val)+" is not supported")
	}
	return nil, p.syntax(0)
}

var unsupportedStatements = map[string]bool{
	"INSERT": true, "UPDATE": true, "DELETE": true, "CREATE": true, "DROP": true, "ALTER": true,
	"COPY": true, "ATTACH": true, "DETACH": true, "PRAGMA": true, "VALUES": true, "TABLE": true,
	"MERGE": true, "TRUNCATE": true, "BEGIN": true, "COMMIT": true, "ROLLBACK": true, "INSTALL": true,
	"LOAD": true, "EXPORT": true, "IMPORT": true, "CALL": true, "USE": true,
	"PIVOT": true, "UNPIVOT": true, "REPLACE": true, "GRANT": true, "CHECKPOINT": true,
	"VACUUM": true, "ANALYZE": true,
}

// subQuery parses tokens [i:] as a query.
func (p *stmtParser) subQuery(i int) (*Query, error) {
	if t := p.at(i); !t.is("SELECT") && !t.isOp("(") && !t.is("WITH") {
		if t.kind == tkIdent && unsupportedStatements[strings.ToUpper(t.val)] {
			return nil, errAt(p.src, t.off, ErrUnsupported, strings.ToUpper(t.val)+" is not supported")
		}
		return nil, p.syntax(i)
	}
	return parseQuery(p.src, p.toks[i:])
}

// starQuery is SELECT * FROM name (a path when path is set) for
// DESCRIBE, whose name is src's only token, so that binding errors point
// at it.
func starQuery(src Source, name string, path bool) (*Query, error) {
	all := ast.Span{Start: 0, End: len(src.Text)}
	t := &ast.Table{Span: all}
	if path {
		t.Path = name
	} else {
		t.Name = ast.Name{&ast.Ident{Span: all, Name: name}}
	}
	return syntheticQuery(src, t)
}

// syntheticQuery is SELECT * FROM from for a statement that stands for
// one (DESCRIBE, SUMMARIZE), every node spanning the statement src.
func syntheticQuery(src Source, from ast.TableRef) (*Query, error) {
	all := ast.Span{Start: 0, End: len(src.Text)}
	sel := &ast.Select{Span: all, Items: []*ast.SelectItem{{Span: all, X: &ast.Star{Span: all}}}, From: []ast.TableRef{from}}
	q, err := astQuery(src, &ast.Query{Span: all, Body: sel})
	if err == nil && q == nil {
		err = errAt(src, 0, ErrUnsupported, "statement is not supported")
	}
	return q, err
}

// fromFirst parses DuckDB's FROM t [WHERE …] … as SELECT * FROM t …: the
// text gets a "SELECT * " prefix, and the start column moves left by as
// much, so that positions in the user's text stay right.
func (p *stmtParser) fromFirst() (Statement, error) {
	depth := 0
	for _, t := range p.toks {
		switch {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			depth--
		case depth == 0 && t.is("SELECT"):
			return nil, errAt(p.src, t.off, ErrUnsupported, "FROM … SELECT is not supported (write SELECT … FROM …)")
		}
	}
	const prefix = "SELECT * "
	src := Source{Text: prefix + p.src.Text, Offset: p.src.Offset - len(prefix), Line: p.src.Line, Col: p.src.Col - len(prefix)}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	if n := len(toks); n > 0 && toks[n-1].isOp(";") {
		toks = toks[:n-1]
	}
	q, err := parseQuery(src, toks)
	if err != nil {
		return nil, err
	}
	q.hidden = len(prefix) // errors at the added "SELECT *" point at FROM
	return q, nil
}

// summarizeQuery is SELECT * FROM summarize('arg') for SUMMARIZE of a
// table, a path or a query (bind_summarize.go); src is the statement.
func summarizeQuery(src Source, arg string) (*Query, error) {
	all := ast.Span{Start: 0, End: len(src.Text)}
	f := &ast.Func{Span: all, Name: ast.Name{&ast.Ident{Span: all, Name: "summarize"}},
		Args: []ast.Expr{&ast.Literal{Span: all, Kind: ast.LitString, Val: arg}}}
	return syntheticQuery(src, &ast.TableFunc{Span: all, Func: f})
}

// parseQuery rewrites and parses a SELECT.
func parseQuery(src Source, toks []token) (*Query, error) {
	toks = stripParens(toks)
	rw, err := rewrite(src, toks)
	if err != nil {
		return nil, err
	}
	st, err := vitessParse(rw.text)
	if err != nil {
		return nil, syntaxError(src, toks, rw, err)
	}
	q := &Query{src: src, toks: toks, rw: rw}
	for {
		switch s := st.(type) {
		case *sqlparser.Select:
			q.sel, q.stmt = s, s
			return q, q.checkSelect()
		case *sqlparser.ParenSelect:
			st = s.Select
			continue
		case *sqlparser.SetOp:
			q.stmt = s
			if s.Into != nil || s.Lock != "" {
				return nil, q.unsupportedAt(strings.ToUpper(strings.Fields(s.Type)[0]), "INTO and locking clauses are not supported")
			}
			return q, nil
		}
		return nil, errAt(src, toks[0].off, ErrUnsupported, "statement is not supported")
	}
}

// errVitessPanic stands for a panic inside vitess on odd input.
var errVitessPanic = errors.New("parser failure")

// vitessParse parses with vitess, turning its (rare) panics into errors:
// a malformed statement must never take the process down.
func vitessParse(text string) (st sqlparser.Statement, err error) {
	defer func() {
		if r := recover(); r != nil {
			st, err = nil, errVitessPanic
		}
	}()
	return sqlparser.ParseWithOptions(context.Background(), text, sqlparser.ParserOptions{AnsiQuotes: true})
}

// stripParens removes parentheses around a whole query, which vitess does
// not accept at the top level.
func stripParens(toks []token) []token {
	for len(toks) > 2 && toks[0].isOp("(") && toks[len(toks)-1].isOp(")") {
		depth := 0
		for i, t := range toks {
			if t.isOp("(") {
				depth++
			} else if t.isOp(")") {
				depth--
			}
			if depth == 0 && i < len(toks)-1 {
				return toks // the first paren closes early: (a) UNION (b)
			}
		}
		toks = toks[1 : len(toks)-1]
	}
	return toks
}

// checkSelect rejects clauses of the parse tree that binding does not cover.
func (q *Query) checkSelect() error {
	s := q.sel
	switch {
	case s.Into != nil:
		return q.unsupportedAt("INTO", "SELECT INTO is not supported")
	case s.Lock != "":
		return q.unsupportedAt("FOR", "locking clauses are not supported")
	}
	return nil
}

// syntaxError converts a vitess error into a positioned *Error. vitess
// reports one past the end of the token it choked on, in the rewritten
// text; we map that token back and point at it. At the end of the text the
// offset is ambiguous (the last token, or end of input): parsing again with
// junk appended tells the two apart.
func syntaxError(src Source, toks []token, rw *rewritten, err error) error {
	pos := vitessPos(err, len(rw.text))
	end := len(strings.TrimRight(rw.text, " \t\r\n\f\v"))
	if pos-1 >= end {
		_, err2 := vitessParse(rw.text[:end] + " ,,")
		if err2 == nil || vitessPos(err2, end+3)-1 > end {
			return errAt(src, len(src.Text), ErrSyntax, "syntax error at end of input")
		}
	}
	r := min(max(pos-2, 0), max(end-1, 0))
	o := rw.orig(r)
	t := token{off: len(src.Text), end: len(src.Text)}
	for _, k := range toks {
		if k.off <= o && o < k.end || k.off > o {
			t = k
			break
		}
	}
	return errAt(src, t.off, ErrSyntax, syntaxNear(src, t))
}

// vitessPos extracts the byte position from a vitess syntax error.
func vitessPos(err error, dflt int) int {
	var se vterrors.SyntaxError
	if errors.As(err, &se) {
		return se.Position
	}
	msg := err.Error()
	if i := strings.Index(msg, "at position "); i >= 0 {
		var n int
		if _, e := fmt.Sscanf(msg[i:], "at position %d", &n); e == nil {
			return n
		}
	}
	return dflt
}
