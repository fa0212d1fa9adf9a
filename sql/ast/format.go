package ast

import (
	"encoding/hex"
	"strconv"
	"strings"
)

// Format prints a node back as SQL that parses to an equal tree (Equal):
// every compound expression is parenthesized, special call syntaxes come
// out as the plain calls they were parsed into, and FROM-first queries
// as SELECT … FROM. The text is for machines (views, tests, EXPLAIN), not
// a pretty-printer.
func Format(n Node) string {
	var w writer
	w.node(n)
	return w.String()
}

type writer struct{ strings.Builder }

func (w *writer) s(parts ...string) {
	for _, p := range parts {
		w.WriteString(p)
	}
}

// QuoteIdent quotes an identifier for SQL ("a""b").
func QuoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// QuoteString quotes a string literal for SQL ('it”s').
func QuoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func (w *writer) ident(id *Ident) {
	if id.Name == "" {
		// Only a string alias (AS '') names nothing; "" is no identifier.
		w.s("''")
		return
	}
	if id.Quoted {
		w.s(QuoteIdent(id.Name))
	} else {
		w.s(id.Name)
	}
}

func (w *writer) name(n Name) {
	for i, id := range n {
		if i > 0 {
			w.s(".")
		}
		w.ident(id)
	}
}

func (w *writer) idents(ids []*Ident) {
	w.s("(")
	for i, id := range ids {
		if i > 0 {
			w.s(", ")
		}
		w.ident(id)
	}
	w.s(")")
}

func (w *writer) exprs(es []Expr) {
	for i, e := range es {
		if i > 0 {
			w.s(", ")
		}
		w.expr(e)
	}
}

func (w *writer) node(n Node) {
	switch n := n.(type) {
	case Expr:
		w.expr(n)
	case Stmt:
		w.stmt(n)
	case QueryBody:
		w.body(n)
	case TableRef:
		w.table(n)
	case *TypeName:
		w.typ(n)
	default:
		w.s("<?>")
	}
}

