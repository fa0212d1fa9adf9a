package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// lttb(x, y, n) downsamples a series to at most n points by Largest
// Triangle Three Buckets (Steinarsson, 2013), as DuckDB: the binder (sql
// bind_agg_lttb.go) collects the group's points, in input order (ORDER BY
// inside the call orders them), and lttb_sample picks them:
//
//	lttb_sample(points, n)   LIST(STRUCT(x, y))   points: the LIST of STRUCT(x, y); NULL when no point has both
//
// Points with a NULL x or y are dropped. With n at least the points' count
// every point is kept; otherwise the first and the last are, and the
// points between are cut into n-2 buckets of equal length (fractional),
// each giving the point that makes the largest triangle with the point
// picked before it and the average of the next bucket. x counts by its
// distance from the first point's x (for timestamps, in their unit, exact
// before the conversion to DOUBLE), so the choice does not move when the
// axis does.
func init() {
	function.Register(internalRows("aggregate", "lttb_sample", "the points lttb(x, y, n) keeps", fnLttbSample))
}

func fnLttbSample(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	n := a[1].I
	pts := make([]columnar.Value, 0, len(a[0].Elems))
	for _, p := range a[0].Elems {
		if !p.Null && !p.Elems[0].Null && !p.Elems[1].Null {
			pts = append(pts, p)
		}
	}
	if len(pts) == 0 {
		return columnar.NullValue(t), nil
	}
	if int64(len(pts)) <= n {
		return columnar.Value{Type: t, Elems: pts}, nil
	}
	xs, ys := make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		xs[i], ys[i] = lttbX(p.Elems[0], pts[0].Elems[0]), p.Elems[1].F
	}
	return columnar.Value{Type: t, Elems: lttbPick(pts, xs, ys, int(n))}, nil
}

// lttbX is x's distance from x0 as a DOUBLE.
func lttbX(x, x0 columnar.Value) float64 {
	if x.Type.Phys() == columnar.PhysFloat {
		return x.F - x0.F
	}
	return float64(x.I - x0.I)
}

// lttbPick returns the n of pts (len(pts) > n ≥ 2) LTTB keeps, at
// coordinates xs, ys.
func lttbPick(pts []columnar.Value, xs, ys []float64, n int) []columnar.Value {
	last := len(pts) - 1
	out := make([]columnar.Value, 0, n)
	out = append(out, pts[0])
	every := float64(len(pts)-2) / float64(n-2)
	a := 0
	for i := 0; i < n-2; i++ {
		// the average of the next bucket (the last point for the last one)
		lo, hi := int(math.Floor(float64(i+1)*every))+1, min(int(math.Floor(float64(i+2)*every))+1, len(pts))
		var ax, ay float64
		for k := lo; k < hi; k++ {
			ax += xs[k]
			ay += ys[k]
		}
		if hi > lo {
			ax, ay = ax/float64(hi-lo), ay/float64(hi-lo)
		}
		// the point of this bucket with the largest triangle (the first on a tie)
		from, to := int(math.Floor(float64(i)*every))+1, min(int(math.Floor(float64(i+1)*every))+1, last)
		best, bestArea := from, -1.0
		for k := from; k < to; k++ {
			area := math.Abs((xs[a]-ax)*(ys[k]-ys[a]) - (xs[a]-xs[k])*(ay-ys[a]))
			if area > bestArea {
				best, bestArea = k, area
			}
		}
		out = append(out, pts[best])
		a = best
	}
	return append(out, pts[last])
}
