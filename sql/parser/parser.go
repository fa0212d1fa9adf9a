package parser

import (
	"github.com/b2sql/b2sql/sql/ast"
)

// maxDepth bounds the nesting of expressions and queries, so that hostile
// input cannot exhaust the stack.
const maxDepth = 1000

// parser is the state of one parse: the script's tokens and the current one.
type parser struct {
	src   string
	toks  []token
	i     int
	depth int
	// after is the operator whose operand is being parsed (for "expected
	// an expression after …"); inLimit makes a final % mean percent.
	after   token
	inLimit bool
}

// bail carries a syntax error up the recursive descent to Parse.
type bail struct{ err *Error }

// ParseScript parses every statement of a script, separated by ';'
// (empty statements are skipped). Spans are offsets into script.
func ParseScript(script string) (stmts []ast.Stmt, err error) {
	toks, lerr := lex(script)
	if lerr != nil {
		return nil, lerr
	}
	return parseScript(script, toks)
}

// parseScript parses the statements of script from its tokens.
func parseScript(script string, toks []token) (stmts []ast.Stmt, err error) {
	p := &parser{src: script, toks: toks}
	defer p.recover(&err)
	for {
		for p.acceptOp(";") {
		}
		if p.tok().kind == tEOF {
			return stmts, nil
		}
		stmts = append(stmts, p.statement())
		if !p.isOp(";") && p.tok().kind != tEOF {
			p.fail("")
		}
	}
}

// Parse parses a script holding exactly one statement (a final ';' is
// allowed).
func Parse(script string) (ast.Stmt, error) { return Lex(script).Parse() }

// parseOne parses the one statement of script from its tokens.
func parseOne(script string, toks []token) (ast.Stmt, error) {
	stmts, err := parseScript(script, toks)
	if err != nil {
		return nil, err
	}
	switch len(stmts) {
	case 0:
		return nil, errorAt(script, len(script), "empty statement")
	case 1:
		return stmts[0], nil
	}
	return nil, errorAt(script, stmts[1].Extent().Start, "more than one statement; split the script first")
}

// ParseExpr parses a script holding one expression.
func ParseExpr(text string) (e ast.Expr, err error) {
	toks, lerr := lex(text)
	if lerr != nil {
		return nil, lerr
	}
	p := &parser{src: text, toks: toks}
	defer p.recover(&err)
	e = p.expr()
	if p.tok().kind != tEOF {
		p.fail("")
	}
	return e, nil
}

// ParseType parses a script holding one type name, as the types and
// columns options of read_csv and read_json give them: 'INTEGER[]',
// 'STRUCT(a INT, b VARCHAR[])', 'MAP(VARCHAR, INT)'.
func ParseType(text string) (t *ast.TypeName, err error) {
	toks, lerr := lex(text)
	if lerr != nil {
		return nil, lerr
	}
	p := &parser{src: text, toks: toks}
	defer p.recover(&err)
	t = p.typeName()
	if p.tok().kind != tEOF {
		p.fail("")
	}
	return t, nil
}

func (p *parser) recover(err *error) {
	if r := recover(); r != nil {
		b, ok := r.(bail)
		if !ok {
			panic(r)
		}
		*err = b.err
	}
}

func (p *parser) tok() token          { return p.toks[p.i] }
func (p *parser) peek(k int) token    { return p.toks[min(p.i+k, len(p.toks)-1)] }
func (p *parser) prevEnd() int        { return p.toks[max(p.i-1, 0)].end }
func (p *parser) start() int          { return p.tok().start }
func (p *parser) span(s int) ast.Span { return ast.Span{Start: s, End: max(p.prevEnd(), s)} }

func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// isWord reports whether the current token is the bare word w (upper case).
func (p *parser) isWord(w string) bool { return p.isWordAt(0, w) }

func (p *parser) isWordAt(k int, w string) bool {
	t := p.peek(k)
	return t.kind == tIdent && isKeyword(t.val, w)
}

func (p *parser) isOp(op string) bool { return p.isOpAt(0, op) }

func (p *parser) isOpAt(k int, op string) bool {
	t := p.peek(k)
	return t.kind == tOp && t.val == op
}

func (p *parser) acceptWord(w string) bool {
	if p.isWord(w) {
		p.i++
		return true
	}
	return false
}

// acceptWords accepts the sequence of words ws, all or none.
func (p *parser) acceptWords(ws ...string) bool {
	for k, w := range ws {
		if !p.isWordAt(k, w) {
			return false
		}
	}
	p.i += len(ws)
	return true
}

