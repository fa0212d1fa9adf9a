package columnar

import (
	"errors"
	"math"
)

// GeometryExtent is a geometry's bounding box in x and y: the smallest
// and largest coordinates of its points. N counts the points (0 for an
// empty geometry, whose box is +Inf..-Inf).
type GeometryExtent struct {
	MinX, MinY, MaxX, MaxY float64
	N                      int
}

// WKBExtent is the extent of the WKB geometry wkb, as DuckDB 1.5 computes
// it: a POINT EMPTY has no point, and a NaN coordinate makes its side of
// the box NaN (which then compares with nothing).
func WKBExtent(wkb []byte) (GeometryExtent, error) {
	e := GeometryExtent{MinX: math.Inf(1), MinY: math.Inf(1), MaxX: math.Inf(-1), MaxY: math.Inf(-1)}
	lo := func(cur, v float64) float64 {
		if cur < v {
			return cur
		}
		return v
	}
	hi := func(cur, v float64) float64 {
		if cur > v {
			return cur
		}
		return v
	}
	r := &wkbReader{b: wkb, vertex: func(x, y float64, empty bool) {
		if empty {
			return
		}
		e.N++
		e.MinX, e.MinY, e.MaxX, e.MaxY = lo(e.MinX, x), lo(e.MinY, y), hi(e.MaxX, x), hi(e.MaxY, y)
	}}
	_, err := r.rewrite(nil, 0)
	if err == nil && r.pos != len(wkb) {
		err = r.fail(errors.New("trailing bytes"))
	}
	return e, err
}

// IntersectsXY reports whether two extents with points overlap (edges
// touching count), DuckDB's st_intersects_extent and GEOMETRY's &&.
func (e GeometryExtent) IntersectsXY(o GeometryExtent) bool {
	if e.N == 0 || o.N == 0 {
		return false
	}
	return !(e.MinX > o.MaxX || e.MaxX < o.MinX || e.MinY > o.MaxY || e.MaxY < o.MinY)
}
