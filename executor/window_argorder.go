package executor

import (
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// argOrderPartition fills res for the rows of one partition (in window
// order) of f, an aggregate with its own ORDER BY: each row's frame is
// taken in the argument order (stable: ties keep window order) and fed to
// a windowAcc. A row whose frame is the previous row's (the whole
// partition, or peers under the default RANGE frame) reuses its value, so
// an unordered OVER sorts its partition once.
func argOrderPartition(f *WindowFunc, rows []int32, ord, args, argOrd []*columnar.Vector, ra *rowArgs, res []columnar.Value) {
	if rankingFuncs[f.Name] {
		argRankPartition(f, rows, ord, args, argOrd, ra, res) // window_argrank.go
		return
	}
	m := len(rows)
	peerStart, peerEnd := peerBounds(f, ord, rows)
	fb := newFrameBounds(f, ord, rows, peerStart, peerEnd, ra)
	acc := newWindowAcc(f)
	frame := make([]int, 0, m)
	byArgs := func(a, b int) int { return compareRows(argOrd, f.ArgOrder, int(rows[a]), int(rows[b])) }
	lastS, lastE := -1, -1
	var last columnar.Value
	for i := range m {
		s, e := fb.bounds(i)
		if s == lastS && e == lastE && f.Frame.Exclude == ExcludeNoOthers && ra.offset == nil {
			res[rows[i]] = last
			continue
		}
		if f.Name == "nth_value" {
			k, ok := ra.offsetAt(f, rows[i]) // per row (window_rowargs.go)
			if !ok || k <= 0 {
				res[rows[i]], lastS = columnar.NullValue(f.Type), -1
				continue
			}
			acc.nth = k
		}
		frame = frame[:0]
		for k := s; k < e; k++ {
			if !fb.excluded(i, k) {
				frame = append(frame, k)
			}
		}
		slices.SortStableFunc(frame, byArgs)
		acc.reset()
		for _, k := range frame {
			if f.Name == "last_value" && !f.IgnoreNulls {
				acc.reset()
			}
			var v, val columnar.Value
			if len(args) > 0 {
				v = args[0].Value(int(rows[k]))
			}
			if len(args) > 1 {
				val = args[1].Value(int(rows[k]))
			}
			acc.add(v, val)
		}
		last, lastS, lastE = acc.result(f.Type), s, e
		res[rows[i]] = last
	}
}