func (w *writer) expr(e Expr) {
	switch e := e.(type) {
	case *ColumnRef:
		w.name(e.Name)
	case *Literal:
		switch e.Kind {
		case LitNumber:
			w.s(e.Val)
		case LitString:
			w.s(QuoteString(e.Val))
		case LitBool:
			w.s(strings.ToUpper(e.Val))
		case LitBlob:
			w.s("X'", strings.ToUpper(hex.EncodeToString([]byte(e.Val))), "'")
		default:
			w.s("NULL")
		}
	case *TypedLit:
		w.typ(e.Type)
		w.s(" ", QuoteString(e.Val))
	case *Interval:
		w.s("INTERVAL ")
		if l, ok := e.Value.(*Literal); ok && l.Kind != LitNull && l.Kind != LitBool {
			w.expr(l)
		} else if p, ok := e.Value.(*Param); ok {
			w.expr(p)
		} else {
			w.s("(")
			w.expr(e.Value)
			w.s(")")
		}
		if e.Unit != "" {
			w.s(" ", e.Unit)
		}
	case *Param:
		switch {
		case e.Name != "":
			w.s("$", e.Name)
		case e.Index > 0:
			w.s("$", strconv.Itoa(e.Index))
		default:
			w.s("?")
		}
	case *PositionalRef:
		w.s("#", strconv.Itoa(e.Index))
	case *Default:
		w.s("DEFAULT")
	case *Unary:
		// A chain of prefix signs is written inside one pair of
		// parentheses, "(- + x)": a parenthesis per sign would nest the
		// text twice as deep as the parser met it, and a chain near the
		// parser's depth limit would no longer read back.
		w.s("(", e.Op, " ")
		x := e.X
		for isSign(e.Op) {
			u, ok := x.(*Unary)
			if !ok || !isSign(u.Op) {
				break
			}
			w.s(u.Op, " ")
			x = u.X
		}
		w.expr(x)
		w.s(")")
	case *Binary:
		w.s("(")
		w.expr(e.L)
		w.s(" ", e.Op, " ")
		w.expr(e.R)
		w.s(")")
	case *Is:
		w.s("(")
		w.expr(e.X)
		w.s(" IS ")
		if e.Not {
			w.s("NOT ")
		}
		w.s(e.What, ")")
	case *DistinctFrom:
		w.s("(")
		w.expr(e.L)
		w.s(" IS ")
		if e.Not {
			w.s("NOT ")
		}
		w.s("DISTINCT FROM ")
		w.expr(e.R)
		w.s(")")
	case *Between:
		w.s("(")
		w.expr(e.X)
		w.not(e.Not)
		w.s(" BETWEEN ")
		if e.Symmetric {
			w.s("SYMMETRIC ")
		}
		w.expr(e.Lo)
		w.s(" AND ")
		w.expr(e.Hi)
		w.s(")")
	case *Like:
		w.s("(")
		w.like(e)
		w.s(")")
	case *InList:
		w.s("(")
		w.expr(e.X)
		w.not(e.Not)
		if e.Expr {
			w.s(" IN ")
			w.expr(e.List[0])
		} else {
			w.s(" IN (")
			w.exprs(e.List)
			w.s(")")
		}
		w.s(")")
	case *InQuery:
		w.s("(")
		w.expr(e.X)
		w.not(e.Not)
		w.s(" IN (")
		w.query(e.Query)
		w.s("))")
	case *Quantified:
		w.s("(")
		w.expr(e.X)
		w.s(" ", e.Op, " ", e.Quant, " (")
		if e.Query != nil {
			w.query(e.Query)
		} else {
			w.expr(e.List)
		}
		w.s("))")
	case *Subquery:
		switch e.Kind {
		case SubExists:
			w.s("EXISTS ")
		case SubArray:
			w.s("ARRAY ")
		}
		w.s("(")
		w.query(e.Query)
		w.s(")")
	case *Case:
		w.s("CASE")
		if e.Operand != nil {
			w.s(" ")
			w.expr(e.Operand)
		}
		for _, wh := range e.Whens {
			w.s(" WHEN ")
			w.expr(wh.Cond)
			w.s(" THEN ")
			w.expr(wh.Then)
		}
		if e.Else != nil {
			w.s(" ELSE ")
			w.expr(e.Else)
		}
		w.s(" END")
	case *Cast:
		if e.Try {
			w.s("TRY_CAST(")
		} else {
			w.s("CAST(")
		}
		w.expr(e.X)
		w.s(" AS ")
		w.typ(e.Type)
		w.s(")")
	case *Collate:
		w.s("(")
		w.expr(e.X)
		w.s(" COLLATE ")
		w.name(e.Collation)
		w.s(")")
	case *Func:
		w.call(e)
	case *NamedArg:
		w.ident(e.Name)
		w.s(" := ")
		w.expr(e.Value)
	case *Lambda:
		w.s("(LAMBDA ")
		for i, p := range e.Params {
			if i > 0 {
				w.s(", ")
			}
			w.ident(p)
		}
		w.s(": ")
		w.expr(e.Body)
		w.s(")")
	case *Star:
		w.star(e)
	case *Columns:
		if e.Unpack {
			w.s("*")
		}
		w.s("COLUMNS(")
		w.expr(e.Arg)
		w.s(")")
	case *List:
		w.s("[")
		w.exprs(e.Elems)
		w.s("]")
	case *Comprehension:
		w.s("[")
		w.expr(e.X)
		w.s(" FOR ")
		w.ident(e.Var)
		w.s(" IN ")
		w.expr(e.List)
		if e.Cond != nil {
			w.s(" IF ")
			w.expr(e.Cond)
		}
		w.s("]")
	case *Struct:
		w.s("{")
		for i, f := range e.Fields {
			if i > 0 {
				w.s(", ")
			}
			if f.Key.Quoted {
				w.s(QuoteString(f.Key.Name))
			} else {
				w.s(f.Key.Name)
			}
			w.s(": ")
			w.expr(f.Value)
		}
		w.s("}")
	case *Map:
		w.s("MAP {")
		for i, en := range e.Entries {
			if i > 0 {
				w.s(", ")
			}
			w.expr(en.Key)
			w.s(": ")
			w.expr(en.Value)
		}
		w.s("}")
	case *Row:
		w.s("(")
		w.exprs(e.Elems)
		if len(e.Elems) == 1 {
			w.s(",")
		}
		w.s(")")
	case *Index:
		w.expr(e.X)
		w.s("[")
		w.expr(e.Index)
		w.s("]")
	case *Slice:
		w.expr(e.X)
		w.s("[")
		if e.Lo != nil {
			w.expr(e.Lo)
		}
		w.s(" : ")
		if e.Hi != nil {
			w.expr(e.Hi)
		}
		if e.Step != nil {
			w.s(" : ")
			w.expr(e.Step)
		}
		w.s("]")
	case *Field:
		w.s("(")
		w.expr(e.X)
		w.s(").")
		w.ident(e.Name)
	case *GroupingSet:
		w.s(e.Kind, " (")
		w.exprs(e.Items)
		w.s(")")
	default:
		w.s("<?>")
	}
}

