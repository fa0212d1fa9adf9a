package sql

import "strings"

// CreateSecret is DuckDB's CREATE [OR REPLACE] [TEMPORARY] SECRET [IF NOT
// EXISTS] [name] (key value, …): credentials for remote locations, kept in
// memory. Keys are lower case; a value is a string, a number, a bare word
// or, for SCOPE, a list ('…', '…' in brackets or parentheses).
type CreateSecret struct {
	Name        string // "" when unnamed (DuckDB names it __default_<type>)
	OrReplace   bool
	IfNotExists bool
	Options     []SecretOption
}

// SecretOption is one key and its values, with the key's position for
// errors.
type SecretOption struct {
	Key    string
	Values []string
	Pos    Pos
}

// DropSecret is DROP [TEMPORARY] SECRET [IF EXISTS] name.
type DropSecret struct {
	Name     string
	IfExists bool
}

func (*CreateSecret) statement() {}
func (*DropSecret) statement()   {}

// parseSecret parses CREATE SECRET and DROP SECRET from the statement's
// tokens (without a final ';'); ok is false for other statements.
func parseSecret(src Source, toks []token) (st Statement, ok bool, err error) {
	if len(toks) < 2 || !toks[0].is("CREATE") && !toks[0].is("DROP") {
		return nil, false, nil
	}
	p := &stmtParser{src: src, toks: toks}
	i := 1
	create := p.at(0).is("CREATE")
	if !create && !p.at(0).is("DROP") {
		return nil, false, nil
	}
	orReplace := false
	if create && p.at(1).is("OR") && p.at(2).is("REPLACE") {
		orReplace, i = true, 3
	}
	persistent := -1
	switch {
	case p.at(i).is("TEMPORARY") || p.at(i).is("TEMP"):
		i++
	case p.at(i).is("PERSISTENT"):
		persistent = i
		i++
	}
	if !p.at(i).is("SECRET") {
		return nil, false, nil
	}
	if persistent >= 0 {
		return nil, true, errAt(src, toks[persistent].off, ErrUnsupported,
			"persistent secrets are not stored: secrets live in memory for the database's lifetime (CREATE SECRET or CREATE TEMPORARY SECRET)")
	}
	i++
	if !create {
		d := &DropSecret{}
		if p.at(i).is("IF") && p.at(i+1).is("EXISTS") {
			d.IfExists, i = true, i+2
		}
		if !p.name(i) {
			return nil, true, p.syntax(i)
		}
		d.Name, i = strings.ToLower(p.at(i).val), i+1
		if p.at(i).is("FROM") && p.name(i+1) {
			i += 2 // FROM memory: the only storage there is
		}
		if i < len(toks) {
			return nil, true, p.syntax(i)
		}
		return d, true, nil
	}
	c := &CreateSecret{OrReplace: orReplace}
	if p.at(i).is("IF") && p.at(i+1).is("NOT") && p.at(i+2).is("EXISTS") {
		c.IfNotExists, i = true, i+3
	}
	if p.name(i) && !p.at(i+1).isOp(")") && !p.at(i).is("IN") {
		c.Name, i = strings.ToLower(p.at(i).val), i+1
	}
	if p.at(i).is("IN") && p.name(i+1) {
		if !p.at(i + 1).is("MEMORY") {
			return nil, true, errAt(src, toks[i+1].off, ErrUnsupported,
				"secrets are kept in memory only (IN MEMORY)")
		}
		i += 2
	}
	if !p.at(i).isOp("(") {
		return nil, true, p.syntax(i)
	}
	i++
	for !p.at(i).isOp(")") {
		if !p.name(i) {
			return nil, true, p.syntax(i)
		}
		opt := SecretOption{Key: strings.ToLower(p.at(i).val), Pos: posIn(src.Text, toks[i].off, Pos{src.Line, src.Col})}
		i++
		var err error
		if opt.Values, i, err = p.secretValues(i); err != nil {
			return nil, true, err
		}
		c.Options = append(c.Options, opt)
		if p.at(i).isOp(",") {
			i++
			continue
		}
		if !p.at(i).isOp(")") {
			return nil, true, p.syntax(i)
		}
	}
	i++
	if i < len(toks) {
		return nil, true, p.syntax(i)
	}
	return c, true, nil
}

// secretValues parses one option value at i: a scalar or a list.
func (p *stmtParser) secretValues(i int) ([]string, int, error) {
	closeOp := ""
	switch {
	case p.at(i).isOp("["):
		closeOp = "]"
	case p.at(i).isOp("("):
		closeOp = ")"
	}
	if closeOp == "" {
		v, ok := p.secretScalar(i)
		if !ok {
			return nil, i, p.syntax(i)
		}
		return []string{v}, i + 1, nil
	}
	i++
	var vals []string
	for !p.at(i).isOp(closeOp) {
		v, ok := p.secretScalar(i)
		if !ok {
			return nil, i, p.syntax(i)
		}
		vals = append(vals, v)
		i++
		if p.at(i).isOp(",") {
			i++
		} else if !p.at(i).isOp(closeOp) {
			return nil, i, p.syntax(i)
		}
	}
	return vals, i + 1, nil
}

// secretScalar is the value of a string, number or bare word at i.
func (p *stmtParser) secretScalar(i int) (string, bool) {
	if i >= len(p.toks) {
		return "", false
	}
	switch t := p.toks[i]; t.kind {
	case tkString, tkNumber, tkIdent, tkQIdent:
		return t.val, true
	}
	return "", false
}

// stmtParser reads a statement the syntax tree parser does not take
// (CREATE SECRET) from its tokens.
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
