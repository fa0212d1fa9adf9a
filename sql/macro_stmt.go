package sql

import (
	"fmt"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// createMacro builds CREATE MACRO: each overload's parameters, its body's
// text and where in it the parameters are referred to. The checks are
// DuckDB's: parameter names unique, those with defaults last, overloads
// of one kind and told apart by their number of parameters, and a scalar
// body that names no column other than its parameters (outside its
// subqueries, which have their own FROM).
func (b *stmtBuilder) createMacro(s *ast.CreateMacro) (Statement, error) {
	// A macro is the default database's whatever USE says: calls find
	// macros before any statement is bound (macro_expand.go).
	key, catalog, pos, err := b.qualifiedNameIn(s.Name, Path{})
	if err != nil {
		return nil, err
	}
	switch {
	case s.Temp && catalog == "memory":
		return nil, b.errAt(s.Name[0], ErrSyntax, `a TEMP macro's name can only use the "temp" catalog`)
	case !s.Temp && catalog == "temp":
		return nil, b.errAt(s.Name[0], ErrSyntax, `only a TEMP macro's name can use the "temp" catalog (CREATE TEMP MACRO)`)
	}
	parts := make([]string, len(s.Name))
	for i, p := range s.Name {
		parts[i] = p.Name
	}
	_, schema, _, _ := relKey(parts, Path{})
	m := &Macro{Name: s.Name.Last().Name, Schema: schema, Temp: s.Temp, Table: s.Overloads[0].Table != nil,
		Text: b.src.Text[s.Start:s.End]}
	for _, d := range s.Overloads {
		if (d.Table != nil) != m.Table {
			return nil, b.errAt(d, ErrSyntax, "a macro's overloads are either all expressions or all AS TABLE queries")
		}
		o, err := b.macroOverload(m.Name, d)
		if err != nil {
			return nil, err
		}
		for _, prev := range m.Overloads {
			if len(prev.Params) == len(o.Params) {
				return nil, b.errAt(d, ErrSyntax, fmt.Sprintf(
					"ambiguity in macro overloads: macro %s has two definitions with %d parameter(s) (b2sql tells overloads apart by their number of parameters)",
					m.Name, len(o.Params)))
			}
		}
		m.Overloads = append(m.Overloads, o)
	}
	return &CreateMacro{Macro: m, Key: key, NamePos: pos, Replace: s.OrReplace, IfNotExists: s.IfNotExists}, nil
}

// macroOverload reads one overload of macro name.
func (b *stmtBuilder) macroOverload(name string, d *ast.MacroDef) (*MacroOverload, error) {
	o := &MacroOverload{}
	index := map[string]int{}
	for i, p := range d.Params {
		pn := strings.ToLower(p.Name.Name)
		if _, dup := index[pn]; dup {
			return nil, b.errAt(p, ErrSyntax, fmt.Sprintf("duplicate parameter %q in macro definition", p.Name.Name))
		}
		if p.Default == nil && i > 0 && d.Params[i-1].Default != nil {
			return nil, b.errAt(p, ErrSyntax, "parameter without a default follows parameter with a default")
		}
		index[pn] = i
		mp := MacroParam{Name: p.Name.Name}
		if p.Type != nil {
			if _, _, err := b.columnType(p.Type); err != nil {
				return nil, err
			}
			mp.Type = b.text(p.Type)
		}
		if p.Default != nil {
			mp.Default = b.text(p.Default)
		}
		o.Params = append(o.Params, mp)
	}
	var body ast.Node = d.Body
	if d.Table != nil {
		body = d.Table
	}
	sp := body.Extent()
	o.Body = b.src.Text[sp.Start:sp.End]
	refs, stray, agg := macroRefs(body, index)
	if stray != nil && d.Table == nil {
		return nil, b.errAt(stray, ErrUnknownColumn, fmt.Sprintf("column %q is not a parameter of macro %s (a macro's body sees only its parameters)",
			stray.Name.Last().Name, name))
	}
	for _, r := range refs {
		r.start, r.end = r.start-sp.Start, r.end-sp.Start
		o.Refs = append(o.Refs, r)
	}
	o.Agg.end = -1
	if agg != nil {
		o.Agg.start, o.Agg.end = agg.Start-sp.Start, agg.End-sp.Start
	}
	return o, nil
}

// text is the statement's text of node n.
func (b *stmtBuilder) text(n ast.Node) string {
	sp := n.Extent()
	return b.src.Text[sp.Start:sp.End]
}

// macroRefs finds, under body, the references to the parameters (index:
// lower-case name → position), in text order, at byte offsets of the
// statement. A name a lambda inside binds is the lambda's, not a
// parameter. stray is a column reference outside any subquery that names
// no parameter (nil when none); agg is the body's one aggregate call
// outside subqueries (nil when none or several).
func macroRefs(body ast.Node, index map[string]int) (refs []macroRef, stray *ast.ColumnRef, agg *ast.Func) {
	var lambdas []*ast.Lambda
	var queries []ast.Span
	var cols []*ast.ColumnRef
	var aggs []*ast.Func
	ast.WalkAll(body, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.Lambda:
			lambdas = append(lambdas, n)
		case *ast.Query:
			if n != body {
				queries = append(queries, n.Span)
			}
		case *ast.ColumnRef:
			cols = append(cols, n)
		case *ast.Func:
			if name := strings.ToLower(n.Name.Last().Name); n.Over == nil && (isAggName(name) || isAggMacro(name)) {
				aggs = append(aggs, n)
			}
		}
	})
	within := func(x, in ast.Span) bool { return x.Start >= in.Start && x.End <= in.End }
	inQuery := func(x ast.Span) bool {
		for _, q := range queries {
			if within(x, q) {
				return true
			}
		}
		return false
	}
	lambdaBound := func(c *ast.ColumnRef) bool {
		for _, l := range lambdas {
			if l.Body == nil || !within(c.Span, l.Body.Extent()) {
				continue
			}
			for _, p := range l.Params {
				if strings.EqualFold(p.Name, c.Name[0].Name) {
					return true
				}
			}
		}
		return false
	}
	for _, c := range cols {
		if lambdaBound(c) {
			continue
		}
		k, ok := index[strings.ToLower(c.Name[0].Name)]
		switch {
		case ok:
			refs = append(refs, macroRef{start: c.Name[0].Start, end: c.Name[0].End, param: k})
		case stray == nil && !inQuery(c.Span):
			stray = c
		}
	}
	slices.SortFunc(refs, func(a, b macroRef) int { return a.start - b.start }) // WalkAll promises only the set
	var outer []*ast.Func
	for _, f := range aggs {
		if !inQuery(f.Span) {
			outer = append(outer, f)
		}
	}
	if len(outer) == 1 {
		agg = outer[0]
	}
	return refs, stray, agg
}

// dropMacro builds DROP MACRO [TABLE] | DROP FUNCTION [IF EXISTS] name.
func (b *stmtBuilder) dropMacro(s *ast.Drop) (Statement, error) {
	if len(s.Names) != 1 {
		return nil, b.errAt(s.Names[1][0], ErrUnsupported, "DROP "+s.Kind+" takes one name")
	}
	key, _, pos, err := b.qualifiedNameIn(s.Names[0], Path{})
	if err != nil {
		return nil, err
	}
	return &DropMacro{Key: key, NamePos: pos, IfExists: s.IfExists, Table: s.Kind == "MACRO TABLE"}, nil
}
