package sql

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// Statements that change tables: CREATE TABLE with a column list, INSERT
// (and REPLACE INTO), DELETE, UPDATE and ATTACH. Their expressions are
// evaluated by queries the parser derives from the statement text
// (synthQuery), so binding, typing and errors are those of SELECT, with
// positions in the statement as written.

// CreateTable is CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name
// (column definitions [, table constraints]) [WITH (options)].
type CreateTable struct {
	Name        string
	NamePos     Pos
	Replace     bool
	IfNotExists bool
	Cols        []ColumnDef
	// Keys are the PRIMARY KEY and UNIQUE column sets, by column index.
	Keys    [][]int
	Options []Option
}

// ColumnDef is one column of CREATE TABLE: name TYPE [NOT NULL | NULL |
// PRIMARY KEY | UNIQUE | CHECK (…) | USING flavour]…
type ColumnDef struct {
	Name    string
	Pos     Pos
	Type    columnar.Type
	Length  int // VARCHAR(n), BLOB(n): the max_length constraint; 0 = none
	NotNull bool
	// Checks are the CHECK bounds on the column: Op is "ge", "gt", "le"
	// or "lt", Val a BIGINT or DOUBLE constant.
	Checks []Check
	// Flavour is the storage asked for with USING (lower case), "" for
	// the default.
	Flavour    string
	FlavourPos Pos
	// PrimaryKey: the column is part of the table's PRIMARY KEY.
	PrimaryKey bool
}

// Check is one bound of a CHECK constraint.
type Check struct {
	Op  string
	Val columnar.Value
}

// Option is one name = value of a WITH (…) list; Name and Value are lower
// case (Value keeps its case when it was a string literal).
type Option struct {
	Name, Value string
	Pos         Pos // of the value
}

// Insert is INSERT [OR REPLACE | OR IGNORE] INTO name [(columns)] {VALUES
// (…), … | query} [WITH (options)], and REPLACE INTO … (INSERT OR
// REPLACE). Query produces the rows; Cols (nil: all, in order) are the
// target columns.
type Insert struct {
	posFix
	Table    string
	TablePos Pos
	Cols     []string
	ColsPos  []Pos
	Query    *Query
	Replace  bool // rows whose key equals a new row's are replaced
	Ignore   bool // rows whose key exists are skipped
	Options  []Option
}

// Delete is DELETE FROM name [WHERE condition]. Where, when present, is
// SELECT (condition) FROM name: one BOOLEAN per row, in scan order.
type Delete struct {
	posFix
	Table    string
	TablePos Pos
	Where    *Query
}

// Update is UPDATE name SET col = expr [, …] [WHERE condition]. Query is
// SELECT expr, … [, condition] FROM name: the new values of each row and,
// when HasWhere, whether it changes. A column set twice takes the last
// value (as SQLite).
type Update struct {
	posFix
	Table    string
	TablePos Pos
	Sets     []string
	SetsPos  []Pos
	Query    *Query
	HasWhere bool
}

// Attach is ATTACH [DATABASE] 'directory' [AS name]: the directory's
// tables join the catalog and new tables are written there.
type Attach struct {
	Path    string
	PathPos Pos
	Alias   string
}

func (*CreateTable) statement() {}
func (*Insert) statement()      {}
func (*Delete) statement()      {}
func (*Update) statement()      {}
func (*Attach) statement()      {}

// posFix maps positions in a derived query's text back to the statement:
// the derived text is the statement's own text (with the parts that are
// not the query blanked) behind a prefix of shift characters on its first
// line.
type posFix struct {
	line, col, shift int
	end              Pos // just after the statement's last character
}

