package planner

import (
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// Dictionary codes (the DictCodes scan rule, SET dict_codes = off). Under an
// Aggregate whose input is a chain of Filters and Projects over a Scan, a
// string column may travel as dictionary codes plus the chunk's dictionary
// (package dict) instead of as strings, when every use of it on the way
// understands codes:
//
//   - a GROUP BY key (the hash aggregate groups on codes);
//   - an aggregate argument (count(col) reads validity only; min, max and
//     the others decode what they read, which costs no copy);
//   - a comparison with a constant, [NOT] IN a list of constants, IS [NOT]
//     NULL (translated once per dictionary into a truth table over codes);
//   - a plain reference in a Project, which passes the vector through.
//
// COUNT(DISTINCT col) becomes a GROUP BY col first (splitDistinct), so it
// groups on codes too. The probe key of a hash join on one string key may
// come coded as well (planJoinDict): the join looks each
// code up once per dictionary. Any other use (LIKE, lower(), the query
// output) keeps the column plain. The scan decides per chunk: only
// dictionary-encoded chunks come coded, the rest come plain, and every
// consumer above accepts both.

// planDict records in bd.dict which scan columns under a may come coded.
func (bd *builder) planDict(a *Aggregate) {
	if !bd.dictOn() {
		return
	}
	scan, chain, coded, ok := bd.dictChain(a.Input, true)
	if scan == nil {
		return
	}
	reject := func(e Expr) { dictUses(e, coded, ok, false) }
	for _, g := range a.Groups {
		if _, isRef := g.(*ColRef); !isRef {
			reject(g)
		}
	}
	for _, agg := range a.Aggs {
		if agg.Arg == nil {
			continue
		}
		if _, isRef := agg.Arg.(*ColRef); !isRef {
			reject(agg.Arg)
		}
		if _, isRef := agg.Arg2.(*ColRef); agg.Arg2 != nil && !isRef {
			reject(agg.Arg2)
		}
	}
	for _, agg := range a.Aggs {
		if agg.Filter != nil {
			reject(agg.Filter) // count(*) FILTER too: it has no Arg
		}
	}
	// A column is worth coding only if something uses it: a group key or
	// an aggregate argument, or a filter on the way.
	used := map[int]bool{}
	markRef := func(e Expr) {
		if r, isRef := e.(*ColRef); isRef {
			if p, isCoded := coded[r.Col.ID]; isCoded {
				used[p] = true
			}
		}
	}
	for _, g := range a.Groups {
		markRef(g)
	}
	for _, agg := range a.Aggs {
		if agg.Arg != nil {
			markRef(agg.Arg)
		}
	}
	var cols []int
	for i := range scan.Cols {
		if ok[i] && (used[i] || bd.filterUses(chain, scan.Cols[i].ID)) {
			cols = append(cols, i)
		}
	}
	bd.addDict(scan, cols...)
}

// dictOn reports whether scans may hand string columns over as codes.
func (bd *builder) dictOn() bool {
	return !bd.opts.NoPrune && !bd.opts.ScanRulesOff.Has(index.DictCodes)
}

// dictChain walks n's chain of Filters and Projects down to a Scan. It
// returns the scan, the chain (top first), the string columns that reach
// the top of the chain (column ID at the top -> scan position) and, per
// scan position, whether every use of the column on the way understands
// codes. scan is nil when the chain ends in anything else; a Join there
// gets its own probe key planned (planJoinDict) when planJoins is set, for
// the parallel plans that run its probe side in the caller's pipeline.
func (bd *builder) dictChain(n Node, planJoins bool) (scan *Scan, chain []Node, coded map[ColID]int, ok map[int]bool) {
	for scan == nil {
		switch x := n.(type) {
		case *Filter:
			chain = append(chain, x)
			n = x.Input
		case *Project:
			chain = append(chain, x)
			n = x.Input
		case *Scan:
			scan = x
		case *Join:
			if planJoins {
				bd.planJoinDict(x)
			}
			return nil, nil, nil, nil
		default:
			return nil, nil, nil, nil
		}
	}
	coded = map[ColID]int{}
	for i, c := range scan.Cols {
		if c.Type.ID == columnar.Varchar || c.Type.ID == columnar.Blob {
			coded[c.ID] = i
		}
	}
	ok = make(map[int]bool, len(coded)) // scan position -> still allowed
	for _, p := range coded {
		ok[p] = true
	}
	reject := func(e Expr) { dictUses(e, coded, ok, false) }
	for i := len(chain) - 1; i >= 0; i-- {
		switch x := chain[i].(type) {
		case *Filter:
			reject(x.Cond)
		case *Project:
			next := map[ColID]int{}
			for j, e := range x.Exprs {
				if r, isRef := e.(*ColRef); isRef {
					if p, isCoded := coded[r.Col.ID]; isCoded {
						next[x.Out[j].ID] = p
						continue
					}
				}
				reject(e)
			}
			coded = next
		}
	}
	return scan, chain, coded, ok
}

// addDict adds scan positions cols to the columns scan hands over coded.
func (bd *builder) addDict(scan *Scan, cols ...int) {
	if len(cols) == 0 {
		return
	}
	if bd.dict == nil {
		bd.dict = map[*Scan][]int{}
	}
	for _, p := range cols {
		if !slices.Contains(bd.dict[scan], p) {
			bd.dict[scan] = append(bd.dict[scan], p)
		}
	}
	slices.Sort(bd.dict[scan])
}

// planJoinDict asks the probe side's scan of hash join n for dictionary
// codes of the probe key, when the join has one key, a string column that
// reaches the join through Filters and Projects that all understand
// codes. The join translates each code of a dictionary into its build
// rows once (executor/hashjoin_dict.go) and passes no coded vector on.
// The probe side is the one buildJoin streams (the build side is the
// smaller input of an inner join, the preserved side of a semi join built
// left); a build side never needs codes: it hashes its strings once.
func (bd *builder) planJoinDict(n *Join) {
	if !bd.dictOn() {
		return
	}
	probe, key := n.Left, Expr(nil)
	swap := (n.Kind == JoinInner || n.Kind == JoinCross) && smaller(n.Left, n.Right) || buildsLeft(n)
	if swap {
		probe = n.Right
	}
	if len(n.EquiKeys) == 1 {
		key = n.EquiKeys[0].L
		if swap {
			key = n.EquiKeys[0].R
		}
	}
	if scan, p := bd.codedKey(probe, key, true); scan != nil {
		bd.addDict(scan, p)
	}
}

// codedKey returns the scan under probe and the position of its column
// that key (an expression over probe, nil for none) is, when the column may
// come coded up to the join; scan is nil otherwise. planJoins plans the
// joins met under probe (dictChain).
func (bd *builder) codedKey(probe Node, key Expr, planJoins bool) (*Scan, int) {
	scan, _, coded, ok := bd.dictChain(probe, planJoins)
	ref, isRef := key.(*ColRef)
	if scan == nil || !isRef {
		return nil, 0
	}
	if p, isCoded := coded[ref.Col.ID]; isCoded && ok[p] {
		return scan, p
	}
	return nil, 0
}

// joinDictString is the EXPLAIN note of a join (oriented as built: Left
// probes) whose probe key comes as dictionary codes, e.g.
// " dict codes: e.category".
func (bd *builder) joinDictString(n *Join) string {
	if !bd.dictOn() || len(n.EquiKeys) != 1 {
		return ""
	}
	scan, p := bd.codedKey(n.Left, n.EquiKeys[0].L, false)
	if scan == nil || !slices.Contains(bd.dict[scan], p) {
		return ""
	}
	return " dict codes: " + n.EquiKeys[0].L.String()
}

// filterUses reports whether a Filter of the chain reads column id (a coded
// column only filtered on is still worth coding: no string is built).
func (bd *builder) filterUses(chain []Node, id ColID) bool {
	for _, n := range chain {
		if f, isFilter := n.(*Filter); isFilter && refersTo(f.Cond, id) {
			return true
		}
	}
	return false
}

func refersTo(e Expr, id ColID) bool {
	switch x := e.(type) {
	case *ColRef:
		return x.Col.ID == id
	case *Call:
		for _, a := range x.Args {
			if refersTo(a, id) {
				return true
			}
		}
	case *Cast:
		return refersTo(x.Arg, id)
	case *Case:
		for _, w := range x.Whens {
			if refersTo(w.Cond, id) || refersTo(w.Then, id) {
				return true
			}
		}
		return x.Else != nil && refersTo(x.Else, id)
	}
	return false
}

// dictUses walks e and clears ok[p] for every coded column (scan position
// p) that e uses other than in a code-aware way. direct says e itself sits
// where a coded column is accepted.
func dictUses(e Expr, coded map[ColID]int, ok map[int]bool, direct bool) {
	switch x := e.(type) {
	case *ColRef:
		if p, isCoded := coded[x.Col.ID]; isCoded && !direct {
			ok[p] = false
		}
	case *Call:
		switch {
		case codeCompare(x):
			return
		case x.Fn == "and" || x.Fn == "or" || x.Fn == "not":
			for _, a := range x.Args {
				dictUses(a, coded, ok, false)
			}
			return
		case (x.Fn == "is_null" || x.Fn == "is_not_null") && len(x.Args) == 1:
			if _, isRef := x.Args[0].(*ColRef); isRef {
				return
			}
		}
		for _, a := range x.Args {
			dictUses(a, coded, ok, false)
		}
	case *Cast:
		dictUses(x.Arg, coded, ok, false)
	case *Case:
		for _, w := range x.Whens {
			dictUses(w.Cond, coded, ok, false)
			dictUses(w.Then, coded, ok, false)
		}
		if x.Else != nil {
			dictUses(x.Else, coded, ok, false)
		}
	}
}

// codeCompare reports whether x is col op const or col [NOT] IN (consts),
// which the executor evaluates on codes.
func codeCompare(x *Call) bool {
	switch x.Fn {
	case "=", "<>", "<", "<=", ">", ">=":
		if len(x.Args) != 2 {
			return false
		}
		_, l := x.Args[0].(*ColRef)
		_, r := x.Args[1].(*ColRef)
		_, lc := x.Args[0].(*Const)
		_, rc := x.Args[1].(*Const)
		return (l && rc) || (r && lc)
	case "in", "not_in":
		if len(x.Args) < 2 {
			return false
		}
		if _, isRef := x.Args[0].(*ColRef); !isRef {
			return false
		}
		for _, a := range x.Args[1:] {
			if _, isConst := a.(*Const); !isConst {
				return false
			}
		}
		return true
	}
	return false
}

// dictString is the EXPLAIN note for a scan asked for codes, e.g.
// " dict codes: category".
func dictString(n *Scan, spec index.ScanSpec) string {
	if len(spec.DictCols) == 0 || !spec.On(index.DictCodes) {
		return ""
	}
	names := make([]string, 0, len(spec.DictCols))
	for _, p := range spec.DictCols {
		names = append(names, n.Cols[p].Name)
	}
	return " dict codes: " + strings.Join(names, " ")
}
