package planner

import (
	"strings"

	"github.com/b2sql/b2sql/executor"
)

// buildJoin builds a HashJoin (a nested-loop join when there are no
// equi-keys). The right input is the build side; an inner join whose left
// input is estimated to be smaller builds the left instead, with a
// projection restoring the column order.
func (bd *builder) buildJoin(n *Join) (executor.Operator, error) {
	bd.planJoinDict(n) // dict.go: the probe key may come as dictionary codes
	if swapsSides(n) {
		swapped := bd.swappedOf(n)
		op, err := bd.buildJoinAs(swapped)
		if err != nil {
			return nil, err
		}
		return bd.restoreOrder(n, swapped, op), nil
	}
	if buildsLeft(n) {
		return bd.buildRightSemi(n)
	}
	return bd.buildJoinAs(n)
}

// swapsSides reports whether inner join n runs with its sides swapped:
// its left input, estimated smaller, is built and the right probes.
func swapsSides(n *Join) bool {
	return (n.Kind == JoinInner || n.Kind == JoinCross) && smaller(n.Left, n.Right)
}

// swappedOf returns n with its sides swapped, the same node every time it
// is asked for n (a parallel pipeline's worker copies share its build and
// join filters by it).
func (bd *builder) swappedOf(n *Join) *Join {
	if s := bd.swaps[n]; s != nil {
		return s
	}
	s := swapJoin(n)
	if bd.swaps == nil {
		bd.swaps = map[*Join]*Join{}
	}
	bd.swaps[n] = s
	return s
}

// swapJoin returns inner join n with its sides and keys swapped.
func swapJoin(n *Join) *Join {
	s := &Join{Left: n.Right, Right: n.Left, Kind: n.Kind, Cond: n.Cond, Used: n.Used}
	for _, k := range n.EquiKeys {
		s.EquiKeys = append(s.EquiKeys, EquiKey{L: k.R, R: k.L})
	}
	return s
}

// restoreOrder puts the columns of op, the swapped join, back in n's order.
func (bd *builder) restoreOrder(n, swapped *Join, op executor.Operator) executor.Operator {
	lay := layout(swapped.Schema())
	exprs := make([]executor.Expr, 0, len(n.Schema()))
	names := make([]string, 0, len(n.Schema()))
	for _, c := range n.Schema() {
		exprs = append(exprs, executor.ColumnExpr(lay[c.ID], c.Type))
		names = append(names, c.Name)
	}
	return bd.wrap(&executor.Project{Input: op, Exprs: exprs, Names: names})
}

// probesRight reports whether a parallel pipeline may run through n's
// right side: n is an inner join run swapped (swapsSides), so the right
// is its probe side, and the swapped join may probe in parallel.
func probesRight(n *Join) bool {
	return swapsSides(n) && probeInParallel(swapJoin(n))
}

// buildRightSemi builds semi/anti join n with the sides swapped: the right
// probes, the left is built and its matched (semi) or unmatched (anti) rows
// come out, left columns only, as n's schema says.
func (bd *builder) buildRightSemi(n *Join) (executor.Operator, error) {
	swapped := &Join{Left: n.Right, Right: n.Left, Kind: JoinInner, Cond: n.Cond}
	for _, k := range n.EquiKeys {
		swapped.EquiKeys = append(swapped.EquiKeys, EquiKey{L: k.R, R: k.L})
	}
	kind := executor.JoinRightSemi
	if n.Kind == JoinAnti {
		kind = executor.JoinRightAnti
	}
	filters := bd.planJoinFilters(swapped, kind) // joinfilter.go
	probe, err := bd.build(swapped.Left)
	filters = bd.dropJoinFilters(filters)
	if err != nil {
		return nil, err
	}
	build, err := bd.buildUnordered(swapped.Right) // parallel_build.go
	if err != nil {
		return nil, err
	}
	op, err := bd.joinOp(swapped, probe, build)
	if err != nil {
		return nil, err
	}
	op.Kind, op.Filters = kind, filters
	return bd.wrap(op), nil
}

