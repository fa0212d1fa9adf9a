package planner

import "github.com/b2sql/b2sql/columnar"

// Join filters through equal columns. Every row reaching a join from its
// probe side has passed the inner joins below it, so where one of them
// joined the probe key k = c on two bare columns of one integer type, c
// equals k on each such row, and a filter of the build's keys on c's scan
// drops only rows that cannot match either: TPC-H Q9 joins part on
// l_partkey = p_partkey above partsupp's l_partkey = ps_partkey, and
// part's keys then filter partsupp's scan (800k rows, 11k of them kept)
// as well as lineitem's.

// equalCols returns the columns equal to col on every row n outputs: col
// itself first, then those joined to it (transitively) by the equi keys
// of the inner joins below n (innerEquiKeys), each of col's type. A column
// the plan drops on the way up is still equal on the rows that pass:
// traceEqual finds its scan.
func equalCols(n Node, col Column) []ColID {
	out := []ColID{col.ID}
	in := map[ColID]bool{col.ID: true}
	for grew := true; grew; {
		grew = false
		for _, k := range innerEquiKeys(n, nil) {
			l, okl := k.L.(*ColRef)
			r, okr := k.R.(*ColRef)
			if !okl || !okr || !sameIntType(l.Col.Type, col.Type) || !sameIntType(r.Col.Type, col.Type) {
				continue
			}
			switch {
			case in[l.Col.ID] && !in[r.Col.ID]:
				in[r.Col.ID], grew = true, true
				out = append(out, r.Col.ID)
			case in[r.Col.ID] && !in[l.Col.ID]:
				in[l.Col.ID], grew = true, true
				out = append(out, l.Col.ID)
			}
		}
	}
	return out
}

// innerEquiKeys appends the equi keys of the inner joins under n reached
// through Filters, Projects and inner joins (whose output rows satisfy
// every key below them).
func innerEquiKeys(n Node, into []EquiKey) []EquiKey {
	switch x := n.(type) {
	case *Filter:
		return innerEquiKeys(x.Input, into)
	case *Project:
		return innerEquiKeys(x.Input, into)
	case *Join:
		if x.Kind != JoinInner {
			return into
		}
		into = append(into, x.EquiKeys...)
		into = innerEquiKeys(x.Left, into)
		return innerEquiKeys(x.Right, into)
	}
	return into
}

// sameIntType reports whether a and b are one integer-backed type (the
// key values compare as the same int64s).
func sameIntType(a, b columnar.Type) bool {
	return a.Phys() == columnar.PhysInt && a.ID == b.ID && a.Precision == b.Precision && a.Scale == b.Scale && a.Nest == nil && b.Nest == nil
}

// traceEqual is traceScan (joinfilter.go) for a column equal to a probe
// key: it also passes Projects that drop the column (they keep their
// input's rows) and finds it in either input of an inner join whether or
// not the join outputs it; it stops at other joins.
func traceEqual(n Node, id ColID) (*Scan, int, bool) {
	for {
		switch x := n.(type) {
		case *Scan:
			for i, c := range x.Cols {
				if c.ID == id {
					return x, i, true
				}
			}
			return nil, 0, false
		case *Filter:
			n = x.Input
		case *Project:
			for i, c := range x.Out {
				if c.ID == id {
					r, ok := x.Exprs[i].(*ColRef)
					if !ok {
						return nil, 0, false
					}
					id = r.Col.ID
					break
				}
			}
			n = x.Input
		case *Join:
			if x.Kind != JoinInner {
				return nil, 0, false // equal columns come from inner joins only
			}
			if s, pos, ok := traceEqual(x.Left, id); ok {
				return s, pos, true
			}
			n = x.Right
		default:
			return nil, 0, false
		}
	}
}
