package planner

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// The ReadFields rule.
//
// s.a binds to struct_extract(s, 0). Over a scan of a table that stores
// the fields of s apart (FieldColumner: Parquet leaf columns), the rule
// makes the scan read a as a column of its own and the expression read
// that column, so PruneColumns drops s when nothing else reads it, and
// PushFilters (which runs next) offers `s.a BETWEEN 100 AND 200` to the
// table as a predicate on a column with its own statistics.
//
// The rule rewrites the expressions of a node only where the node's
// input passes the scan's columns through unchanged (Filter, Sort, TopK,
// Limit, Join, down to the Scan): there the new column, appended to the
// scan, reaches the expression under the same ID. Above a Project or an
// Aggregate the STRUCT column has another ID and the expression is left
// as it is (still right, only not narrower).

// fieldSource is a STRUCT column of a FieldColumner scan that a node's
// expressions may read a field of.
type fieldSource struct {
	scan *Scan // the rule's own copy, which gets the field columns
	col  int   // the STRUCT column's index in the table
}

// fieldRewriter holds the state of one application of the rule.
type fieldRewriter struct {
	next ColID               // the next unused column ID
	made map[fieldKey]Column // field columns already added
}

// fieldKey identifies field path (its indexes, dotted) of table column col
// of scan.
type fieldKey struct {
	scan *Scan
	col  int
	path string
}

func readFields(n Node) Node {
	r := &fieldRewriter{next: maxColID(n) + 1, made: map[fieldKey]Column{}}
	out, _ := r.node(n)
	return out
}

// node rewrites n and returns the STRUCT columns of its output that come
// straight from a FieldColumner scan.
func (r *fieldRewriter) node(n Node) (Node, map[ColID]fieldSource) {
	switch n := n.(type) {
	case *Scan:
		fc, ok := n.Table.(FieldColumner)
		if !ok {
			return n, nil
		}
		c := *n
		c.Cols = append([]Column(nil), n.Cols...)
		c.TableCols = append([]int(nil), n.TableCols...)
		avail := map[ColID]fieldSource{}
		for i, col := range n.Cols {
			if col.Type.ID == columnar.Struct && n.TableCols[i] < len(fc.Schema()) {
				avail[col.ID] = fieldSource{scan: &c, col: n.TableCols[i]}
			}
		}
		return &c, avail
	case *Filter, *Sort, *TopK, *Limit, *Project, *Aggregate:
		in, avail := r.node(n.Children()[0])
		return r.own(n.WithChildren([]Node{in}), avail)
	case *Join:
		l, la := r.node(n.Left)
		rt, ra := r.node(n.Right)
		avail := map[ColID]fieldSource{}
		for id, s := range la {
			avail[id] = s
		}
		for id, s := range ra {
			avail[id] = s
		}
		c := *n
		c.Left, c.Right = l, rt
		c.EquiKeys = make([]EquiKey, len(n.EquiKeys))
		for i, k := range n.EquiKeys {
			c.EquiKeys[i] = EquiKey{L: r.expr(k.L, avail), R: r.expr(k.R, avail)}
		}
		c.Cond = r.expr(n.Cond, avail)
		switch n.Kind {
		case JoinSemi, JoinAnti, JoinMark:
			return &c, la // the right side's columns do not pass
		}
		return &c, avail
	}
	return mapChildren(n, func(k Node) Node {
		out, _ := r.node(k)
		return out
	}), nil
}

// own rewrites the expressions of c, a copy of a one-input node whose
// input's fields avail lists, and returns it with the fields that pass
// through it.
func (r *fieldRewriter) own(c Node, avail map[ColID]fieldSource) (Node, map[ColID]fieldSource) {
	switch c := c.(type) {
	case *Filter:
		c.Cond = r.expr(c.Cond, avail)
	case *Sort:
		c.Keys = r.keys(c.Keys, avail)
	case *TopK:
		c.Keys = r.keys(c.Keys, avail)
	case *Project:
		c.Exprs = r.exprs(c.Exprs, avail)
		return c, nil
	case *Aggregate:
		c.Groups = r.exprs(c.Groups, avail)
		c.Aggs = append([]AggCall(nil), c.Aggs...)
		for i, a := range c.Aggs {
			c.Aggs[i].Arg, c.Aggs[i].Arg2, c.Aggs[i].Filter = r.expr(a.Arg, avail), r.expr(a.Arg2, avail), r.expr(a.Filter, avail)
		}
		return c, nil
	}
	return c, avail
}

