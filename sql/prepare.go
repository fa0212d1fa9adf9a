package sql

import (
	"errors"

	"github.com/b2sql/b2sql/sql/ast"
)

// Prepare is PREPARE name AS statement: the statement is kept by the
// session under Name (replacing one of the same name) and run by EXECUTE
// with values for its ? markers.
type Prepare struct {
	Name    string // as written; names match case-insensitively
	NamePos Pos
	Src     Source // the statement's text, positioned in the script
	Stmt    Statement
}

// Execute is EXECUTE name [(values, …)]. Args, when non-nil, is SELECT
// values, …: one row whose columns are the parameters' values. Names,
// when non-nil, holds the name each value is given for (EXECUTE p(a :=
// 1) gives $a the value 1); "" for a value given by position.
type Execute struct {
	Name    string
	NamePos Pos
	Args    *Query
	NArgs   int
	Names   []string
}

// Deallocate is DEALLOCATE [PREPARE] name, or DEALLOCATE ALL (Name "").
type Deallocate struct{ Name string }

func (*Prepare) statement()    {}
func (*Execute) statement()    {}
func (*Deallocate) statement() {}

// sub returns the part of b's statement spanned by sp as a Source of its
// own, positioned in the script.
func (b *stmtBuilder) sub(sp ast.Span) Source {
	p := b.pos(sp.Start)
	return Source{Text: b.src.Text[sp.Start:sp.End], Offset: b.src.Offset + sp.Start, Line: p.Line, Col: p.Col}
}

func (b *stmtBuilder) prepare(s *ast.Prepare) (Statement, error) {
	if _, ok := s.Stmt.(*ast.Prepare); ok {
		return nil, b.errAt(s.Stmt, ErrUnsupported, "PREPARE of a PREPARE is not supported")
	}
	src := b.sub(s.Stmt.Extent())
	st, err := Parse(src)
	if err != nil {
		return nil, err
	}
	if err := ParamMarkersErr(st); err != nil {
		return nil, err
	}
	return &Prepare{Name: s.Name.Name, NamePos: b.pos(s.Name.Start), Src: src, Stmt: st}, nil
}

func (b *stmtBuilder) execute(s *ast.Execute) (Statement, error) {
	e := &Execute{Name: s.Name.Name, NamePos: b.pos(s.Name.Start), NArgs: len(s.Args)}
	if len(s.Args) == 0 {
		return e, nil
	}
	// The values are a select list over no table, made of the
	// statement's own nodes (stmt_dml.go).
	sp := ast.Span{Start: s.Args[0].Extent().Start, End: s.Args[len(s.Args)-1].Extent().End}
	vals := make([]ast.Expr, len(s.Args))
	for i, a := range s.Args {
		vals[i] = a
		if n, ok := a.(*ast.NamedArg); ok {
			if e.Names == nil {
				e.Names = make([]string, len(s.Args))
			}
			e.Names[i], vals[i] = n.Name.Name, n.Value
		}
	}
	q, err := b.selectQuery(sp, vals, nil, nil)
	if err != nil {
		return nil, err
	}
	e.Args = q
	return e, nil
}

func (b *stmtBuilder) deallocate(s *ast.Deallocate) (Statement, error) {
	if s.Name == nil {
		return &Deallocate{}, nil
	}
	return &Deallocate{Name: s.Name.Name}, nil
}

// ErrUnknownPrepared is the kind of EXECUTE's error for a name no
// PREPARE made.
var ErrUnknownPrepared = errors.New("unknown prepared statement")
