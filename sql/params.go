package sql

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// ErrParam is the kind of errors about parameters: a count that does not
// match the statement's markers, a name without a value, or a value the
// binder cannot type.
var ErrParam = errors.New("parameter error")

// Parameters follow DuckDB. A statement's markers are numbered (?, ?n,
// $n) or named ($name), never both. $n may repeat and takes the n-th
// value; ? takes one more than the highest number written before it
// (so "?, ?" is $1, $2 and "?2, ?" is $2, $3). A statement with numbered
// markers takes as many values as its highest number; one with named
// markers takes one value per distinct name (names match
// case-insensitively), given by name.

// Param is one value a statement takes: its Name (the number as text for
// ? and $n markers, "1", "2", …; the lower-case name for $name) and the
// position of its first marker (zero for a number no marker uses, as $1 in
// "SELECT $2").
type Param struct {
	Name string
	Pos  Pos
}

// params returns q's parameter table, built on first use from the whole
// syntax tree (nested queries share their statement's table).
func (q *Query) params() *paramTable {
	if q.ptab == nil {
		q.ptab = newParamTable(q.src, q.tree)
	}
	return q.ptab
}

// shareParams gives the queries of one statement (an INSERT's rows, its
// DO UPDATE and RETURNING; nil ones skipped) one parameter table, over
// the markers of them all, so that they number their markers as the
// statement does and each binds with the statement's values.
func shareParams(qs ...*Query) {
	var src Source
	var trees []*ast.Query
	for _, q := range qs {
		if q.parsed() {
			src = q.src
			trees = append(trees, q.tree)
		}
	}
	t := newParamTable(src, trees...)
	for _, q := range qs {
		if q.parsed() {
			q.ptab = t
		}
	}
}

func newParamTable(src Source, trees ...*ast.Query) *paramTable {
	t := &paramTable{num: map[int]int{}}
	var ps []*ast.Param
	seen := map[*ast.Param]bool{} // a node two queries share is one marker
	for _, tree := range trees {
		if tree == nil {
			continue
		}
		ast.WalkAll(tree, func(n ast.Node) {
			if p, ok := n.(*ast.Param); ok && !seen[p] {
				seen[p] = true
				ps = append(ps, p)
			}
		})
	}
	slices.SortFunc(ps, func(a, b *ast.Param) int { return a.Start - b.Start })
	var named, numbered *ast.Param
	high := 0
	for _, p := range ps {
		var k int
		switch {
		case p.Name != "":
			named = firstOf(named, p)
			name := strings.ToLower(p.Name)
			k = slices.Index(t.names, name) + 1
			if k == 0 {
				t.names = append(t.names, name)
				k = len(t.names)
			}
		case p.Index > 0:
			numbered = firstOf(numbered, p)
			k = p.Index
		default: // ? and $0
			numbered = firstOf(numbered, p)
			k = high + 1
		}
		high = max(high, k)
		t.num[p.Start] = k
		for len(t.first) < k {
			t.first = append(t.first, -1)
		}
		if t.first[k-1] < 0 {
			t.first[k-1] = p.Start
		}
	}
	if named != nil && numbered != nil {
		t.err = errAt(src, max(named.Start, numbered.Start), ErrParam, "named ($name) and numbered (?, $1) parameters cannot be mixed")
	}
	if t.err == nil {
		t.err = keyParamErr(src, trees)
	}
	return t
}

// keyParamErr refuses a marker that is a whole ORDER BY or DISTINCT ON
// key, as DuckDB does when the statement is prepared: its value would
// make the key a position or a constant, and which is only known when it
// runs.
func keyParamErr(src Source, trees []*ast.Query) error {
	var err error
	refuse := func(x ast.Expr, clause string) {
		if p, ok := x.(*ast.Param); ok && err == nil {
			err = errAt(src, p.Start, ErrParam, "parameter not supported in "+clause+" clause")
		}
	}
	for _, tree := range trees {
		if tree == nil {
			continue
		}
		ast.WalkAll(tree, func(n ast.Node) {
			switch n := n.(type) {
			case *ast.Query:
				for _, o := range n.OrderBy {
					refuse(o.X, "ORDER BY")
				}
			case *ast.Select:
				for _, x := range n.DistinctOn {
					refuse(x, "DISTINCT ON")
				}
			}
		})
	}
	return err
}

func firstOf(p, q *ast.Param) *ast.Param {
	if p != nil {
		return p
	}
	return q
}

// list returns the table's parameters in value order.
func (t *paramTable) list(src Source) []Param {
	out := make([]Param, len(t.first))
	for i, off := range t.first {
		out[i].Name = strconv.Itoa(i + 1)
		if t.names != nil {
			out[i].Name = t.names[i]
		}
		if off >= 0 {
			out[i].Pos = posIn(src.Text, off, Pos{src.Line, src.Col})
		}
	}
	return out
}

// NumParams returns how many values st takes (0 for statements that take
// no parameters).
func NumParams(st Statement) int { return len(Params(st)) }