func (w *writer) not(not bool) {
	if not {
		w.s(" NOT")
	}
}

// like prints x [NOT] op pattern [ESCAPE e]; X may be nil (* LIKE).
func (w *writer) like(e *Like) {
	if e.X != nil {
		w.expr(e.X)
		w.s(" ")
	}
	if e.Not {
		w.s("NOT ")
	}
	w.s(e.Op, " ")
	w.expr(e.Pattern)
	if e.Escape != nil {
		w.s(" ESCAPE ")
		w.expr(e.Escape)
	}
}

func (w *writer) star(e *Star) {
	if e.Qualifier != nil {
		w.name(e.Qualifier)
		w.s(".")
	}
	w.s("*")
	if e.Exclude != nil {
		w.s(" EXCLUDE (")
		for i, n := range e.Exclude {
			if i > 0 {
				w.s(", ")
			}
			w.name(n)
		}
		w.s(")")
	}
	if e.Replace != nil {
		w.s(" REPLACE (")
		for i, it := range e.Replace {
			if i > 0 {
				w.s(", ")
			}
			w.item(it)
		}
		w.s(")")
	}
	if e.Rename != nil {
		w.s(" RENAME (")
		for i, r := range e.Rename {
			if i > 0 {
				w.s(", ")
			}
			w.name(r.From)
			w.s(" AS ")
			w.ident(r.To)
		}
		w.s(")")
	}
	if e.Like != nil {
		w.s(" ")
		w.like(e.Like)
	}
}

func (w *writer) call(f *Func) {
	args := f.Args
	if isPositionCall(f) {
		// position(b, a) is POSITION(a IN b), the one form DuckDB reads.
		w.s("position(")
		w.expr(args[1])
		w.s(" IN ")
		w.expr(args[0])
		w.s(")")
		return
	}
	if f.Method {
		w.s("(")
		w.expr(args[0])
		w.s(").")
		args = args[1:]
	}
	w.name(f.Name)
	w.s("(")
	if f.Distinct {
		w.s("DISTINCT ")
	}
	if f.Star {
		w.s("*")
	}
	w.exprs(args)
	if f.OrderBy != nil {
		w.s(" ORDER BY ")
		w.orderItems(f.OrderBy)
	}
	w.s(")")
	if f.WithinGroup != nil {
		w.s(" WITHIN GROUP (ORDER BY ")
		w.orderItems(f.WithinGroup)
		w.s(")")
	}
	if f.Filter != nil {
		w.s(" FILTER (WHERE ")
		w.expr(f.Filter)
		w.s(")")
	}
	switch f.Nulls {
	case IgnoreNulls:
		w.s(" IGNORE NULLS")
	case RespectNulls:
		w.s(" RESPECT NULLS")
	}
	if f.ExportState {
		w.s(" EXPORT_STATE")
	}
	if f.Over != nil {
		w.s(" OVER ")
		w.window(f.Over, false)
	}
}

