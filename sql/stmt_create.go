package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql/ast"
)

// CREATE TABLE from the syntax tree: with column definitions (CreateTable)
// or AS query (CreateTableAs); TEMP makes either an in-memory table.

func (b *stmtBuilder) createTable(s *ast.CreateTable) (Statement, error) {
	path := b.path
	if s.Temp {
		path = Path{} // temp.main's, whatever USE says
	}
	name, catalog, pos, err := b.qualifiedNameIn(s.Name, path)
	if err != nil {
		return nil, err
	}
	switch {
	case s.Temp && catalog == "memory":
		return nil, b.errAt(s.Name[0], ErrSyntax, `a TEMP table's name can only use the "temp" catalog`)
	case !s.Temp && catalog == "temp":
		return nil, b.errAt(s.Name[0], ErrSyntax, `only a TEMP table's name can use the "temp" catalog (CREATE TEMP TABLE)`)
	}
	opts, err := b.withOptions(s.Options)
	if err != nil {
		return nil, err
	}
	if s.Temp {
		if opts, err = b.tempOptions(s, opts); err != nil {
			return nil, err
		}
	}
	if s.As != nil {
		switch {
		case len(s.AsColumns) > 0:
			return nil, b.errAt(s.AsColumns[0], ErrUnsupported, "CREATE TABLE t (columns) AS query is not supported (name the columns in the query)")
		case s.WithNoData:
			return nil, b.errAt(s, ErrUnsupported, "CREATE TABLE … AS … WITH NO DATA is not supported")
		}
		c := &CreateTableAs{Name: name, NamePos: pos, Temp: s.Temp, Replace: s.OrReplace, IfNotExists: s.IfNotExists, Options: opts}
		if c.Query, err = b.query(s.As); err == nil {
			c.Query.table = true
		}
		return c, err
	}
	c := &CreateTable{Name: name, NamePos: pos, Temp: s.Temp, Replace: s.OrReplace, IfNotExists: s.IfNotExists, Options: opts}
	var keys [][]*ast.Ident
	var pk []*ast.Ident
	for _, d := range s.Columns {
		col, key, err := b.columnDef(d)
		if err != nil {
			return nil, err
		}
		c.Cols = append(c.Cols, col)
		if key {
			keys = append(keys, []*ast.Ident{d.Name})
		}
	}
	if len(c.Cols) == 0 {
		return nil, b.errAt(s, ErrSyntax, "CREATE TABLE needs at least one column")
	}
	for _, k := range s.Constraints {
		switch k.Kind {
		case "CHECK":
			if err := b.check(k.Expr, c.Cols, -1); err != nil {
				return nil, err
			}
		case "PRIMARY KEY", "UNIQUE":
			keys = append(keys, k.Columns)
			if k.Kind == "PRIMARY KEY" {
				pk = k.Columns
			}
		case "FOREIGN KEY", "REFERENCES":
			return nil, b.errAt(k, ErrUnsupported, "FOREIGN KEY constraints are not supported")
		default:
			return nil, b.errAt(k, ErrUnsupported, k.Kind+" table constraints are not supported")
		}
	}
	for _, names := range keys {
		var key []int
		for _, n := range names {
			ci := columnIndex(c.Cols, n.Name)
			if ci < 0 {
				return nil, b.errAt(n, ErrUnknownColumn, fmt.Sprintf("unknown column %q in key", n.Name))
			}
			if c.Cols[ci].Generated != "" {
				return nil, b.errAt(n, ErrUnsupported, fmt.Sprintf("column %q: constraints on generated columns are not allowed (DuckDB refuses them too)", n.Name))
			}
			key = append(key, ci)
		}
		c.Keys = append(c.Keys, key)
	}
	for _, n := range pk {
		c.Cols[columnIndex(c.Cols, n.Name)].PrimaryKey = true // checked above
	}
	return c, nil
}

// tempOptions adds FORMAT memory for CREATE TEMP TABLE: an in-memory
// table, which no file holds and which is gone when the database closes.
// DuckDB's temporary tables are also private to their connection;
// b2sql's catalog is one per database, so other connections of the same
// database see it.
func (b *stmtBuilder) tempOptions(s *ast.CreateTable, opts []Option) ([]Option, error) {
	for _, o := range opts {
		if o.Name == "format" && o.Value != "memory" {
			return nil, &Error{Pos: o.Pos, Kind: ErrUnsupported, Msg: "a TEMP table is in memory: FORMAT " + o.Value + " contradicts it"}
		}
	}
	return append(opts, Option{Name: "format", Value: "memory", Pos: b.pos(s.TempAt.Start)}), nil
}