// FixError repositions a *Error raised while binding the statement's
// derived query so that it points into the statement as written. Other
// errors are returned unchanged.
func (f posFix) FixError(err error) error {
	var e *Error
	if f.line == 0 || !errors.As(err, &e) {
		return err
	}
	c := *e
	if c.Pos.Line == f.line {
		c.Pos.Col = max(c.Pos.Col-f.shift, f.col)
	}
	if c.Pos.Line > f.end.Line || c.Pos.Line == f.end.Line && c.Pos.Col > f.end.Col {
		// In the text the parser appended (" FROM t"): the statement
		// ended too early.
		c.Pos = f.end
		if c.Kind == ErrSyntax {
			c.Msg = "syntax error at end of statement"
		}
	}
	return &c
}

// keepSpan is a byte range [off, end) of the statement kept in a derived
// query; text, when set, replaces it (it must not be longer).
type keepSpan struct {
	off, end int
	text     *string
}

// synthQuery parses the query prefix + (the statement with everything
// outside keep blanked, line breaks kept) + suffix.
func synthQuery(src Source, prefix string, keep []keepSpan, suffix string) (*Query, posFix, error) {
	b := []byte(src.Text)
	for i, c := range b {
		if c != '\n' && c != '\r' {
			b[i] = ' '
		}
	}
	first := len(b)
	for _, k := range keep {
		if k.text != nil {
			copy(b[k.off:k.end], *k.text)
		} else {
			copy(b[k.off:k.end], src.Text[k.off:k.end])
		}
		first = min(first, k.off)
	}
	fix := posFix{line: max(src.Line, 1), col: max(src.Col, 1)}
	fix.end = posIn(src.Text, len(strings.TrimRight(src.Text, " \t\r\n;")), Pos{fix.line, fix.col})
	var text string
	if len(prefix) < first && !strings.ContainsAny(src.Text[:first], "\n") {
		copy(b, prefix)
		text = string(b)
	} else {
		text = prefix + " " + string(b)
		fix.shift = len(prefix) + 1
	}
	ns := Source{Text: text + suffix, Offset: src.Offset, Line: fix.line, Col: fix.col}
	toks, err := lex(ns)
	if err != nil {
		return nil, fix, fix.FixError(err)
	}
	q, err := parseQuery(ns, toks)
	if err != nil {
		return nil, fix, fix.FixError(err)
	}
	return q, fix, nil
}

// quoteIdent quotes a name for a derived query.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// isName reports whether t can be a table or column name.
func isName(t token) bool { return t.kind == tkIdent || t.kind == tkQIdent }

// trailingWith splits a final WITH (…) option list off the statement's
// tokens (a query never ends that way) and parses it.
func (p *stmtParser) trailingWith(from int) (int, []Option, error) {
	n := len(p.toks)
	if n < 3 || !p.toks[n-1].isOp(")") {
		return n, nil, nil
	}
	depth := 0
	for j := n - 1; j > from; j-- {
		switch {
		case p.toks[j].isOp(")"):
			depth++
		case p.toks[j].isOp("("):
			depth--
		}
		if depth == 0 {
			if p.toks[j].isOp("(") && p.toks[j-1].is("WITH") {
				opts, err := p.options(j, n-1)
				return j - 1, opts, err
			}
			return n, nil, nil
		}
	}
	return n, nil, nil
}

// options parses ( name [=] value [, …] ) between tokens open and close.
func (p *stmtParser) options(open, close int) ([]Option, error) {
	var out []Option
	for i := open + 1; i < close; {
		if p.at(i).isOp(",") {
			i++
			continue
		}
		name := p.at(i)
		if name.kind != tkIdent {
			return nil, p.syntax(i)
		}
		i++
		if p.at(i).isOp("=") {
			i++
		}
		v := p.at(i)
		if i >= close || v.kind == tkOp {
			return nil, p.syntax(i)
		}
		val := v.val
		if v.kind != tkString {
			val = strings.ToLower(val)
		}
		out = append(out, Option{Name: strings.ToLower(name.val), Value: val, Pos: p.pos(i)})
		i++
	}
	return out, nil
}

