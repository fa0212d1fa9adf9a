package planner

// orientOuter returns outer join j with its inputs swapped (LEFT becomes
// RIGHT and RIGHT becomes LEFT; FULL stays FULL) when its left input is
// estimated smaller than its right: a hash join builds its right input,
// so the smaller side is then hashed and the larger streams through it, in
// a parallel pipeline when it can (the probing copies of a RIGHT or FULL
// join share one build and merge their marks, executor.JoinBuild). TPC-H
// Q13's customer LEFT JOIN orders hashes 150K customers instead of 1.5M
// orders. A join that reads its probe side first (joinfilter_probe.go)
// keeps its orientation, which is what lets it filter its build side.
// Column positions change, never column IDs, so parents are unaffected.
func orientOuter(j *Join) *Join {
	switch j.Kind {
	case JoinLeft, JoinRight, JoinFull:
	default:
		return j
	}
	if len(j.EquiKeys) == 0 || probeFirst(j) || !smaller(j.Left, j.Right) {
		return j
	}
	s := &Join{Left: j.Right, Right: j.Left, Kind: j.Kind, Cond: j.Cond}
	switch j.Kind {
	case JoinLeft:
		s.Kind = JoinRight
	case JoinRight:
		s.Kind = JoinLeft
	}
	for _, k := range j.EquiKeys {
		s.EquiKeys = append(s.EquiKeys, EquiKey{L: k.R, R: k.L})
	}
	return s
}