// window prints OVER's window (a bare name when it is only a name) or,
// with paren, always a parenthesized specification (WINDOW w AS (…)).
func (w *writer) window(win *Window, paren bool) {
	if !paren && win.Base != nil && win.PartitionBy == nil && win.OrderBy == nil && win.Frame == nil {
		w.ident(win.Base)
		return
	}
	w.s("(")
	sep := ""
	if win.Base != nil {
		w.ident(win.Base)
		sep = " "
	}
	if win.PartitionBy != nil {
		w.s(sep, "PARTITION BY ")
		w.exprs(win.PartitionBy)
		sep = " "
	}
	if win.OrderBy != nil {
		w.s(sep, "ORDER BY ")
		w.orderItems(win.OrderBy)
		sep = " "
	}
	if f := win.Frame; f != nil {
		w.s(sep, f.Unit, " ")
		if f.End != nil {
			w.s("BETWEEN ")
			w.bound(f.Start)
			w.s(" AND ")
			w.bound(f.End)
		} else {
			w.bound(f.Start)
		}
		if f.Exclude != "" {
			w.s(" EXCLUDE ", f.Exclude)
		}
	}
	w.s(")")
}

func (w *writer) bound(b *Bound) {
	if b.Offset != nil {
		w.expr(b.Offset)
		w.s(" ")
	}
	w.s(b.Kind)
}

func (w *writer) orderItems(items []*OrderItem) {
	for i, it := range items {
		if i > 0 {
			w.s(", ")
		}
		if it.X == nil {
			w.s("ALL")
		} else {
			w.expr(it.X)
		}
		if it.Desc {
			w.s(" DESC")
		} else if it.Asc {
			w.s(" ASC")
		}
		if it.Nulls != "" {
			w.s(" NULLS ", it.Nulls)
		}
	}
}

func (w *writer) typ(t *TypeName) {
	if t.Schema != "" {
		w.typeWord(t.Schema)
		w.s(".")
	}
	w.typeWord(t.Name)
	switch {
	case t.Fields != nil || (t.Name == "STRUCT" || t.Name == "UNION") && t.Params == nil:
		w.s("(")
		for i, f := range t.Fields {
			if i > 0 {
				w.s(", ")
			}
			w.ident(f.Name)
			w.s(" ")
			w.typ(f.Type)
		}
		w.s(")")
	case t.Args != nil:
		w.s("(")
		for i, a := range t.Args {
			if i > 0 {
				w.s(", ")
			}
			w.typ(a)
		}
		w.s(")")
	case t.Params != nil:
		w.s("(")
		w.exprs(t.Params)
		w.s(")")
	}
	if t.Qualifier != "" {
		w.s(" ", t.Qualifier)
	}
	for _, n := range t.Array {
		if n < 0 {
			w.s("[]")
		} else {
			w.s("[", strconv.Itoa(n), "]")
		}
	}
}

// typeWord prints a type name: bare when it reads back the same (upper
// case words), quoted otherwise.
func (w *writer) typeWord(s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || c == '_' || c == ' ' || i > 0 && '0' <= c && c <= '9') {
			w.s(QuoteIdent(s))
			return
		}
	}
	w.s(s)
}

// query prints a Query.
func (w *writer) query(q *Query) {
	if q.With != nil {
		w.with(q.With)
	}
	w.body(q.Body)
	if q.OrderBy != nil {
		w.s(" ORDER BY ")
		w.orderItems(q.OrderBy)
	}
	if q.Limit != nil {
		w.s(" LIMIT ")
		if q.Limit.Count == nil {
			w.s("ALL")
		} else {
			w.expr(q.Limit.Count)
			if q.Limit.Percent {
				w.s("%")
			}
		}
	}
	if q.Offset != nil {
		w.s(" OFFSET ")
		w.expr(q.Offset)
	}
}

