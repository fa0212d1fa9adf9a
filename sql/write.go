package sql

import (
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// Copy is COPY (query) TO 'path' [(options)] or COPY table TO 'path' …:
// the query's result written as a file of the format FORMAT or the path's
// extension names (internal/dml checks the options against it). The path
// may be a ? marker (PathParam), whose value follows those of the query's
// markers.
type Copy struct {
	Query     *Query
	Path      string
	PathParam bool
	PathPos   Pos
	Options   []FileArg // copy_options.go
}

// CreateTableAs is CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name
// [WITH (options)] AS query.
type CreateTableAs struct {
	Name        string
	NamePos     Pos
	Replace     bool
	IfNotExists bool
	Query       *Query
	Options     []Option
}

// DropTable is DROP TABLE [IF EXISTS] name.
type DropTable struct {
	Name     string
	NamePos  Pos
	IfExists bool
}

func (*Copy) statement()          {}
func (*CreateTableAs) statement() {}
func (*DropTable) statement()     {}

// parseWrite parses the statements that write: COPY … TO, COPY table
// FROM, CREATE TABLE (… AS query, or with columns), INSERT,
// REPLACE, DELETE and UPDATE. ok is false (and st, err nil) when src is none of
// them, so that the caller falls back to Parse. Errors are *Error
// positioned in the whole script.
func parseWrite(src Source) (st Statement, ok bool, err error) {
	if src.Line <= 0 {
		src.Line = 1
	}
	if src.Col <= 0 {
		src.Col = 1
	}
	toks, err := lex(src)
	if err != nil || len(toks) == 0 {
		return nil, false, nil
	}
	if n := len(toks); toks[n-1].isOp(";") {
		toks = toks[:n-1]
	}
	if len(toks) == 0 {
		return nil, false, nil
	}
	p := &stmtParser{src: src, toks: toks}
	switch {
	case toks[0].is("COPY"):
		st, err = p.copyTo()
	case toks[0].is("CREATE"):
		st, err = p.createTableAs()
	case toks[0].is("INSERT") || toks[0].is("REPLACE") && toks[1%len(toks)].is("INTO"):
		st, err = p.insert()
	case toks[0].is("DELETE"):
		st, err = p.deleteFrom()
	case toks[0].is("UPDATE"):
		st, err = p.update()
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return st, true, nil
}

func (p *stmtParser) pos(i int) Pos {
	return posIn(p.src.Text, p.at(i).off, Pos{p.src.Line, p.src.Col})
}

// closing returns the index of the ")" matching the "(" at i, or -1.
func (p *stmtParser) closing(i int) int {
	depth := 0
	for j := i; j < len(p.toks); j++ {
		switch {
		case p.toks[j].isOp("("):
			depth++
		case p.toks[j].isOp(")"):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

func (p *stmtParser) copyTo() (Statement, error) {
	c := &Copy{}
	var end int // index of TO
	switch t := p.at(1); {
	case t.isOp("("):
		j := p.closing(1)
		if j < 0 {
			return nil, p.syntax(len(p.toks))
		}
		if j == 2 {
			return nil, p.syntax(2)
		}
		q, err := parseQuery(p.src, p.toks[2:j])
		if err != nil {
			return nil, err
		}
		c.Query, end = q, j+1
	case (t.kind == tkIdent || t.kind == tkQIdent) && p.at(2).is("FROM"):
		return p.copyFrom()
	case t.kind == tkIdent || t.kind == tkQIdent || t.kind == tkString:
		c.Query, end = p.selectStar(1), 2
	default:
		return nil, p.syntax(1)
	}
	if !p.at(end).is("TO") {
		return nil, p.syntax(end)
	}
	switch path := p.at(end + 1); {
	case path.kind == tkString:
		c.Path = path.val
	case path.isOp("?"):
		c.PathParam = true
	default:
		return nil, p.syntax(end + 1)
	}
	c.PathPos = p.pos(end + 1)
	i := end + 2
	if i == len(p.toks) {
		return c, nil
	}
	if !p.at(i).isOp("(") || p.closing(i) != len(p.toks)-1 {
		return nil, p.syntax(i)
	}
	opts, err := copyOptions(p.src, p.toks, i, len(p.toks)-1)
	if err != nil {
		return nil, err
	}
	c.Options = opts
	return c, nil
}

// selectStar is SELECT * FROM the table or path at token i, with that
// token in place so that binding errors point at it (as for DESCRIBE).
func (p *stmtParser) selectStar(i int) *Query {
	t := p.at(i)
	from := &sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Name: sqlparser.NewTableIdent(t.val)}}
	sel := &sqlparser.Select{SelectExprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}}, From: sqlparser.TableExprs{from}}
	rw := &rewritten{paths: map[string]bool{}, nulls: map[int]bool{}}
	if t.kind == tkString {
		rw.paths[t.val] = true
	}
	return &Query{src: p.src, toks: p.toks[i : i+1], rw: rw, sel: sel, syn: &syntaxIndex{built: true}}
}

func (p *stmtParser) createTableAs() (Statement, error) {
	c := &CreateTableAs{}
	i := 1
	if p.at(1).is("OR") && p.at(2).is("REPLACE") {
		c.Replace, i = true, 3
	}
	if !p.at(i).is("TABLE") {
		if p.at(i).kind == tkIdent {
			return nil, errAt(p.src, p.at(0).off, ErrUnsupported, "CREATE "+strings.ToUpper(p.at(i).val)+" is not supported")
		}
		return nil, p.syntax(i)
	}
	i++
	if p.at(i).is("IF") {
		if !p.at(i+1).is("NOT") || !p.at(i+2).is("EXISTS") {
			return nil, p.syntax(i + 1)
		}
		c.IfNotExists = true
		i += 3
	}
	name := p.at(i)
	if name.kind != tkIdent && name.kind != tkQIdent {
		return nil, p.syntax(i)
	}
	c.Name, c.NamePos = name.val, p.pos(i)
	if p.at(i + 1).isOp("(") {
		return p.createTable(c.Replace, c.IfNotExists, i)
	}
	if p.at(i+1).is("WITH") && p.at(i+2).isOp("(") {
		end := p.closing(i + 2)
		if end < 0 {
			return nil, p.syntax(len(p.toks))
		}
		opts, err := p.options(i+2, end)
		if err != nil {
			return nil, err
		}
		c.Options = opts
		i = end // AS follows the option list
	}
	if !p.at(i + 1).is("AS") {
		return nil, p.syntax(i + 1)
	}
	if i+2 >= len(p.toks) {
		return nil, p.syntax(i + 2)
	}
	q, err := p.subQuery(i + 2)
	if err != nil {
		return nil, err
	}
	c.Query = q
	return c, nil
}

// copyFrom parses COPY table FROM 'path' [(option value, …)]: the file's
// rows appended to the table, as INSERT INTO table SELECT * FROM 'path'.
func (p *stmtParser) copyFrom() (Statement, error) {
	name := p.at(1)
	ins := &Insert{Table: name.val, TablePos: p.pos(1)}
	if p.at(3).kind != tkString {
		return nil, p.syntax(3)
	}
	var opts []FileArg
	if len(p.toks) > 4 {
		if !p.at(4).isOp("(") || p.closing(4) != len(p.toks)-1 {
			return nil, p.syntax(4)
		}
		var err error
		if opts, err = copyOptions(p.src, p.toks, 4, len(p.toks)-1); err != nil {
			return nil, err
		}
	}
	ins.Query, ins.Options = p.copySource(3, opts) // copy_options.go
	return ins, nil
}