// columnDef reads one column definition; key reports a column-level
// PRIMARY KEY or UNIQUE.
func (b *stmtBuilder) columnDef(d *ast.ColumnDef) (col ColumnDef, key bool, err error) {
	col.Name, col.Pos = d.Name.Name, b.pos(d.Name.Start)
	if gen := generatedOf(d); gen != nil {
		return col, false, b.generatedDef(&col, d, gen)
	}
	if d.Type == nil {
		return col, false, b.errAt(d.Name, ErrSyntax, fmt.Sprintf("column %q needs a type", col.Name))
	}
	if col.Type, col.TypeRef, err = b.columnType(d.Type); err != nil {
		return col, false, err
	}
	if id := col.Type.ID; (id == columnar.Varchar || id == columnar.Blob) && len(d.Type.Params) > 0 {
		col.Length, _ = strconv.Atoi(d.Type.Params[0].(*ast.Literal).Val) // checked by typeOf
	}
	var checks []ast.Expr
	for _, k := range d.Constraints {
		switch k.Kind {
		case "NOT NULL":
			col.NotNull = true
		case "NULL":
		case "PRIMARY KEY":
			col.NotNull, key, col.PrimaryKey = true, true, true
		case "UNIQUE":
			key = true
		case "CHECK":
			checks = append(checks, k.Expr)
		case "USING":
			// The flavour's word ends the constraint.
			col.Flavour, col.FlavourPos = strings.ToLower(k.Value), b.pos(k.End-len(k.Value))
		case "DEFAULT":
			col.Default, col.DefaultPos = b.src.Text[k.Expr.Extent().Start:k.Expr.Extent().End], b.pos(k.Expr.Extent().Start)
		case "COLLATE":
			return col, false, b.errAt(k, ErrUnsupported, "COLLATE is not supported")
		case "REFERENCES":
			return col, false, b.errAt(k, ErrUnsupported, "FOREIGN KEY constraints are not supported")
		default:
			return col, false, b.errAt(k, ErrUnsupported, k.Kind+" is not supported")
		}
	}
	cols := []ColumnDef{col}
	for _, ch := range checks {
		if err := b.check(ch, cols, 0); err != nil {
			return col, false, err
		}
	}
	return cols[0], key, nil
}

// check reads CHECK (…): comparisons of a column with a numeric constant
// (>=, >, <=, <, =, BETWEEN) joined by AND, the constraints python-blosc2
// stores per column. only >= 0 limits the column a column-level CHECK may
// name.
func (b *stmtBuilder) check(e ast.Expr, cols []ColumnDef, only int) error {
	unsupported := func(n ast.Node) error {
		return b.errAt(n, ErrUnsupported, "CHECK supports a column compared with a numeric constant (>=, >, <=, <, =, BETWEEN), joined by AND")
	}
	column := func(x ast.Expr) (int, error) {
		ref, ok := x.(*ast.ColumnRef)
		if !ok || len(ref.Name) != 1 {
			return -1, unsupported(x)
		}
		n := ref.Name[0]
		ci := columnIndex(cols, n.Name)
		if ci < 0 {
			return -1, b.errAt(n, ErrUnknownColumn, fmt.Sprintf("unknown column %q in CHECK", n.Name))
		}
		if cols[ci].Generated != "" {
			return -1, b.errAt(n, ErrUnsupported, fmt.Sprintf("column %q: constraints on generated columns are not allowed (DuckDB refuses them too)", n.Name))
		}
		if only >= 0 && ci != only {
			return -1, b.errAt(n, ErrUnsupported, fmt.Sprintf("a column's CHECK may only name %q; put it after the columns", cols[only].Name))
		}
		return ci, nil
	}
	ops := map[string][]string{">=": {"ge"}, ">": {"gt"}, "<=": {"le"}, "<": {"lt"}, "=": {"ge", "le"}}
	flip := map[string]string{">=": "<=", ">": "<", "<=": ">=", "<": ">", "=": "="}
	switch x := e.(type) {
	case *ast.Binary:
		if x.Op == "AND" {
			if err := b.check(x.L, cols, only); err != nil {
				return err
			}
			return b.check(x.R, cols, only)
		}
		if ops[x.Op] == nil {
			return unsupported(x)
		}
		op, colX, numX := x.Op, x.L, x.R
		if _, ok := checkNumber(x.L); ok {
			op, colX, numX = flip[x.Op], x.R, x.L
		}
		v, ok := checkNumber(numX)
		if !ok {
			return unsupported(x)
		}
		ci, err := column(colX)
		if err != nil {
			return err
		}
		for _, o := range ops[op] {
			cols[ci].Checks = append(cols[ci].Checks, Check{o, v})
		}
		return nil
	case *ast.Between:
		lo, ok1 := checkNumber(x.Lo)
		hi, ok2 := checkNumber(x.Hi)
		if x.Not || x.Symmetric || !ok1 || !ok2 {
			return unsupported(x)
		}
		ci, err := column(x.X)
		if err != nil {
			return err
		}
		cols[ci].Checks = append(cols[ci].Checks, Check{"ge", lo}, Check{"le", hi})
		return nil
	}
	return unsupported(e)
}

// checkNumber reads a numeric constant of a CHECK: BIGINT, else DOUBLE.
func checkNumber(e ast.Expr) (columnar.Value, bool) {
	sign := ""
	switch u := e.(type) {
	case *ast.Unary:
		if u.Op != "-" && u.Op != "+" {
			return columnar.Value{}, false
		}
		if u.Op == "-" {
			sign = "-"
		}
		e = u.X
	}
	l, ok := e.(*ast.Literal)
	if !ok || l.Kind != ast.LitNumber {
		return columnar.Value{}, false
	}
	if n, err := strconv.ParseInt(sign+l.Val, 10, 64); err == nil {
		return columnar.IntValue(columnar.TInt64, n), true
	}
	f, err := strconv.ParseFloat(sign+l.Val, 64)
	return columnar.FloatValue(columnar.TFloat64, f), err == nil
}
