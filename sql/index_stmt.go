package sql

import (
	"fmt"
	"strings"
)

// Index statements. The syntax follows DuckDB (CREATE INDEX name ON t
// USING kind (col)), also accepting the kind after the column list, an
// unnamed index, and SQLite's multi-column lists and REINDEX:
//
//	CREATE INDEX [IF NOT EXISTS] [name] ON table [USING kind] (col [, col…]) [USING kind]
//	DROP INDEX [IF EXISTS] name
//	DROP INDEX [IF EXISTS] ON table (col)
//	REINDEX [table [(col)] | index]
//
// kind is FULL or SUMMARY (python-blosc2's index kinds that b2sql builds).

// CreateIndex is CREATE INDEX. Kind is "full", "summary" or "" (not given).
type CreateIndex struct {
	Name        string // "" when unnamed
	NamePos     Pos
	Table       string
	TablePos    Pos
	Columns     []string
	ColumnPos   []Pos
	Kind        string
	KindPos     Pos
	IfNotExists bool
}

// DropIndex is DROP INDEX name, or DROP INDEX ON table (col) when Table is
// set.
type DropIndex struct {
	Name      string
	NamePos   Pos
	Table     string
	TablePos  Pos
	Column    string
	ColumnPos Pos
	IfExists  bool
}

// Reindex is REINDEX [target [(col)]]: Target names a table or an index
// ("" = every index); Column restricts a table to one column.
type Reindex struct {
	Target    string
	TargetPos Pos
	Column    string
	ColumnPos Pos
	Pos       Pos // of the REINDEX keyword
}

func (*CreateIndex) statement() {}
func (*DropIndex) statement()   {}
func (*Reindex) statement()     {}

