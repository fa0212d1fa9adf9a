package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// COPY from the syntax tree: COPY (query) TO, COPY t [(cols)] TO and COPY
// t FROM, with their option lists read as constant arguments (FileArg).

func (b *stmtBuilder) copyStmt(s *ast.Copy) (Statement, error) {
	if s.Database != nil {
		return nil, b.errAt(s, ErrUnsupported, "COPY FROM DATABASE is not supported")
	}
	opts, err := b.fileArgs(s.Options)
	if err != nil {
		return nil, err
	}
	if s.From {
		return b.copyFrom(s, opts)
	}
	c := &Copy{Options: opts}
	switch t := s.Target.(type) {
	case *ast.Literal:
		if t.Kind != ast.LitString {
			return nil, b.syntax(t)
		}
		c.Path = t.Val
	case *ast.Param:
		if t.Index != 0 || t.Name != "" {
			return nil, b.errAt(t, ErrUnsupported, "COPY … TO takes a path or a ? marker")
		}
		c.PathParam = true
	default:
		return nil, b.syntax(s.Target)
	}
	c.PathPos = b.pos(s.Target.Extent().Start)
	if s.Query != nil {
		c.Query, err = b.query(s.Query)
		return c, err
	}
	// COPY t [(cols)] TO: SELECT * (or the columns) FROM t, over the
	// table's name (and the column list) so that errors point there.
	_, _, from, err := b.target(s.Table, nil)
	if err != nil {
		return nil, err
	}
	sp := ast.Span{Start: s.Table.Span().Start, End: s.Table.Span().End}
	items := []ast.Expr{&ast.Star{Span: sp}}
	if len(s.Columns) > 0 {
		items = items[:0]
		for _, col := range s.Columns {
			items = append(items, &ast.ColumnRef{Span: col.Span, Name: ast.Name{col}})
		}
		sp.End = s.Columns[len(s.Columns)-1].End
	}
	c.Query, err = b.selectQuery(sp, items, from, nil)
	return c, err
}

// copyFrom builds COPY t FROM 'path' [(options)]: the file's rows
// appended to t, as INSERT INTO t SELECT * FROM the file read with the
// options (the path's extension or FORMAT picks the reader). VALIDATE is
// an INSERT option and stays one.
func (b *stmtBuilder) copyFrom(s *ast.Copy, opts []FileArg) (Statement, error) {
	if len(s.Columns) > 0 {
		return nil, b.errAt(s.Columns[0], ErrUnsupported, "COPY t (columns) FROM is not supported")
	}
	path, ok := s.Target.(*ast.Literal)
	if !ok || path.Kind != ast.LitString {
		return nil, b.syntax(s.Target)
	}
	ins := &Insert{}
	var err error
	if ins.Table, ins.TablePos, err = b.tableName(s.Table); err != nil {
		return nil, err
	}
	call := &FileCall{Paths: []string{path.Val}, PathPos: b.pos(path.Start)}
	for _, o := range opts {
		if o.Name == "validate" {
			ins.Options = append(ins.Options, Option{Name: o.Name, Value: strings.ToLower(o.Value.Text), Pos: o.Value.Pos})
			continue
		}
		call.Args = append(call.Args, o)
	}
	from := &ast.Table{Span: path.Span, Path: path.Val}
	q, err := b.selectQuery(path.Span, []ast.Expr{&ast.Star{Span: path.Span}}, from, nil)
	if err != nil {
		return nil, err
	}
	q.copyFrom = call
	ins.Query = q
	return ins, nil
}

// fileArgs reads an option list: NAME value, NAME = value, or a bare
// NAME meaning true (HEADER).
func (b *stmtBuilder) fileArgs(opts []*ast.Option) ([]FileArg, error) {
	out := make([]FileArg, 0, len(opts))
	for _, o := range opts {
		arg := FileArg{Name: strings.ToLower(o.Name.Name), NamePos: b.pos(o.Name.Start)}
		if o.Value == nil {
			arg.Value = ArgValue{Kind: ArgFlag, Pos: arg.NamePos}
		} else {
			v, err := b.argValue(o.Value)
			if err != nil {
				return nil, err
			}
			// (a) is a list of one, as in PARTITION_BY (a): parentheses
			// belong to no node, so the text between name and value
			// tells.
			if v.Kind != ArgList && strings.Contains(b.src.Text[o.Name.End:o.Value.Extent().Start], "(") {
				v = ArgValue{Kind: ArgList, Elems: []ArgValue{v}, Pos: v.Pos}
			}
			arg.Value = v
		}
		out = append(out, arg)
	}
	return out, nil
}

// argValue reads a constant argument: a string, a number (perhaps
// negative), TRUE/FALSE/NULL, a bare word or *, a list [a, b] or (a, b),
// or a struct {'k': v}.
func (b *stmtBuilder) argValue(e ast.Expr) (ArgValue, error) {
	v := ArgValue{Pos: b.pos(e.Extent().Start)}
	switch x := e.(type) {
	case *ast.Literal:
		switch x.Kind {
		case ast.LitString:
			v.Kind, v.Text = ArgString, x.Val
		case ast.LitNumber:
			v.Kind, v.Text = ArgNumber, x.Val
		case ast.LitBool:
			v.Kind, v.Text = ArgBool, x.Val
		case ast.LitNull:
			v.Kind = ArgNull
		default:
			return v, b.syntax(e)
		}
	case *ast.Unary:
		l, ok := x.X.(*ast.Literal)
		if x.Op != "-" || !ok || l.Kind != ast.LitNumber {
			return v, b.syntax(e)
		}
		v.Kind, v.Text = ArgNumber, "-"+l.Val
	case *ast.ColumnRef:
		if len(x.Name) != 1 {
			return v, b.syntax(e)
		}
		v.Kind, v.Text = ArgWord, x.Name[0].Name
	case *ast.Star:
		// FORCE_QUOTE *: every column.
		if len(x.Qualifier) > 0 || len(x.Exclude) > 0 || len(x.Replace) > 0 || len(x.Rename) > 0 || x.Like != nil {
			return v, b.syntax(e)
		}
		v.Kind, v.Text = ArgWord, "*"
	case *ast.List:
		return b.argList(v, x.Elems)
	case *ast.Row:
		return b.argList(v, x.Elems)
	case *ast.Struct:
		v.Kind = ArgStruct
		for _, f := range x.Fields {
			e, err := b.argValue(f.Value)
			if err != nil {
				return v, err
			}
			v.Keys, v.Elems = append(v.Keys, f.Key.Name), append(v.Elems, e)
		}
	default:
		return v, b.errAt(e, ErrSyntax, fmt.Sprintf("expected a constant, got %q", b.src.Text[e.Extent().Start:e.Extent().End]))
	}
	return v, nil
}

func (b *stmtBuilder) argList(v ArgValue, elems []ast.Expr) (ArgValue, error) {
	v.Kind = ArgList
	for _, el := range elems {
		e, err := b.argValue(el)
		if err != nil {
			return v, err
		}
		v.Elems = append(v.Elems, e)
	}
	return v, nil
}
