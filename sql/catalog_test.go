package sql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/planner"
)

// fakeTable is a schema-only table: binding never scans.
type fakeTable struct{ schema columnar.Schema }

func (t *fakeTable) Schema() columnar.Schema { return t.schema }
func (t *fakeTable) Scan(context.Context, index.ScanSpec) (columnar.Reader, error) {
	return nil, errors.New("fake table")
}

// fakeCatalog has tables "t" and "events"; OpenPath succeeds for paths
// mentioning "events" and fails otherwise.
type fakeCatalog struct {
	tables map[string]*fakeTable
	opened []string // fn:path of every OpenPath call
}

func newCatalog() *fakeCatalog {
	t := &fakeTable{columnar.Schema{
		{Name: "a", Type: columnar.TInt32},
		{Name: "b", Type: columnar.TInt64},
		{Name: "s", Type: columnar.TVarchar},
		{Name: "price", Type: columnar.DecimalType(10, 2)},
		{Name: "d", Type: columnar.TDate},
		{Name: "ts", Type: columnar.TTimestamp},
		{Name: "f", Type: columnar.TFloat64},
		{Name: "small", Type: columnar.TInt16},
		{Name: "u", Type: columnar.TUint32},
		{Name: "ub", Type: columnar.TUint64},
		{Name: "ok", Type: columnar.TBool},
		{Name: "City", Type: columnar.TVarchar},
	}}
	ev := &fakeTable{columnar.Schema{
		{Name: "id", Type: columnar.TInt64},
		{Name: "kind", Type: columnar.TVarchar},
	}}
	// dup has two columns whose names differ only in case, as a Parquet
	// file may.
	dup := &fakeTable{columnar.Schema{
		{Name: "x", Type: columnar.TInt32},
		{Name: "X", Type: columnar.TInt32},
	}}
	return &fakeCatalog{tables: map[string]*fakeTable{"t": t, "events": ev, "dup": dup}}
}

func (c *fakeCatalog) Table(name string) (planner.Table, bool) {
	t, ok := c.tables[strings.ToLower(name)]
	return t, ok
}

func (c *fakeCatalog) TableNames() []string { return []string{"dup", "events", "t"} }

func (c *fakeCatalog) OpenPath(fn, path string) (planner.Table, error) {
	c.opened = append(c.opened, fn+":"+path)
	if strings.Contains(path, "events") {
		return c.tables["events"], nil
	}
	return nil, fmt.Errorf("no such file")
}

// formatPlan renders a plan one node per line, children indented, for
// golden comparisons in tests.
func formatPlan(n planner.Node) string {
	var b strings.Builder
	var walk func(n planner.Node, depth int)
	walk = func(n planner.Node, depth int) {
		b.WriteString(strings.Repeat("  ", depth))
		b.WriteString(nodeLine(n))
		b.WriteString("\n")
		for _, c := range n.Children() {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

func exprList(xs []planner.Expr) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = str(x)
	}
	return strings.Join(parts, ", ")
}

// str is planner's Expr.String, except that a reference to a column made
// above the scan (group key, aggregate, projection) prints as $name, so
// that golden plans show what is computed and what is referenced.
func str(e planner.Expr) string {
	switch e := e.(type) {
	case *planner.ColRef:
		if e.Col.Table == "" {
			return "$" + e.Col.Name
		}
		return e.String()
	case *planner.Call:
		args := make([]planner.Expr, len(e.Args))
		for i, a := range e.Args {
			args[i] = &planner.Const{Val: columnar.StringValue(str(a))}
		}
		c := &planner.Call{Fn: e.Fn, Args: args, T: e.T}
		return unquoteArgs(c.String(), args)
	case *planner.Case:
		var b strings.Builder
		b.WriteString("CASE")
		for _, w := range e.Whens {
			fmt.Fprintf(&b, " WHEN %s THEN %s", str(w.Cond), str(w.Then))
		}
		if e.Else != nil {
			fmt.Fprintf(&b, " ELSE %s", str(e.Else))
		}
		return b.String() + " END"
	case *planner.Cast:
		if e.Try {
			return fmt.Sprintf("TRY_CAST(%s AS %s)", str(e.Arg), e.To)
		}
		return fmt.Sprintf("CAST(%s AS %s)", str(e.Arg), e.To)
	}
	return e.String()
}

// unquoteArgs undoes the quoting planner.Const applied to the stand-in
// string arguments of str.
func unquoteArgs(s string, args []planner.Expr) string {
	for _, a := range args {
		q := a.String()
		s = strings.Replace(s, q, a.(*planner.Const).Val.S, 1)
	}
	return s
}

func nodeLine(n planner.Node) string {
	switch n := n.(type) {
	case *planner.Scan:
		return fmt.Sprintf("Scan %s AS %s cols=%d", n.Name, n.Alias, len(n.Cols))
	case *planner.Filter:
		return "Filter " + str(n.Cond)
	case *planner.Project:
		parts := make([]string, len(n.Exprs))
		for i, x := range n.Exprs {
			parts[i] = str(x) + " AS " + n.Out[i].Name + ":" + n.Out[i].Type.String()
		}
		return "Project [" + strings.Join(parts, ", ") + "]"
	case *planner.Aggregate:
		aggs := make([]string, len(n.Aggs))
		for i, a := range n.Aggs {
			arg := ""
			if a.Arg != nil {
				arg = str(a.Arg)
			}
			if a.Distinct {
				arg = "DISTINCT " + arg
			}
			aggs[i] = fmt.Sprintf("%s(%s):%s", a.Func, arg, a.Type)
		}
		return fmt.Sprintf("Aggregate groups=[%s] aggs=[%s]", exprList(n.Groups), strings.Join(aggs, ", "))
	case *planner.Sort:
		keys := make([]string, len(n.Keys))
		for i, k := range n.Keys {
			keys[i] = str(k.Expr)
			if k.Desc {
				keys[i] += " DESC"
			}
			if k.NullsFirst {
				keys[i] += " NULLS FIRST"
			}
		}
		return "Sort [" + strings.Join(keys, ", ") + "]"
	case *planner.Limit:
		return fmt.Sprintf("Limit %d offset %d", n.Count, n.Offset)
	case *planner.Distinct:
		return "Distinct"
	case *planner.Values:
		rows := make([]string, len(n.Rows))
		for i, r := range n.Rows {
			rows[i] = "(" + exprList(r) + ")"
		}
		return "Values " + strings.Join(rows, ", ")
	}
	return fmt.Sprintf("%T", n)
}
