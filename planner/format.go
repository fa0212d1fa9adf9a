package planner

import (
	"fmt"
	"strings"
)

// Format prints a logical plan, one node per line, children indented under
// their parent. It shows what the rules change (pushed predicates and
// limits, kept columns, expressions, join keys), so Optimize compares it
// before and after each rule to report the rules that changed the plan, and
// tests can assert a plan's shape.
//
// A plan can be deep (a chain of thousands of set operations) and share
// inputs, so Format prints at most formatMaxNodes nodes, then one line
// saying how many it left out, and indents by at most formatMaxIndent
// levels (deeper lines carry their depth as a number).
func Format(n Node) string {
	f := formatter{left: formatMaxNodes}
	f.node(n, 0)
	switch {
	case f.capped:
		fmt.Fprintf(&f.b, "… more than %d more nodes\n", f.skipped)
	case f.skipped > 0:
		fmt.Fprintf(&f.b, "… %d more nodes\n", f.skipped)
	}
	return f.b.String()
}

const (
	formatMaxNodes  = 2000
	formatMaxIndent = 32
)

type formatter struct {
	b       strings.Builder
	left    int // nodes still to print
	skipped int
	capped  bool
}

func (f *formatter) node(n Node, depth int) {
	if f.left == 0 {
		if f.skipped == formatMaxNodes {
			f.capped = true // a huge or much-shared tree: the count is a lower bound
			return
		}
		f.skipped++
	} else {
		f.left--
		if depth > formatMaxIndent {
			fmt.Fprintf(&f.b, "%s[%d] ", strings.Repeat("  ", formatMaxIndent), depth)
		} else {
			f.b.WriteString(strings.Repeat("  ", depth))
		}
		f.b.WriteString(describeNode(n))
		f.b.WriteByte('\n')
	}
	for _, k := range n.Children() {
		f.node(k, depth+1)
	}
}

// describeNode is n's line in Format: its kind and the fields rules set.
func describeNode(n Node) string {
	switch n := n.(type) {
	case *Scan:
		preds := make([]string, len(n.Filter))
		for i, p := range n.Filter {
			preds[i] = p.String(scanSchema(n.Table))
			if i < len(n.Support) {
				preds[i] += " (" + n.Support[i].String() + ")"
			}
		}
		return fmt.Sprintf("Scan %s cols=%v [%s] filter=[%s] limit=%d", n.Name, n.TableCols, columnList(n.Cols), strings.Join(preds, ", "), n.Limit)
	case *Filter:
		return "Filter " + n.Cond.String()
	case *Project:
		return "Project " + exprList(n.Exprs) + " -> " + columnList(n.Out)
	case *Aggregate:
		aggs := make([]string, len(n.Aggs))
		for i, a := range n.Aggs {
			aggs[i] = a.Func.String() + "("
			if a.Distinct {
				aggs[i] += "DISTINCT "
			}
			if a.Arg != nil {
				aggs[i] += a.Arg.String()
			}
			if a.Arg2 != nil {
				aggs[i] += ", " + a.Arg2.String()
			}
			aggs[i] += ")" + filterText(a)
		}
		kind := "Aggregate "
		if n.Partial {
			kind = "Aggregate partial "
		}
		return kind + "groups=[" + exprList(n.Groups) + "] aggs=[" + strings.Join(aggs, ", ") + "] -> " + columnList(n.Out)
	case *Sort:
		return "Sort " + sortKeys(n.Keys)
	case *Limit:
		return fmt.Sprintf("Limit %d offset %d", n.Count, n.Offset)
	case *LimitBy:
		if n.Percent {
			return "Limit % computed once by its second input"
		}
		return "Limit computed once by its second input"
	case *Sample:
		return n.String()
	case *AsofJoin:
		return n.String()
	case *PositionalJoin:
		return "PositionalJoin"
	case *LimitPercent:
		return fmt.Sprintf("Limit %g%% offset %d", n.Percent, n.Offset)
	case *TopK:
		return fmt.Sprintf("TopK %s limit %d offset %d", sortKeys(n.Keys), n.Count, n.Offset)
	case *Distinct:
		return "Distinct"
	case *Unnest:
		pass := ""
		if n.Pass != nil {
			pass = " pass=[" + columnList(n.Pass) + "]"
		}
		return "Unnest " + exprList(n.Exprs) + " -> " + columnList(n.Out) + pass
	case *Values:
		return fmt.Sprintf("Values rows=%d -> %s %s", len(n.Rows), columnList(n.Out), n.Note)
	case *Join:
		keys := make([]string, len(n.EquiKeys))
		for i, k := range n.EquiKeys {
			keys[i] = k.L.String() + " = " + k.R.String()
		}
		cond := ""
		if n.Cond != nil {
			cond = " cond=" + n.Cond.String()
		}
		return fmt.Sprintf("Join %s keys=[%s]%s", n.Kind, strings.Join(keys, ", "), cond)
	case *SetOp:
		return fmt.Sprintf("SetOp %s all=%v -> %s", n.Kind, n.All, columnList(n.Out))
	case *Window:
		names := make([]string, len(n.Funcs))
		for i, f := range n.Funcs {
			names[i] = f.Name + "(" + exprList(f.Args)
			if len(f.ArgOrder) > 0 {
				names[i] += " ORDER BY " + sortKeys(f.ArgOrder)
			}
			names[i] += ")"
		}
		return "Window " + strings.Join(names, ", ") + " -> " + columnList(n.Out)
	case *CTERef:
		return "CTERef " + n.CTE.Name
	case *CTEScan:
		return "CTEScan " + n.CTE.Name + " -> " + columnList(n.Out)
	case *WorkScan:
		return "WorkScan -> " + columnList(n.Out)
	case *RecursiveCTE:
		return fmt.Sprintf("RecursiveCTE distinct=%v -> %s", n.Distinct, columnList(n.Out))
	}
	return fmt.Sprintf("%T", n)
}

func exprList(es []Expr) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.String()
	}
	return strings.Join(s, ", ")
}

func columnList(cs []Column) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = fmt.Sprintf("#%d", c.ID)
	}
	return strings.Join(s, " ")
}

func sortKeys(ks []SortKey) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = k.Expr.String()
		if k.Desc {
			s[i] += " DESC"
		}
		if k.NullsFirst {
			s[i] += " NULLS FIRST"
		}
	}
	return strings.Join(s, ", ")
}
