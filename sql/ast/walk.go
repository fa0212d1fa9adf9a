package ast

// Inspect calls f on e and then, while f returns true, on each expression
// under e in the order written: operands, call arguments, FILTER and
// ORDER BY of a call, its OVER clause's partition and order keys and
// frame offsets, CASE branches, … It does not enter nested queries
// (Subquery, InQuery and Quantified are visited, their Query is not): a
// nested query has its own clauses. A nil e is not visited.
func Inspect(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	each := func(es ...Expr) {
		for _, x := range es {
			Inspect(x, f)
		}
	}
	order := func(os []*OrderItem) {
		for _, o := range os {
			Inspect(o.X, f)
		}
	}
	switch e := e.(type) {
	case *Interval:
		each(e.Value)
	case *Unary:
		each(e.X)
	case *Binary:
		each(e.L, e.R)
	case *Is:
		each(e.X)
	case *DistinctFrom:
		each(e.L, e.R)
	case *Between:
		each(e.X, e.Lo, e.Hi)
	case *Like:
		each(e.X, e.Pattern, e.Escape)
	case *InList:
		each(e.X)
		each(e.List...)
	case *InQuery:
		each(e.X)
	case *Quantified:
		each(e.X, e.List)
	case *Case:
		each(e.Operand)
		for _, w := range e.Whens {
			each(w.Cond, w.Then)
		}
		each(e.Else)
	case *Cast:
		each(e.X)
	case *Collate:
		each(e.X)
	case *Func:
		each(e.Args...)
		order(e.OrderBy)
		order(e.WithinGroup)
		each(e.Filter)
		if w := e.Over; w != nil {
			each(w.PartitionBy...)
			order(w.OrderBy)
			if fr := w.Frame; fr != nil {
				for _, b := range []*Bound{fr.Start, fr.End} {
					if b != nil {
						each(b.Offset)
					}
				}
			}
		}
	case *NamedArg:
		each(e.Value)
	case *Lambda:
		each(e.Body)
	case *Star:
		for _, r := range e.Replace {
			each(r.X)
		}
		if e.Like != nil {
			each(e.Like)
		}
	case *Columns:
		each(e.Arg)
	case *List:
		each(e.Elems...)
	case *Struct:
		for _, fl := range e.Fields {
			each(fl.Value)
		}
	case *Comprehension:
		each(e.X, e.List, e.Cond)
	case *Map:
		for _, en := range e.Entries {
			each(en.Key, en.Value)
		}
	case *Row:
		each(e.Elems...)
	case *Index:
		each(e.X, e.Index)
	case *Slice:
		each(e.X, e.Lo, e.Hi, e.Step)
	case *Field:
		each(e.X)
	case *GroupingSet:
		each(e.Items...)
	}
}