func (p *parser) acceptOp(op string) bool {
	if p.isOp(op) {
		p.i++
		return true
	}
	return false
}

func (p *parser) expectWord(w string) token {
	if !p.isWord(w) {
		p.fail("expected " + w)
	}
	return p.advance()
}

func (p *parser) expectOp(op string) token {
	if !p.isOp(op) {
		p.fail("expected " + quote(op))
	}
	return p.advance()
}

// fail stops the parse with a syntax error at the current token; want,
// when not empty, says what was expected there.
func (p *parser) fail(want string) {
	p.failAt(p.tok(), want)
}

func (p *parser) failAt(t token, want string) {
	msg := "syntax error at or near " + quote(p.src[t.start:t.end])
	if t.kind == tEOF {
		msg = "syntax error at end of input"
		if want == "" {
			want = "the statement is incomplete"
		}
	}
	if want != "" {
		msg += " (" + want + ")"
	}
	panic(bail{errorAt(p.src, t.start, msg)})
}

// failMsg stops the parse with msg at offset off.
func (p *parser) failMsg(off int, msg string) {
	panic(bail{errorAt(p.src, off, msg)})
}

// listEnds reports whether the token after a list's comma ends the list
// (DuckDB accepts trailing commas in most lists).
func (p *parser) listEnds() bool {
	switch t := p.tok(); t.kind {
	case tEOF:
		return true
	case tOp:
		return t.val == ";" || t.val == ")"
	case tIdent:
		return t.cat == catReserved && !startsExprWord(t.val) && !isKeyword(t.val, "LATERAL")
	}
	return false
}

// try runs f, and when f fails with a syntax error puts the parser back
// where it was and reports false (for the few places where the grammar
// needs to look past a parenthesis).
func (p *parser) try(f func()) (ok bool) {
	save, depth, inLimit := p.i, p.depth, p.inLimit
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bail); !isBail {
				panic(r)
			}
			p.i, p.depth, p.inLimit = save, depth, inLimit
			ok = false
		}
	}()
	f()
	return true
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.failMsg(p.start(), "statement nested too deeply")
	}
}

func (p *parser) leave() { p.depth-- }

// ident makes an Ident of token t.
func identOf(t token) *ast.Ident {
	return &ast.Ident{Span: ast.Span{Start: t.start, End: t.end}, Name: t.val, Quoted: t.kind == tQIdent}
}

// isColID reports whether token t may name a column or table (ColId).
func isColID(t token) bool {
	return t.kind == tQIdent || (t.kind == tIdent && (t.cat == catNone || t.cat == catUnreserved || t.cat == catColName))
}

// isLabel reports whether token t may be a label after AS or a dot.
func isLabel(t token) bool { return t.kind == tQIdent || t.kind == tIdent }

// colID parses a ColId: a name that is not a reserved or type/function keyword.
func (p *parser) colID(what string) *ast.Ident {
	if !isColID(p.tok()) {
		p.fail("expected " + what)
	}
	return identOf(p.advance())
}

// label parses a ColLabel: any word or quoted identifier.
func (p *parser) label(what string) *ast.Ident {
	if !isLabel(p.tok()) {
		p.fail("expected " + what)
	}
	return identOf(p.advance())
}

// qualifiedName parses name[.name…].
func (p *parser) qualifiedName(what string) ast.Name {
	var n ast.Name
	if t := p.tok(); t.kind == tIdent && t.cat == catTypeFunc {
		n = ast.Name{identOf(p.advance())}
	} else {
		n = ast.Name{p.colID(what)}
	}
	for p.isOp(".") && isLabel(p.peek(1)) {
		p.i++
		n = append(n, identOf(p.advance()))
	}
	return n
}

// identList parses ( name, … ).
func (p *parser) parenIdents(what string) []*ast.Ident {
	p.expectOp("(")
	var ids []*ast.Ident
	for {
		ids = append(ids, p.colIDOrLabel(what))
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return ids
}

// colIDOrLabel accepts any word where the grammar is unambiguous (column
// lists).
func (p *parser) colIDOrLabel(what string) *ast.Ident {
	if t := p.tok(); t.kind == tQIdent || (t.kind == tIdent && t.cat != catReserved) {
		return identOf(p.advance())
	}
	p.fail("expected " + what)
	return nil
}
