package index

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// Verdict is what block statistics prove about a predicate on that block.
type Verdict uint8

const (
	Maybe Verdict = iota // read the block and filter it
	None                 // no row matches: skip the block unread
	All                  // every row matches: read it, no filter needed
)

func (v Verdict) String() string { return [...]string{"maybe", "none", "all"}[v] }

// Stats are the statistics of one column in one block (row group, page,
// blosc2 block). HasMinMax is false when min/max are unknown. Min and Max
// are over non-NULL values and have the column's type.
type Stats struct {
	HasMinMax bool
	Min, Max  columnar.Value
	NullCount int64 // -1 when unknown
	Rows      int64
	HasNaN    bool // a float column may hold NaN: min/max say nothing about it
}

// Verdict evaluates p (a single-column predicate) against s. It returns
// Maybe whenever the statistics cannot prove None or All.
func (s Stats) Verdict(p Pred) Verdict {
	allNull := s.NullCount >= 0 && s.NullCount == s.Rows && s.Rows > 0
	noNull := s.NullCount == 0
	switch p.Op {
	case IsNull:
		switch {
		case s.NullCount == 0:
			return None
		case allNull:
			return All
		}
		return Maybe
	case IsNotNull:
		switch {
		case allNull:
			return None
		case s.NullCount == 0:
			return All
		}
		return Maybe
	}
	if allNull {
		return None // comparisons are never true on NULL
	}
	if !s.HasMinMax || !comparable(s.Min, p) || floatUnordered(s) {
		return Maybe
	}
	lo, hi := s.Min, s.Max
	var v Verdict
	switch p.Op {
	case Eq:
		v = rangeEq(lo, hi, p.Vals[0])
	case Ne:
		switch rangeEq(lo, hi, p.Vals[0]) {
		case None:
			v = All
		case All:
			v = None
		}
	case Lt:
		v = cmpRange(lo, hi, p.Vals[0], func(c int) bool { return c < 0 })
	case Le:
		v = cmpRange(lo, hi, p.Vals[0], func(c int) bool { return c <= 0 })
	case Gt:
		v = cmpRange(lo, hi, p.Vals[0], func(c int) bool { return c > 0 })
	case Ge:
		v = cmpRange(lo, hi, p.Vals[0], func(c int) bool { return c >= 0 })
	case Between:
		a, b := p.Vals[0], p.Vals[1]
		switch {
		case columnar.Compare(hi, a) < 0 || columnar.Compare(lo, b) > 0 || columnar.Compare(a, b) > 0:
			v = None
		case columnar.Compare(lo, a) >= 0 && columnar.Compare(hi, b) <= 0:
			v = All
		}
	case In:
		v = None
		for _, x := range p.Vals {
			switch rangeEq(lo, hi, x) {
			case All:
				v = All
			case Maybe:
				if v != All {
					v = Maybe
				}
			}
			if v == All {
				break
			}
		}
	case InSet:
		// A key set has no bounds to compare: the BETWEEN range of the
		// set's keys, offered beside it, is what skips units.
		return Maybe
	default:
		return Maybe
	}
	if v == All && !noNull {
		v = Maybe // NULL rows fail the predicate
	}
	return v
}

// VerdictOf evaluates a predicate, including Or, given per-column stats.
func VerdictOf(p Pred, stats func(col int) (Stats, bool)) Verdict {
	if p.Op == Or {
		out := None
		for _, q := range p.Any {
			switch VerdictOf(q, stats) {
			case All:
				return All
			case Maybe:
				out = Maybe
			}
		}
		return out
	}
	s, ok := stats(p.Col)
	if !ok {
		return Maybe
	}
	return s.Verdict(p)
}

// Conjunction combines verdicts of ANDed predicates.
func Conjunction(vs ...Verdict) Verdict {
	out := All
	for _, v := range vs {
		if v == None {
			return None
		}
		if v == Maybe {
			out = Maybe
		}
	}
	return out
}

func comparable(stat columnar.Value, p Pred) bool {
	for _, x := range p.Vals {
		if x.Type.Phys() != stat.Type.Phys() {
			return false
		}
		if x.Type.Phys() == columnar.PhysFloat && math.IsNaN(x.F) {
			return false
		}
	}
	return true
}

func floatUnordered(s Stats) bool {
	if s.Min.Type.Phys() != columnar.PhysFloat {
		return false
	}
	return s.HasNaN || math.IsNaN(s.Min.F) || math.IsNaN(s.Max.F)
}

func rangeEq(lo, hi, x columnar.Value) Verdict {
	if columnar.Compare(x, lo) < 0 || columnar.Compare(x, hi) > 0 {
		return None
	}
	if columnar.Compare(lo, hi) == 0 {
		return All
	}
	return Maybe
}

// cmpRange decides "col OP x" for col in [lo, hi], where holds(c) tells
// whether compare(col, x) = c satisfies OP.
func cmpRange(lo, hi, x columnar.Value, holds func(int) bool) Verdict {
	a, b := holds(columnar.Compare(lo, x)), holds(columnar.Compare(hi, x))
	switch {
	case a && b:
		return All
	case !a && !b:
		// Monotone predicates: if neither end holds, nothing between does
		// unless the range straddles x for "<>"-like ops, which are not here.
		return None
	}
	return Maybe
}