// createTable parses CREATE … TABLE name ( … ) [WITH (…)] from token i
// (the name).
func (p *stmtParser) createTable(replace, ifNotExists bool, i int) (Statement, error) {
	name := p.at(i)
	c := &CreateTable{Name: name.val, NamePos: p.pos(i), Replace: replace, IfNotExists: ifNotExists}
	open := i + 1
	close := p.closing(open)
	if close < 0 {
		return nil, p.syntax(len(p.toks))
	}
	end := close + 1
	if end < len(p.toks) {
		if !p.at(end).is("WITH") || !p.at(end+1).isOp("(") || p.closing(end+1) != len(p.toks)-1 {
			return nil, p.syntax(end)
		}
		opts, err := p.options(end+1, len(p.toks)-1)
		if err != nil {
			return nil, err
		}
		c.Options = opts
	}
	var tableChecks [][2]int
	var keyCols [][]token
	var pkCols []token // a table-level PRIMARY KEY (…)
	for j := open + 1; j < close; {
		// One element: up to the next top-level comma.
		k := j
		for depth := 0; k < close; k++ {
			if p.toks[k].isOp("(") {
				depth++
			} else if p.toks[k].isOp(")") {
				depth--
			} else if depth == 0 && p.toks[k].isOp(",") {
				break
			}
		}
		if k == j {
			return nil, p.syntax(j)
		}
		t := p.at(j)
		switch {
		case t.is("CONSTRAINT") && isName(p.at(j+1)):
			j += 2 // the constraint's name is not kept
			continue
		case t.is("CHECK") && p.at(j+1).isOp("("):
			tableChecks = append(tableChecks, [2]int{j + 1, p.closing(j + 1)})
		case t.is("PRIMARY") && p.at(j+1).is("KEY") || t.is("UNIQUE") && p.at(j+1).isOp("("):
			o := j + 1
			if t.is("PRIMARY") {
				o = j + 2
			}
			if !p.at(o).isOp("(") {
				return nil, p.syntax(o)
			}
			var names []token
			for m := o + 1; m < p.closing(o); m++ {
				if p.at(m).isOp(",") {
					continue
				}
				if !isName(p.at(m)) {
					return nil, p.syntax(m)
				}
				names = append(names, p.at(m))
			}
			keyCols = append(keyCols, names)
			if t.is("PRIMARY") {
				pkCols = names
			}
		case t.is("FOREIGN"):
			return nil, errAt(p.src, t.off, ErrUnsupported, "FOREIGN KEY constraints are not supported")
		default:
			col, key, err := p.columnDef(j, k)
			if err != nil {
				return nil, err
			}
			if key {
				keyCols = append(keyCols, []token{t})
			}
			c.Cols = append(c.Cols, col)
		}
		j = k + 1
	}
	if len(c.Cols) == 0 {
		return nil, errAt(p.src, p.at(open).off, ErrSyntax, "CREATE TABLE needs at least one column")
	}
	for _, ch := range tableChecks {
		if err := p.check(ch[0], ch[1], c.Cols, -1); err != nil {
			return nil, err
		}
	}
	for _, names := range keyCols {
		var key []int
		for _, n := range names {
			ci := columnIndex(c.Cols, n.val)
			if ci < 0 {
				return nil, errAt(p.src, n.off, ErrUnknownColumn, fmt.Sprintf("unknown column %q in key", n.val))
			}
			key = append(key, ci)
		}
		c.Keys = append(c.Keys, key)
	}
	for _, n := range pkCols {
		c.Cols[columnIndex(c.Cols, n.val)].PrimaryKey = true // checked above
	}
	return c, nil
}

