package sql

// CreateView is CREATE [OR REPLACE] VIEW name AS query. Text is the
// query's SQL, which is bound anew wherever the view is used (so a view
// sees the tables as they are then).
type CreateView struct {
	Name    string
	NamePos Pos
	Replace bool
	Text    string
	Query   *Query
}

// DropView is DROP VIEW [IF EXISTS] name.
type DropView struct {
	Name     string
	NamePos  Pos
	IfExists bool
}

func (*CreateView) statement() {}
func (*DropView) statement()   {}

// isViewDDL reports whether toks start CREATE [OR REPLACE] VIEW.
func isViewDDL(toks []token) bool {
	at := func(i int) token {
		if i < len(toks) {
			return toks[i]
		}
		return token{}
	}
	return at(0).is("CREATE") && (at(1).is("VIEW") || at(1).is("OR") && at(2).is("REPLACE") && at(3).is("VIEW"))
}

func (p *stmtParser) viewDDL() (Statement, error) {
	c := &CreateView{}
	i := 2
	if p.at(1).is("OR") {
		c.Replace, i = true, 4
	}
	name := p.at(i)
	if name.kind != tkIdent && name.kind != tkQIdent {
		return nil, p.syntax(i)
	}
	c.Name, c.NamePos = name.val, p.pos(i)
	if p.at(i + 1).isOp("(") {
		return nil, errAt(p.src, p.at(i+1).off, ErrUnsupported, "CREATE VIEW with a column list is not supported")
	}
	if !p.at(i + 1).is("AS") {
		return nil, p.syntax(i + 1)
	}
	q, err := p.subQuery(i + 2)
	if err != nil {
		return nil, err
	}
	c.Query = q
	c.Text = p.src.Text[p.at(i+2).off:p.toks[len(p.toks)-1].end]
	return c, nil
}