// ParseIndex parses CREATE [UNIQUE] INDEX, DROP INDEX and REINDEX. ok is
// false (st and err nil) when src is none of them, so that the caller
// tries the other parsers. Errors are *Error positioned in the script.
func ParseIndex(src Source) (st Statement, ok bool, err error) {
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
	at := func(i int) token {
		if i < len(toks) {
			return toks[i]
		}
		return token{}
	}
	p := &stmtParser{src: src, toks: toks}
	switch {
	case at(0).is("CREATE") && (at(1).is("INDEX") || at(1).is("UNIQUE") && at(2).is("INDEX")):
		st, err = p.createIndex()
	case at(0).is("DROP") && at(1).is("INDEX"):
		st, err = p.dropIndex()
	case at(0).is("REINDEX"):
		st, err = p.reindex()
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return st, true, nil
}

// name reports whether token i is a name (identifier or quoted identifier).
func (p *stmtParser) name(i int) bool {
	t := p.at(i)
	return t.kind == tkIdent || t.kind == tkQIdent
}

// indexKind parses the kind after USING at i.
func (p *stmtParser) indexKind(i int) (string, error) {
	if !p.name(i) {
		return "", p.syntax(i)
	}
	switch k := strings.ToLower(p.at(i).val); k {
	case "full", "summary":
		return k, nil
	default:
		return "", errAt(p.src, p.at(i).off, ErrUnsupported,
			fmt.Sprintf("unknown index kind %q (FULL or SUMMARY)", p.at(i).val))
	}
}

// columnList parses "(col [ASC|DESC] [, …])" at i and returns the index
// after ")".
func (p *stmtParser) columnList(i int, cols *[]string, pos *[]Pos) (int, error) {
	if !p.at(i).isOp("(") {
		return 0, p.syntax(i)
	}
	i++
	for {
		if !p.name(i) {
			return 0, p.syntax(i)
		}
		*cols = append(*cols, p.at(i).val)
		*pos = append(*pos, p.pos(i))
		i++
		if p.at(i).is("ASC") || p.at(i).is("DESC") {
			i++
		}
		switch {
		case p.at(i).isOp(","):
			i++
		case p.at(i).isOp(")"):
			return i + 1, nil
		default:
			return 0, p.syntax(i)
		}
	}
}

func (p *stmtParser) createIndex() (Statement, error) {
	if p.at(1).is("UNIQUE") {
		return nil, errAt(p.src, p.at(1).off, ErrUnsupported, "UNIQUE indexes are not supported (b2sql indexes speed up reads; they enforce nothing)")
	}
	c := &CreateIndex{}
	i := 2
	if p.at(i).is("IF") {
		if !p.at(i+1).is("NOT") || !p.at(i+2).is("EXISTS") {
			return nil, p.syntax(i + 1)
		}
		c.IfNotExists, i = true, i+3
	}
	if !p.at(i).is("ON") || p.at(i+1).is("ON") {
		if !p.name(i) {
			return nil, p.syntax(i)
		}
		c.Name, c.NamePos = p.at(i).val, p.pos(i)
		i++
	}
	if !p.at(i).is("ON") {
		return nil, p.syntax(i)
	}
	i++
	if !p.name(i) {
		return nil, p.syntax(i)
	}
	c.Table, c.TablePos = p.at(i).val, p.pos(i)
	i++
	using := func() error {
		if c.Kind != "" {
			return p.syntax(i)
		}
		k, err := p.indexKind(i + 1)
		if err != nil {
			return err
		}
		c.Kind, c.KindPos = k, p.pos(i+1)
		i += 2
		return nil
	}
	if p.at(i).is("USING") {
		if err := using(); err != nil {
			return nil, err
		}
	}
	var err error
	if i, err = p.columnList(i, &c.Columns, &c.ColumnPos); err != nil {
		return nil, err
	}
	if p.at(i).is("USING") {
		if err := using(); err != nil {
			return nil, err
		}
	}
	if i != len(p.toks) {
		return nil, p.syntax(i)
	}
	return c, nil
}

func (p *stmtParser) dropIndex() (Statement, error) {
	d := &DropIndex{}
	i := 2
	if p.at(i).is("IF") {
		if !p.at(i + 1).is("EXISTS") {
			return nil, p.syntax(i + 1)
		}
		d.IfExists, i = true, i+2
	}
	if p.at(i).is("ON") && p.name(i+1) && p.at(i+2).isOp("(") {
		d.Table, d.TablePos = p.at(i+1).val, p.pos(i+1)
		var cols []string
		var pos []Pos
		j, err := p.columnList(i+2, &cols, &pos)
		if err != nil {
			return nil, err
		}
		if len(cols) != 1 {
			return nil, errAt(p.src, p.at(i+2).off, ErrSyntax, "DROP INDEX ON names one column")
		}
		d.Column, d.ColumnPos = cols[0], pos[0]
		if j != len(p.toks) {
			return nil, p.syntax(j)
		}
		return d, nil
	}
	if !p.name(i) {
		return nil, p.syntax(i)
	}
	d.Name, d.NamePos = p.at(i).val, p.pos(i)
	if i+1 != len(p.toks) {
		return nil, p.syntax(i + 1)
	}
	return d, nil
}

func (p *stmtParser) reindex() (Statement, error) {
	r := &Reindex{Pos: p.pos(0)}
	if len(p.toks) == 1 {
		return r, nil
	}
	if !p.name(1) {
		return nil, p.syntax(1)
	}
	r.Target, r.TargetPos = p.at(1).val, p.pos(1)
	i := 2
	if p.at(i).isOp("(") {
		var cols []string
		var pos []Pos
		j, err := p.columnList(i, &cols, &pos)
		if err != nil {
			return nil, err
		}
		if len(cols) != 1 {
			return nil, errAt(p.src, p.at(i).off, ErrSyntax, "REINDEX table (column) names one column")
		}
		r.Column, r.ColumnPos, i = cols[0], pos[0], j
	}
	if i != len(p.toks) {
		return nil, p.syntax(i)
	}
	return r, nil
}