func (bd *builder) buildJoinAs(n *Join) (executor.Operator, error) {
	// A join reading its probe side first cannot filter it with build keys.
	var filters []*executor.JoinFilter
	if !probeFirst(n) {
		filters = bd.planJoinFilters(n, executor.JoinKind(n.Kind)) // joinfilter.go
	}
	// A probe-first join holds its probe side whole before probing.
	buildLeft := bd.build
	if probeFirst(n) {
		buildLeft = bd.buildUnordered // parallel_build.go
	}
	left, err := buildLeft(n.Left)
	filters = bd.dropJoinFilters(filters)
	if err != nil {
		return nil, err
	}
	probeFilters := bd.planProbeFilters(n) // joinfilter_probe.go
	right, err := bd.buildUnordered(n.Right)
	probeFilters = bd.dropJoinFilters(probeFilters)
	if err != nil {
		return nil, err
	}
	op, err := bd.joinOp(n, left, right)
	if err != nil {
		return nil, err
	}
	op.Filters, op.ProbeFilters = filters, probeFilters
	return bd.wrap(op), nil
}

// joinOp makes the HashJoin of n over built inputs (right nil: a shared
// build, set by the caller).
func (bd *builder) joinOp(n *Join, left, right executor.Operator) (*executor.HashJoin, error) {
	llay, rlay := layout(n.Left.Schema()), layout(n.Right.Schema())
	op := &executor.HashJoin{Left: left, Right: right, Kind: executor.JoinKind(n.Kind), NullAware: n.NullAware}
	if n.Used != nil {
		for _, c := range n.Schema() {
			op.Used = append(op.Used, n.Used[c.ID])
		}
	}
	if e, ok := estimate(n.Right); ok {
		// Capped: an estimate far above the truth would allocate a table
		// much bigger than the build needs.
		op.BuildRows = int(min(e.rows, 1<<20))
	}
	var desc []string
	for _, k := range n.EquiKeys {
		l, err := CompileExpr(k.L, llay)
		if err != nil {
			return nil, err
		}
		r, err := CompileExpr(k.R, rlay)
		if err != nil {
			return nil, err
		}
		op.LeftKeys = append(op.LeftKeys, l)
		op.RightKeys = append(op.RightKeys, r)
		desc = append(desc, k.L.String()+" = "+k.R.String())
	}
	if n.Cond != nil {
		all := append(append([]Column(nil), n.Left.Schema()...), n.Right.Schema()...)
		c, err := CompileExpr(n.Cond, layout(all))
		if err != nil {
			return nil, err
		}
		op.Cond = c
		desc = append(desc, n.Cond.String())
		if op.Ranges, err = rangeKeys(n, llay, rlay); err != nil { // join_range.go
			return nil, err
		}
	}
	op.Desc = strings.Join(desc, " AND ") + bd.joinDictString(n) // dict.go
	return op, nil
}

// probeInParallel reports whether a parallel pipeline may run through n's
// probe (left) side: every worker gets a copy of the join probing one
// shared build of the right side (Right and Full joins merge the copies'
// marks there, and the last copy to end emits the unmatched build rows).
// Not for an inner join that buildJoin would rather build on the left (the
// smaller), nor for a join that reads its probe side first.
func probeInParallel(n *Join) bool {
	if probeFirst(n) { // joinfilter_probe.go: the probe is read whole first
		return false
	}
	switch n.Kind {
	case JoinRight, JoinFull:
		return true
	case JoinInner, JoinCross:
		return !smaller(n.Left, n.Right)
	}
	return !buildsLeft(n)
}

// probeCopy builds one worker's copy of join n over its probe pipeline
// in; the build side is built (as an operator tree) once per n and shared.
func (bd *builder) probeCopy(n *Join, in executor.Operator) (executor.Operator, error) {
	shared := bd.joins[n]
	if shared == nil {
		right, err := bd.buildUnordered(n.Right)
		if err != nil {
			return nil, err
		}
		shared = &executor.JoinBuild{Right: right}
		if bd.joins == nil {
			bd.joins = map[*Join]*executor.JoinBuild{}
		}
		bd.joins[n] = shared
	}
	shared.Probes++
	op, err := bd.joinOp(n, in, nil)
	if err != nil {
		return nil, err
	}
	// Every scan under n's probe side is built by now: keep the filters
	// some scan took (the same list for every worker's copy).
	filters := bd.dropJoinFilters(bd.joinFiltersOf[n])
	if len(filters) > 0 {
		bd.joinFiltersOf[n] = filters
	}
	op.Shared, op.Filters = shared, filters
	return bd.wrap(op), nil
}