func columnIndex(cols []ColumnDef, name string) int {
	for i, c := range cols {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

// columnDef parses a column definition in tokens [j, k); key reports a
// column-level PRIMARY KEY or UNIQUE.
func (p *stmtParser) columnDef(j, k int) (col ColumnDef, key bool, err error) {
	name := p.at(j)
	if !isName(name) {
		return col, false, p.syntax(j)
	}
	col.Name, col.Pos = name.val, p.pos(j)
	i := j + 1
	var words []string
	for i < k && p.at(i).kind == tkIdent && !constraintWord(p.at(i)) {
		words = append(words, strings.ToUpper(p.at(i).val))
		i++
	}
	if len(words) == 0 {
		return col, false, errAt(p.src, p.at(i).off, ErrSyntax, fmt.Sprintf("column %q needs a type", col.Name))
	}
	var params []int
	typeAt := p.at(j + 1).off
	if i < k && p.at(i).isOp("(") {
		end := p.closing(i)
		for m := i + 1; m < end; m++ {
			if p.at(m).isOp(",") {
				continue
			}
			n, perr := strconv.Atoi(p.at(m).val)
			if p.at(m).kind != tkNumber || perr != nil {
				return col, false, p.syntax(m)
			}
			params = append(params, n)
		}
		i = end + 1
	}
	if col.Type, err = parseTypeName(words, params); err != nil {
		return col, false, errAt(p.src, typeAt, ErrType, err.Error())
	}
	if (col.Type.ID == columnar.Varchar || col.Type.ID == columnar.Blob) && len(params) > 0 {
		col.Length = params[0]
	}
	var checks [][2]int
	for i < k {
		t := p.at(i)
		switch {
		case t.is("NOT") && p.at(i+1).is("NULL"):
			col.NotNull = true
			i += 2
		case t.is("NULL"):
			i++
		case t.is("PRIMARY") && p.at(i+1).is("KEY"):
			col.NotNull, key, col.PrimaryKey = true, true, true
			i += 2
			if p.at(i).is("ASC") || p.at(i).is("DESC") {
				i++
			}
			if p.at(i).is("AUTOINCREMENT") {
				return col, false, errAt(p.src, p.at(i).off, ErrUnsupported, "AUTOINCREMENT is not supported")
			}
		case t.is("UNIQUE"):
			key = true
			i++
		case t.is("CHECK") && p.at(i+1).isOp("("):
			end := p.closing(i + 1)
			checks = append(checks, [2]int{i + 1, end})
			i = end + 1
		case t.is("USING") && p.at(i+1).kind == tkIdent:
			col.Flavour, col.FlavourPos = strings.ToLower(p.at(i+1).val), p.pos(i+1)
			i += 2
		case t.is("DEFAULT"):
			return col, false, errAt(p.src, t.off, ErrUnsupported, "DEFAULT values are not supported")
		case t.is("COLLATE"):
			return col, false, errAt(p.src, t.off, ErrUnsupported, "COLLATE is not supported")
		default:
			return col, false, p.syntax(i)
		}
	}
	cols := []ColumnDef{col}
	for _, ch := range checks {
		if err := p.check(ch[0], ch[1], cols, 0); err != nil {
			return col, false, err
		}
	}
	return cols[0], key, nil
}

// constraintWord reports whether t starts a column constraint (ends the
// type's words).
func constraintWord(t token) bool {
	for _, w := range []string{"NOT", "NULL", "PRIMARY", "UNIQUE", "CHECK", "USING", "DEFAULT", "COLLATE", "REFERENCES", "CONSTRAINT", "GENERATED", "AS"} {
		if t.is(w) {
			return true
		}
	}
	return false
}

// check parses CHECK (…) between tokens open and close: comparisons of a
// column with a numeric constant (>=, >, <=, <, =, BETWEEN) joined by
// AND, the constraints python-blosc2 stores per column. only >= 0 limits
// the column a column-level CHECK may name.
func (p *stmtParser) check(open, close int, cols []ColumnDef, only int) error {
	unsupported := func(at int) error {
		return errAt(p.src, p.at(at).off, ErrUnsupported,
			"CHECK supports a column compared with a numeric constant (>=, >, <=, <, =, BETWEEN), joined by AND")
	}
	num := func(i int) (columnar.Value, int, bool) {
		neg := false
		if p.at(i).isOp("-") || p.at(i).isOp("+") {
			neg = p.at(i).isOp("-")
			i++
		}
		t := p.at(i)
		if t.kind != tkNumber {
			return columnar.Value{}, i, false
		}
		text := t.val
		if neg {
			text = "-" + text
		}
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return columnar.IntValue(columnar.TInt64, n), i + 1, true
		}
		f, err := strconv.ParseFloat(text, 64)
		return columnar.FloatValue(columnar.TFloat64, f), i + 1, err == nil
	}
	column := func(i int) (int, error) {
		ci := columnIndex(cols, p.at(i).val)
		if ci < 0 {
			return -1, errAt(p.src, p.at(i).off, ErrUnknownColumn, fmt.Sprintf("unknown column %q in CHECK", p.at(i).val))
		}
		if only >= 0 && ci != only {
			return -1, errAt(p.src, p.at(i).off, ErrUnsupported, fmt.Sprintf("a column's CHECK may only name %q; put it after the columns", cols[only].Name))
		}
		return ci, nil
	}
	flip := map[string]string{">=": "<=", ">": "<", "<=": ">=", "<": ">", "=": "="}
	ops := map[string][]string{">=": {"ge"}, ">": {"gt"}, "<=": {"le"}, "<": {"lt"}, "=": {"ge", "le"}}
	for i := open + 1; i < close; {
		if p.at(i).isOp("(") && p.closing(i) < close {
			// Parentheses around one comparison.
			if err := p.check(i, p.closing(i), cols, only); err != nil {
				return err
			}
			i = p.closing(i) + 1
		} else if isName(p.at(i)) {
			ci, err := column(i)
			if err != nil {
				return err
			}
			op := p.at(i + 1)
			switch {
			case op.is("BETWEEN"):
				lo, j, ok := num(i + 2)
				if !ok || !p.at(j).is("AND") {
					return unsupported(i)
				}
				hi, j2, ok := num(j + 1)
				if !ok {
					return unsupported(i)
				}
				cols[ci].Checks = append(cols[ci].Checks, Check{"ge", lo}, Check{"le", hi})
				i = j2
			case op.kind == tkOp && ops[op.val] != nil:
				v, j, ok := num(i + 2)
				if !ok {
					return unsupported(i)
				}
				for _, o := range ops[op.val] {
					cols[ci].Checks = append(cols[ci].Checks, Check{o, v})
				}
				i = j
			default:
				return unsupported(i)
			}
		} else if v, j, ok := num(i); ok {
			op := p.at(j)
			if op.kind != tkOp || flip[op.val] == "" || !isName(p.at(j+1)) {
				return unsupported(i)
			}
			ci, err := column(j + 1)
			if err != nil {
				return err
			}
			for _, o := range ops[flip[op.val]] {
				cols[ci].Checks = append(cols[ci].Checks, Check{o, v})
			}
			i = j + 2
		} else {
			return unsupported(i)
		}
		if i < close {
			if !p.at(i).is("AND") {
				return unsupported(i)
			}
			i++
		}
	}
	return nil
}

// insert parses INSERT [OR REPLACE|IGNORE] INTO … and REPLACE INTO ….
func (p *stmtParser) insert() (Statement, error) {
	ins := &Insert{}
	i := 1
	if p.at(0).is("REPLACE") {
		ins.Replace = true
	} else if p.at(1).is("OR") {
		switch {
		case p.at(2).is("REPLACE"):
			ins.Replace = true
		case p.at(2).is("IGNORE"):
			ins.Ignore = true
		default:
			return nil, errAt(p.src, p.at(2).off, ErrUnsupported, "INSERT OR "+strings.ToUpper(p.at(2).val)+" is not supported (OR REPLACE, OR IGNORE)")
		}
		i = 3
	}
	if !p.at(i).is("INTO") {
		return nil, p.syntax(i)
	}
	i++
	name := p.at(i)
	if !isName(name) {
		return nil, p.syntax(i)
	}
	ins.Table, ins.TablePos = name.val, p.pos(i)
	i++
	if p.at(i).isOp("(") && !p.at(i+1).is("SELECT") && !p.at(i+1).is("WITH") {
		end := p.closing(i)
		if end < 0 {
			return nil, p.syntax(len(p.toks))
		}
		for m := i + 1; m < end; m++ {
			if p.at(m).isOp(",") {
				continue
			}
			if !isName(p.at(m)) {
				return nil, p.syntax(m)
			}
			ins.Cols = append(ins.Cols, p.at(m).val)
			ins.ColsPos = append(ins.ColsPos, p.pos(m))
		}
		i = end + 1
	}
	stop, opts, err := p.trailingWith(i)
	if err != nil {
		return nil, err
	}
	ins.Options = opts
	if i >= stop {
		return nil, p.syntax(i)
	}
	if p.at(i).is("VALUES") {
		endOff := p.at(stop - 1).end
		ins.Query, ins.posFix, err = synthQuery(p.src, "SELECT * FROM (", []keepSpan{{off: p.at(i).off, end: endOff}}, ") AS b2sql_values")
		return ins, err
	}
	if p.at(i).is("DEFAULT") {
		return nil, errAt(p.src, p.at(i).off, ErrUnsupported, "DEFAULT VALUES is not supported")
	}
	sub := &stmtParser{src: p.src, toks: p.toks[:stop]}
	if ins.Query, err = sub.subQuery(i); err != nil {
		return nil, err
	}
	return ins, nil
}

// deleteFrom parses DELETE FROM name [WHERE condition].
func (p *stmtParser) deleteFrom() (Statement, error) {
	if !p.at(1).is("FROM") {
		return nil, p.syntax(1)
	}
	name := p.at(2)
	if !isName(name) {
		return nil, p.syntax(2)
	}
	d := &Delete{Table: name.val, TablePos: p.pos(2)}
	if len(p.toks) == 3 {
		return d, nil
	}
	if !p.at(3).is("WHERE") || len(p.toks) == 4 {
		return nil, p.syntax(min(len(p.toks), 4))
	}
	var err error
	d.Where, d.posFix, err = synthQuery(p.src, "SELECT (", []keepSpan{{off: p.at(4).off, end: p.at(len(p.toks) - 1).end}}, ") FROM "+quoteIdent(d.Table))
	return d, err
}

// update parses UPDATE name SET col = expr [, …] [WHERE condition].
func (p *stmtParser) update() (Statement, error) {
	name := p.at(1)
	if !isName(name) {
		return nil, p.syntax(1)
	}
	u := &Update{Table: name.val, TablePos: p.pos(1)}
	if !p.at(2).is("SET") {
		return nil, p.syntax(2)
	}
	var keep []keepSpan
	comma := ","
	i := 3
	for {
		col := p.at(i)
		if !isName(col) || !p.at(i+1).isOp("=") {
			return nil, p.syntax(i)
		}
		u.Sets = append(u.Sets, col.val)
		u.SetsPos = append(u.SetsPos, p.pos(i))
		start := i + 2
		j := start
		for depth := 0; j < len(p.toks); j++ {
			t := p.toks[j]
			if t.isOp("(") {
				depth++
			} else if t.isOp(")") {
				depth--
			} else if depth == 0 && (t.isOp(",") || t.is("WHERE")) {
				break
			}
		}
		if j == start {
			return nil, p.syntax(j)
		}
		if len(keep) > 0 {
			keep = append(keep, keepSpan{off: p.at(i - 1).off, end: p.at(i - 1).end, text: &comma})
		}
		keep = append(keep, keepSpan{off: p.at(start).off, end: p.at(j - 1).end})
		if j >= len(p.toks) {
			break
		}
		if p.at(j).is("WHERE") {
			if j+1 >= len(p.toks) {
				return nil, p.syntax(j + 1)
			}
			u.HasWhere = true
			keep = append(keep, keepSpan{off: p.at(j).off, end: p.at(j).end, text: &comma})
			keep = append(keep, keepSpan{off: p.at(j + 1).off, end: p.at(len(p.toks) - 1).end})
			break
		}
		i = j + 1
	}
	var err error
	u.Query, u.posFix, err = synthQuery(p.src, "SELECT", keep, " FROM "+quoteIdent(u.Table))
	return u, err
}