// Params returns the values st takes, in order (see Param). COPY … TO ?
// takes the path's value after those of its query.
func Params(st Statement) []Param {
	if e, ok := st.(*Explain); ok && e.Write != nil {
		return Params(e.Write)
	}
	ps := paramQuery(st).Params()
	if c, ok := st.(*Copy); ok && c.PathParam {
		ps = append(ps, Param{Name: strconv.Itoa(len(ps) + 1), Pos: c.PathPos})
	}
	return ps
}

// paramQuery returns the query holding st's markers (nil when st has
// none).
func paramQuery(st Statement) *Query {
	switch s := st.(type) {
	case *Query:
		return s
	case *Explain:
		if s.Write != nil {
			return paramQuery(s.Write)
		}
		return s.Query
	case *Describe:
		return s.Query
	case *Copy:
		return s.Query
	case *CreateTableAs:
		return s.Query
	case *Insert:
		return s.Query
	case *Delete:
		return s.Where
	case *Update:
		return s.Query
	case *WithWrites:
		return withWritesQuery(s) // its queries share one table of markers
	}
	return nil
}

// ParamMarkersErr reports markers of st that are both numbered and
// named (a positioned ErrParam), nil otherwise.
func ParamMarkersErr(st Statement) error {
	if q := paramQuery(st); q.parsed() {
		return q.params().err
	}
	return nil
}

// Params returns the values q takes, in order (nil for a nil q).
func (q *Query) Params() []Param {
	if !q.parsed() {
		return nil
	}
	return q.params().list(q.src)
}

// checkParams reports a positioned ErrParam unless n values were given for
// q's markers: too few points at the first marker left without a value,
// too many at the last marker (or the statement's start).
func (q *Query) checkParams(n int) error {
	t := q.params()
	if t.err != nil {
		return t.err
	}
	want := len(t.first)
	if n == want {
		for i, off := range t.first {
			if off < 0 {
				return errAt(q.src, 0, ErrParam, fmt.Sprintf("a value was given for $%d, which the statement does not use", i+1))
			}
		}
		return nil
	}
	at := 0
	if n < want {
		at = t.markerAt(n)
	} else if want > 0 {
		at = t.markerAt(want - 1)
	}
	return errAt(q.src, at, ErrParam, fmt.Sprintf("statement has %d parameter%s, %d argument%s given", want, paramPlural(want), n, paramPlural(n)))
}

// markerAt returns the offset of the first marker of value i (0-based),
// or of the nearest used value before it.
func (t *paramTable) markerAt(i int) int {
	for ; i >= 0; i-- {
		if i < len(t.first) && t.first[i] >= 0 {
			return t.first[i]
		}
	}
	return 0
}

func paramPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// BindParams is Bind with params as the values of the statement's
// markers, in the order of Params. Each value becomes a typed constant of
// the plan (never text spliced into the SQL). A count that differs from
// the number of parameters is an ErrParam error at the first marker
// without a value (or the last marker, when there are too many values).
func BindParams(stmt *Query, cat planner.Catalog, params []columnar.Value) (*Bound, error) {
	if !stmt.parsed() {
		return Bind(stmt, cat)
	}
	if err := stmt.checkParams(len(params)); err != nil {
		return nil, err
	}
	return bindWithParams(stmt, cat, params)
}

// paramNum returns the 1-based number of the value marker p takes.
func (b *binder) paramNum(p *ast.Param) int { return b.q.params().num[p.Start] }

// bindParamAST binds marker p to its value.
func (b *binder) bindParamAST(p *ast.Param, c ectx) (planner.Expr, error) {
	if err := b.q.params().err; err != nil {
		return nil, err
	}
	return b.bindParam(b.paramNum(p), p)
}

// paramLimit reads marker p's value as a LIMIT or OFFSET count, as DuckDB
// casts it to BIGINT: NULL is no limit (OFFSET 0), a fraction rounds.
func (b *binder) paramLimit(p *ast.Param, what string) (int64, error) {
	n, at := b.paramNum(p), b.q.tokAt(p.Start)
	if n < 1 || n > len(b.params) {
		return 0, b.errAt(at, ErrParam, fmt.Sprintf("no value for %s parameter", what))
	}
	v := b.params[n-1]
	x := v.I
	switch {
	case v.Null && what == "LIMIT": // as DuckDB: NULL is no limit
		return -1, nil
	case v.Null:
		return 0, nil
	case v.Type.IsInteger():
	case v.Type.IsNumeric() && !math.IsNaN(v.AsFloat()) && math.Abs(math.Round(v.AsFloat())) < math.MaxInt64:
		x = int64(math.Round(v.AsFloat())) // as CAST to BIGINT rounds
	case v.Type.ID == columnar.Varchar:
		var err error
		if x, err = strconv.ParseInt(strings.TrimSpace(v.S), 10, 64); err != nil {
			return 0, b.errAt(at, ErrParam, fmt.Sprintf("%s: could not convert string %q to BIGINT", what, v.S))
		}
	default:
		return 0, b.errAt(at, ErrParam, fmt.Sprintf("%s must be an integer, got %s", what, v))
	}
	if x < 0 {
		return 0, b.errAt(at, ErrParam, "LIMIT/OFFSET cannot be negative")
	}
	return x, nil
}