func (w *writer) with(wi *With) {
	w.s("WITH ")
	if wi.Recursive {
		w.s("RECURSIVE ")
	}
	for i, c := range wi.CTEs {
		if i > 0 {
			w.s(", ")
		}
		w.ident(c.Name)
		if c.Columns != nil {
			w.idents(c.Columns)
		}
		if c.UsingKey != nil {
			w.s(" USING KEY ")
			w.idents(c.UsingKey)
		}
		w.s(" AS ")
		if c.Materialized != "" {
			w.s(c.Materialized, " ")
		}
		w.s("(")
		if c.DML != nil {
			w.stmt(c.DML)
		} else {
			w.query(c.Query)
		}
		w.s(")")
	}
	w.s(" ")
}

func (w *writer) body(b QueryBody) {
	switch b := b.(type) {
	case *Select:
		w.selectBody(b)
	case *SetOp:
		w.body(b.L)
		w.s(" ", b.Op)
		if b.All {
			w.s(" ALL")
		}
		if b.ByName {
			w.s(" BY NAME")
		}
		w.s(" ")
		w.body(b.R)
	case *Values:
		w.s("VALUES ")
		for i, r := range b.Rows {
			if i > 0 {
				w.s(", ")
			}
			w.s("(")
			w.exprs(r)
			w.s(")")
		}
	case *Query:
		w.s("(")
		w.query(b)
		w.s(")")
	}
}

func (w *writer) item(it *SelectItem) {
	w.expr(it.X)
	if it.Alias != nil {
		w.s(" AS ")
		w.ident(it.Alias)
	}
}

func (w *writer) items(items []*SelectItem) {
	for i, it := range items {
		if i > 0 {
			w.s(", ")
		}
		w.item(it)
	}
}

func (w *writer) selectBody(s *Select) {
	w.s("SELECT ")
	if s.Distinct {
		w.s("DISTINCT ")
		if s.DistinctOn != nil {
			w.s("ON (")
			w.exprs(s.DistinctOn)
			w.s(") ")
		}
	}
	w.items(s.Items)
	if s.From != nil {
		w.s(" FROM ")
		w.tables(s.From)
	}
	if s.Where != nil {
		w.s(" WHERE ")
		w.expr(s.Where)
	}
	if g := s.GroupBy; g != nil {
		w.s(" GROUP BY ")
		if g.All {
			w.s("ALL")
		} else {
			w.exprs(g.Items)
		}
	}
	if s.Having != nil {
		w.s(" HAVING ")
		w.expr(s.Having)
	}
	for i, nw := range s.Windows {
		if i == 0 {
			w.s(" WINDOW ")
		} else {
			w.s(", ")
		}
		w.ident(nw.Name)
		w.s(" AS ")
		w.window(nw.Window, true)
	}
	if s.Qualify != nil {
		w.s(" QUALIFY ")
		w.expr(s.Qualify)
	}
	if s.Sample != nil {
		w.s(" USING SAMPLE ")
		w.sample(s.Sample)
	}
}

func (w *writer) sample(sm *Sample) {
	size := func() {
		w.expr(sm.Size)
		if sm.Percent {
			w.s("%")
		} else if sm.Rows {
			w.s(" ROWS")
		}
	}
	if sm.Method != "" {
		w.s(sm.Method, "(")
		size()
		w.s(")")
	} else {
		size()
	}
	if sm.Seed != nil {
		w.s(" REPEATABLE (")
		w.expr(sm.Seed)
		w.s(")")
	}
}

func (w *writer) tables(ts []TableRef) {
	for i, t := range ts {
		if i > 0 {
			w.s(", ")
		}
		w.table(t)
	}
}

func (w *writer) alias(a *Alias) {
	if a == nil {
		return
	}
	w.s(" AS ")
	w.ident(a.Name)
	if a.Columns != nil {
		w.idents(a.Columns)
	}
}

