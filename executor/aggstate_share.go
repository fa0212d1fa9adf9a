package executor

// shareValues lets quantile aggregates over the same argument (SUMMARIZE's
// q25, q50 and q75 of a column; median next to quantile_cont) keep its
// values once: the first collects them, the others read its lists.
// Selecting a rank reorders a group's values but keeps the set, so each
// can still pick its own rank. string_agg keeps input order and is never
// shared; DISTINCT and FILTERed states collect different sets and are never
// shared.
func shareValues(states []*aggState) {
	for i, s := range states {
		if !s.sharesQuantiles() {
			continue
		}
		for _, l := range states[:i] {
			if l.sharesQuantiles() && l.valsFrom == nil && sameArg(l.spec.Arg, s.spec.Arg) {
				s.valsFrom = l
				break
			}
		}
	}
}

func (s *aggState) sharesQuantiles() bool {
	switch s.spec.Kind {
	case AggMedian, AggQuantileCont, AggQuantileDisc, AggReservoirQuantile:
		return !s.spec.Distinct && s.spec.Arg != nil && s.spec.Filter == nil
	}
	return false
}

// sameArg reports whether a and b evaluate to the same vector: one
// expression, or the same input column.
func sameArg(a, b Expr) bool {
	if a == b {
		return true
	}
	ca, ok1 := a.(*colExpr)
	cb, ok2 := b.(*colExpr)
	return ok1 && ok2 && ca.idx == cb.idx && ca.t == cb.t
}

// values is the state's value lists, its own or the sharing leader's.
func (s *aggState) values() *valueLists {
	if s.valsFrom != nil {
		return &s.valsFrom.vals
	}
	return &s.vals
}