func (r *fieldRewriter) exprs(es []Expr, avail map[ColID]fieldSource) []Expr {
	out := make([]Expr, len(es))
	for i, e := range es {
		out[i] = r.expr(e, avail)
	}
	return out
}

func (r *fieldRewriter) keys(keys []SortKey, avail map[ColID]fieldSource) []SortKey {
	out := make([]SortKey, len(keys))
	for i, k := range keys {
		k.Expr = r.expr(k.Expr, avail)
		out[i] = k
	}
	return out
}

// expr returns e with every struct_extract chain over a column of avail
// replaced by a field column, where the table has one.
func (r *fieldRewriter) expr(e Expr, avail map[ColID]fieldSource) Expr {
	if e == nil || len(avail) == 0 {
		return e
	}
	switch x := e.(type) {
	case *Call:
		if col, ok := r.field(x, avail); ok {
			return &ColRef{Col: col}
		}
		c := *x
		c.Args = make([]Expr, len(x.Args))
		for i, a := range x.Args {
			c.Args[i] = r.expr(a, avail)
		}
		return &c
	case *Case:
		c := *x
		c.Whens = make([]When, len(x.Whens))
		for i, w := range x.Whens {
			c.Whens[i] = When{Cond: r.expr(w.Cond, avail), Then: r.expr(w.Then, avail)}
		}
		c.Else = r.expr(x.Else, avail)
		return &c
	case *Cast:
		c := *x
		c.Arg = r.expr(x.Arg, avail)
		return &c
	case *Lambda:
		c := *x
		c.Body = r.expr(x.Body, avail)
		return &c
	}
	return e
}

// field returns the field column for the struct_extract chain x, the
// longest prefix of the chain the table has a column for: the rest of
// the chain stays a struct_extract over that column.
func (r *fieldRewriter) field(x *Call, avail map[ColID]fieldSource) (Column, bool) {
	// chain[0] is x, the outermost call; path is read from the base up.
	var chain []*Call
	var base *ColRef
	for e := Expr(x); ; {
		c, ok := e.(*Call)
		if !ok || c.Fn != "struct_extract" || len(c.Args) != 2 {
			base, _ = e.(*ColRef)
			break
		}
		k, ok := c.Args[1].(*Const)
		if !ok || k.Val.Null || k.Val.Type.ID != columnar.Int64 {
			return Column{}, false
		}
		chain = append(chain, c)
		e = c.Args[0]
	}
	if base == nil || len(chain) == 0 {
		return Column{}, false
	}
	src, ok := avail[base.Col.ID]
	if !ok {
		return Column{}, false
	}
	path := make([]int, len(chain))
	for i, c := range chain {
		path[len(chain)-1-i] = int(c.Args[1].(*Const).Val.I)
	}
	// The whole chain only: a shorter prefix is the rewrite of the inner
	// call, which expr reaches if the outer one is refused.
	return r.column(src, base.Col, path, x.T)
}

// column returns the scan column holding field path of src, adding it to
// the scan the first time.
func (r *fieldRewriter) column(src fieldSource, parent Column, path []int, t columnar.Type) (Column, bool) {
	fc := src.scan.Table.(FieldColumner)
	tc, ok := fc.FieldColumn(src.col, path)
	if !ok {
		return Column{}, false
	}
	schema := fc.ScanSchema()
	if tc < 0 || tc >= len(schema) || schema[tc].Type != t {
		return Column{}, false // a table that reads the field as another type
	}
	key := fieldKey{src.scan, src.col, fmt.Sprint(path)}
	if c, ok := r.made[key]; ok {
		return c, true
	}
	col := Column{ID: r.next, Name: parent.Name + "." + fieldNames(parent.Type, path), Table: parent.Table, Type: t}
	r.next++
	src.scan.Cols = append(src.scan.Cols, col)
	src.scan.TableCols = append(src.scan.TableCols, tc)
	r.made[key] = col
	return col, true
}

// fieldNames is the dotted name of path in STRUCT type t.
func fieldNames(t columnar.Type, path []int) string {
	names := make([]string, len(path))
	for i, p := range path {
		fs := t.Fields()
		if p < 0 || p >= len(fs) {
			return strings.Join(names[:i], ".")
		}
		names[i] = fs[p].Name
		t = fs[p].Type
	}
	return strings.Join(names, ".")
}
