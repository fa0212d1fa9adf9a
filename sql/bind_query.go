package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// bindQuery binds the binder's query: a SELECT, possibly with a WITH list,
// or a set operation.
func (b *binder) bindQuery() (*Bound, error) {
	if b.q.tree != nil {
		return b.bindQueryAST()
	}
	switch s := b.q.stmt.(type) {
	case *sqlparser.Select:
		if s.With != nil {
			if err := b.bindWith(s.With); err != nil {
				return nil, err
			}
		}
		return b.bindSelect()
	case *sqlparser.SetOp:
		if s.With != nil {
			if err := b.bindWith(s.With); err != nil {
				return nil, err
			}
		}
		return b.bindSetOp(s)
	}
	return nil, b.errAt(0, ErrUnsupported, "statement is not supported")
}

// child returns a binder for a nested query that shares this one's
// column numbering, literals and WITH names.
func (b *binder) child(q *Query, params []columnar.Value) *binder {
	return &binder{q: q, cat: b.cat, cl: q.clauses(), lits: b.lits, expanding: map[string]bool{},
		params: params, nextID: b.nextID, ctes: b.ctes, now: b.now}
}

// bindNested binds a nested query; with outer set, its names may resolve
// to this query's columns (correlation), which the caller must handle.
func (b *binder) bindNested(nq nestedQuery, outer bool) (*Bound, *binder, error) {
	c := b.child(nq.q, nq.params)
	if outer {
		c.outer = b
		c.outerRefs = map[planner.ColID]bool{}
	} else {
		c.enclosing = b
	}
	bd, err := c.bindQuery()
	b.nextID = c.nextID
	return bd, c, err
}

// nestedQuery is a nested query with its own tokens (for error positions
// and column names) and the values of the ? markers it contains.
type nestedQuery struct {
	q      *Query
	params []columnar.Value
}

func unparen(s sqlparser.SelectStatement) sqlparser.SelectStatement {
	for {
		p, ok := s.(*sqlparser.ParenSelect)
		if !ok {
			return s
		}
		s = p.Select
	}
}

// nested finds the text of a nested query (the first parenthesized query
// in sp, then anywhere, not yet bound, whose parse matches stmt) and parses
// it on its own. If the text cannot be found the query is bound from stmt
// with this query's tokens, which only costs error positions.
func (b *binder) nested(stmt sqlparser.SelectStatement, sp span) nestedQuery {
	stmt = unparen(stmt)
	want := sqlparser.String(stmt)
	toks := b.q.toks
	for _, s := range []span{sp, b.q.whole()} {
		for i := s.lo; i < s.hi && i < len(toks); i++ {
			if u, ok := b.usedAt(i); ok {
				i = u.hi
				continue
			}
			if !toks[i].isOp("(") || i+1 >= len(toks) || !(toks[i+1].is("SELECT") || toks[i+1].is("WITH") || toks[i+1].isOp("(")) {
				continue
			}
			end := matchParen(toks, i)
			if end < 0 {
				continue
			}
			q, err := parseQuery(b.q.src, toks[i+1:end])
			if err != nil || sqlparser.String(q.stmt) != want {
				continue
			}
			b.used = append(b.used, span{i, end})
			q.syn = b.q.sharedSyntax()
			return nestedQuery{q: q, params: b.paramsFrom(i)}
		}
	}
	q := &Query{src: b.q.src, toks: toks, rw: &rewritten{paths: b.q.rw.paths, nulls: map[int]bool{}}, stmt: stmt, syn: &syntaxIndex{built: true}} // positions of this text are not the query's
	q.sel, _ = stmt.(*sqlparser.Select)
	return nestedQuery{q: q, params: b.params}
}

// paramsFrom returns the values of the ? markers at or after token i.
func (b *binder) paramsFrom(i int) []columnar.Value {
	k := 0
	for _, t := range b.q.toks[:i] {
		if t.isOp("?") {
			k++
		}
	}
	if k >= len(b.params) {
		return nil
	}
	return b.params[k:]
}

func (b *binder) usedAt(i int) (span, bool) {
	for _, u := range b.used {
		if u.lo <= i && i <= u.hi {
			return u, true
		}
	}
	return span{}, false
}

