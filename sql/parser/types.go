package parser

import (
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// typeName parses a type: a name (multi-word names included), its
// parameters or fields, and [] / [n] / ARRAY suffixes.
func (p *parser) typeName() *ast.TypeName {
	p.enter()
	defer p.leave()
	s := p.start()
	t := p.tok()
	if t.kind != tIdent && t.kind != tQIdent {
		p.fail("expected a type name")
	}
	p.advance()
	typ := &ast.TypeName{Name: t.val}
	if t.kind == tIdent {
		typ.Name = strings.ToUpper(t.val)
	}
	if p.isOp(".") && isLabel(p.peek(1)) {
		p.advance()
		typ.Schema = typ.Name
		n := p.advance()
		typ.Name = n.val
		if n.kind == tIdent {
			typ.Name = strings.ToUpper(n.val)
		}
	}
	switch typ.Name {
	case "DOUBLE":
		if p.acceptWord("PRECISION") {
			typ.Name = "DOUBLE PRECISION"
		}
	case "CHARACTER", "CHAR", "BIT":
		if p.acceptWord("VARYING") {
			typ.Name += " VARYING"
		}
	case "NATIONAL":
		if p.acceptWord("CHARACTER") || p.acceptWord("CHAR") {
			typ.Name = "NATIONAL CHARACTER"
			if p.acceptWord("VARYING") {
				typ.Name += " VARYING"
			}
		}
	}
	switch {
	case (typ.Name == "STRUCT" || typ.Name == "ROW" || typ.Name == "UNION") && p.isOp("("):
		p.advance()
		for !p.isOp(")") {
			fs := p.start()
			name := p.label("a field name")
			ft := p.typeName()
			typ.Fields = append(typ.Fields, &ast.TypeField{Span: p.span(fs), Name: name, Type: ft})
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	case typ.Name == "MAP" && p.isOp("("):
		p.advance()
		typ.Args = append(typ.Args, p.typeName())
		p.expectOp(",")
		typ.Args = append(typ.Args, p.typeName())
		p.expectOp(")")
	case (typ.Name == "LIST") && p.isOp("("):
		p.advance()
		typ.Args = append(typ.Args, p.typeName())
		p.expectOp(")")
	case p.isOp("("):
		p.advance()
		for !p.isOp(")") {
			typ.Params = append(typ.Params, p.expr())
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	}
	if (typ.Name == "TIMESTAMP" || typ.Name == "TIME") && (p.isWord("WITH") || p.isWord("WITHOUT")) &&
		p.isWordAt(1, "TIME") && p.isWordAt(2, "ZONE") {
		with := p.advance()
		p.i += 2
		if isKeyword(with.val, "WITH") {
			typ.Name += " WITH TIME ZONE"
		}
	}
	if typ.Name == "INTERVAL" {
		if t := p.tok(); t.kind == tIdent && intervalUnits[strings.ToUpper(t.val)] {
			typ.Qualifier = strings.ToUpper(p.advance().val)
			if p.isWord("TO") && p.peek(1).kind == tIdent && intervalUnits[strings.ToUpper(p.peek(1).val)] {
				p.advance()
				typ.Qualifier += " TO " + strings.ToUpper(p.advance().val)
			}
		}
	}
	for {
		if p.isOp("[") {
			p.advance()
			n := -1
			if t := p.tok(); t.kind == tNumber {
				v, err := strconv.Atoi(t.val)
				if err != nil || v <= 0 {
					p.fail("expected an array size")
				}
				n = v
				p.advance()
			}
			p.expectOp("]")
			typ.Array = append(typ.Array, n)
			continue
		}
		if p.acceptWord("ARRAY") {
			typ.Array = append(typ.Array, -1)
			continue
		}
		break
	}
	typ.Span = p.span(s)
	return typ
}