func (w *writer) tableSample(sm *Sample) {
	if sm != nil {
		w.s(" TABLESAMPLE ")
		w.sample(sm)
	}
}

func (w *writer) table(t TableRef) {
	switch t := t.(type) {
	case *Table:
		if t.Name != nil {
			w.name(t.Name)
		} else {
			w.s(QuoteString(t.Path))
		}
		w.alias(t.Alias)
		switch {
		case t.NotIndexed:
			w.s(" NOT INDEXED")
		case t.IndexedBy != nil:
			w.s(" INDEXED BY ")
			w.ident(t.IndexedBy)
		}
		w.tableSample(t.Sample)
	case *TableFunc:
		if t.Lateral {
			w.s("LATERAL ")
		}
		w.call(t.Func)
		w.alias(t.Alias)
		w.tableSample(t.Sample)
	case *Derived:
		if t.Lateral {
			w.s("LATERAL ")
		}
		w.s("(")
		if t.Stmt != nil {
			w.stmt(t.Stmt)
		} else {
			w.query(t.Query)
		}
		w.s(")")
		w.alias(t.Alias)
		w.tableSample(t.Sample)
	case *Join:
		if t.Alias != nil {
			j := *t
			j.Alias = nil
			w.s("(")
			w.table(&j)
			w.s(")")
			w.alias(t.Alias)
			return
		}
		w.table(t.L)
		w.s(" ")
		if t.Natural {
			w.s("NATURAL ")
		}
		if t.Asof {
			w.s("ASOF ")
		}
		w.s(t.Kind, " JOIN ")
		if _, ok := t.R.(*Join); ok {
			w.s("(")
			w.table(t.R)
			w.s(")")
		} else {
			w.table(t.R)
		}
		if t.On != nil {
			w.s(" ON ")
			w.expr(t.On)
		}
		if t.Using != nil {
			w.s(" USING ")
			w.idents(t.Using)
		}
	case *Pivot:
		w.pivot(t)
	}
}

func (w *writer) pivot(p *Pivot) {
	if p.Unpivot {
		w.s("(UNPIVOT ")
		if p.IncludeNulls {
			w.s("INCLUDE NULLS ")
		}
	} else {
		w.s("(PIVOT ")
	}
	if _, ok := p.Source.(*Join); ok {
		w.s("(")
		w.table(p.Source)
		w.s(")")
	} else {
		w.table(p.Source)
	}
	for i, on := range p.On {
		if i == 0 {
			w.s(" ON ")
		} else {
			w.s(", ")
		}
		w.expr(on.X)
		if on.Alias != nil {
			w.s(" AS ")
			w.ident(on.Alias)
		}
		if on.InEnum != nil {
			w.s(" IN ")
			w.ident(on.InEnum)
		} else if on.In != nil {
			w.s(" IN (")
			w.items(on.In)
			w.s(")")
		}
	}
	if p.Unpivot {
		w.s(" INTO NAME ")
		w.ident(p.Name)
		w.s(" VALUE ")
		for i, v := range p.Values {
			if i > 0 {
				w.s(", ")
			}
			w.ident(v)
		}
	}
	if p.Using != nil {
		w.s(" USING ")
		w.items(p.Using)
	}
	if p.GroupBy != nil {
		w.s(" GROUP BY ")
		w.exprs(p.GroupBy)
	}
	w.s(")")
	w.alias(p.Alias)
}

// isPositionCall reports POSITION(a IN b), held as position(b, a).
func isPositionCall(f *Func) bool {
	return !f.Method && len(f.Name) == 1 && !f.Name[0].Quoted && strings.EqualFold(f.Name[0].Name, "position") &&
		len(f.Args) == 2 && !f.Distinct && !f.Star && f.OrderBy == nil && f.WithinGroup == nil && f.Filter == nil && f.Over == nil
}

// isSign reports whether a prefix operator is the sign the parser reads
// in a chain (unary - and +).
func isSign(op string) bool { return op == "-" || op == "+" }