// matchParen returns the index of the ")" closing toks[i], or -1.
func matchParen(toks []token, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch {
		case toks[j].isOp("("):
			depth++
		case toks[j].isOp(")"):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// bindDerived binds FROM (SELECT …) AS alias.
func (b *binder) bindDerived(sq *sqlparser.Subquery, alias string) (*fromItem, error) {
	nq := b.nested(sq.Select, b.cl.from)
	bd, _, err := b.bindNested(nq, false)
	if err != nil {
		return nil, err
	}
	var cols []string
	for _, c := range sq.Columns {
		cols = append(cols, c.String())
	}
	return b.relation(bd, alias, cols)
}

// relation puts a bound query in scope under alias, its columns renamed by
// cols where given.
func (b *binder) relation(bd *Bound, alias string, cols []string) (*fromItem, error) {
	if len(cols) > len(bd.Names) {
		at := b.q.findName("", alias, b.cl.from)
		return nil, b.errAt(at, ErrUnsupported, fmt.Sprintf("%q has %d columns but %d column names were given", alias, len(bd.Names), len(cols)))
	}
	schema := bd.Root.Schema()
	it := &fromItem{node: bd.Root, quals: []string{alias}, hidden: map[planner.ColID]bool{}}
	for i, c := range schema {
		name := bd.Names[i]
		if i < len(cols) {
			name = cols[i]
		}
		it.cols = append(it.cols, planner.Column{ID: c.ID, Name: name, Table: alias, Type: c.Type})
	}
	return it, nil
}

// cteDef is a WITH entry: its query and the names in scope where it was
// defined (earlier entries, not later ones).
type cteDef struct {
	name      string
	cols      []string
	nq        nestedQuery
	ctes      map[string]*cteDef
	recursive bool
	work      *planner.WorkTable // inside its own recursive step: the work table
	cte       *planner.CTE       // shared by the references (planner/cte.go)
}

// bindWith records the WITH entries; each reference binds its query anew
// (fresh column IDs per reference).
func (b *binder) bindWith(w *sqlparser.With) error {
	ctes := map[string]*cteDef{}
	for k, v := range b.ctes {
		ctes[k] = v
	}
	modes := cteModes(b.q.toks)
	seen := map[string]bool{}
	for _, c := range w.Ctes {
		name := c.As.String()
		if seen[strings.ToLower(name)] {
			first := b.q.findName("", name, b.q.whole())
			return b.errAt(b.q.findName("", name, span{first + 1, b.q.whole().hi}), ErrSyntax, fmt.Sprintf("duplicate CTE name %q", name))
		}
		seen[strings.ToLower(name)] = true
		sq, ok := c.Expr.(*sqlparser.Subquery)
		if !ok {
			return b.errAt(b.q.findName("", name, b.q.whole()), ErrUnsupported, "this WITH entry is not supported")
		}
		var cols []string
		for _, c := range c.Columns {
			cols = append(cols, c.String())
		}
		def := &cteDef{name: name, cols: cols, nq: b.nested(sq.Select, b.q.whole()), ctes: ctes,
			cte: &planner.CTE{Name: name, Mode: modes[strings.ToLower(name)]}}
		if w.Recursive && refersTo(sq.Select, name) {
			def.recursive = true
		}
		next := map[string]*cteDef{}
		for k, v := range ctes {
			next[k] = v
		}
		next[strings.ToLower(name)] = def
		if def.recursive {
			def.ctes = next
		}
		ctes = next
	}
	b.ctes = ctes
	return nil
}

// refersTo reports whether stmt names table name anywhere.
func refersTo(stmt sqlparser.SelectStatement, name string) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if t, ok := n.(sqlparser.TableName); ok && t.DbQualifier.IsEmpty() && strings.EqualFold(t.Name.String(), name) {
			found = true
		}
		return !found, nil
	}, stmt)
	return found
}

// bindCTERef binds a reference to a WITH name; ok is false when the name
// is not a WITH entry in scope.
func (b *binder) bindCTERef(name, alias string) (*fromItem, bool, error) {
	def, ok := b.ctes[strings.ToLower(name)]
	if !ok {
		return nil, false, nil
	}
	if alias == "" {
		alias = def.name
	}
	if def.work != nil {
		ws := &planner.WorkScan{Work: def.work}
		for _, c := range def.work.Cols {
			ws.Out = append(ws.Out, b.newCol(c.Name, alias, c.Type))
		}
		names := make([]string, len(ws.Out))
		for i, c := range ws.Out {
			names[i] = c.Name
		}
		it, err := b.relation(&Bound{Root: ws, Names: names}, alias, nil)
		return it, true, err
	}
	if def.recursive {
		it, err := b.bindRecursive(def, alias)
		return it, true, err
	}
	c := b.child(def.nq.q, def.nq.params)
	c.ctes = def.ctes
	bd, err := c.bindQuery()
	b.nextID = c.nextID
	if err != nil {
		return nil, true, err
	}
	// The planner inlines the reference or reads the entry computed once.
	bd.Root = &planner.CTERef{CTE: def.cte, Input: bd.Root}
	it, err := b.relation(bd, alias, def.cols)
	return it, true, err
}
