package executor

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
)

// FrameExclude is a frame's EXCLUDE clause: which rows around the current
// one leave its frame after the bounds are applied (SQL:2011, DuckDB).
type FrameExclude uint8

const (
	ExcludeNoOthers   FrameExclude = iota // EXCLUDE NO OTHERS, the default: nothing
	ExcludeCurrentRow                     // EXCLUDE CURRENT ROW: the current row
	ExcludeGroup                          // EXCLUDE GROUP: the current row and its peers
	ExcludeTies                           // EXCLUDE TIES: the current row's peers, not the row itself
)

// frameBounds locates the frame of every row of one sorted partition of m
// rows. peerStart[i] and peerEnd[i] are row i's first peer and one past
// its last; rk holds the ORDER BY key positions of a RANGE frame with an
// offset; groupStart lists the first row of every peer group, then m, for
// a GROUPS frame (group[i] is row i's group).
type frameBounds struct {
	fr                 WindowFrame
	m                  int
	peerStart, peerEnd []int
	rk                 *rangeKeys
	group, groupStart  []int
	// rows and the per-row start and end offsets (nil: Frame's
	// constants), window_rowargs.go.
	rows       []int32
	start, end *columnar.Vector
}

func newFrameBounds(f *WindowFunc, ord []*columnar.Vector, rows []int32, peerStart, peerEnd []int, ra *rowArgs) *frameBounds {
	fb := &frameBounds{fr: f.Frame, m: len(rows), peerStart: peerStart, peerEnd: peerEnd, rows: rows}
	if ra != nil {
		fb.start, fb.end = ra.start, ra.end
	}
	if f.Frame.StartRange || f.Frame.EndRange {
		fb.rk = newRangeKeys(ord[0], f.Order[0], rows)
	}
	if f.Frame.Groups {
		fb.group = make([]int, fb.m)
		for i := range fb.m {
			if peerStart[i] == i {
				fb.groupStart = append(fb.groupStart, i)
			}
			fb.group[i] = len(fb.groupStart) - 1
		}
		fb.groupStart = append(fb.groupStart, fb.m)
	}
	return fb
}

// bounds returns row i's frame [s, e) before exclusion, within [0, m];
// s >= e is empty.
func (fb *frameBounds) bounds(i int) (int, int) {
	fr := fb.fr
	s, e := 0, fb.m
	if !fr.StartUnbounded {
		switch {
		case fr.Rows:
			s = offsetRow(i, fb.offset(fb.start, fr.Start, i), fb.m)
		case fr.Groups:
			s = fb.groupRow(offsetRow(fb.group[i], fb.offset(fb.start, fr.Start, i), len(fb.groupStart)))
		case fr.StartRange:
			s = fb.rk.start(i, fb.dist(fb.start, fr.StartDist, i), fb.peerStart[i])
		default:
			s = fb.peerStart[i]
		}
	}
	if !fr.EndUnbounded {
		switch {
		case fr.Rows:
			e = offsetRow(i, fb.offset(fb.end, fr.End, i), fb.m) + 1
		case fr.Groups:
			e = fb.groupRow(offsetRow(fb.group[i], fb.offset(fb.end, fr.End, i), len(fb.groupStart)) + 1)
		case fr.EndRange:
			e = fb.rk.end(i, fb.dist(fb.end, fr.EndDist, i), fb.peerEnd[i])
		default:
			e = fb.peerEnd[i]
		}
	}
	return min(max(s, 0), fb.m), max(min(e, fb.m), 0)
}

// offset is a ROWS or GROUPS bound's offset for row i: the constant k, or
// row i's value of v, whose sign k then is.
func (fb *frameBounds) offset(v *columnar.Vector, k int64, i int) int64 {
	if v == nil {
		return k
	}
	return frameOffset(v, k, fb.rows[i])
}

// dist is a RANGE bound's distance for row i, as offset.
func (fb *frameBounds) dist(v *columnar.Vector, d float64, i int) float64 {
	if v == nil {
		return d
	}
	return rangeDist(v, d, fb.rows[i])
}

// groupRow returns the first row of peer group g, clamped to the
// partition: 0 before the first group, m after the last.
func (fb *frameBounds) groupRow(g int) int {
	switch {
	case g < 0:
		return 0
	case g >= len(fb.groupStart):
		return fb.m
	}
	return fb.groupStart[g]
}

// excluded reports whether row k of row i's frame is taken out by the
// frame's EXCLUDE clause.
func (fb *frameBounds) excluded(i, k int) bool {
	switch fb.fr.Exclude {
	case ExcludeCurrentRow:
		return k == i
	case ExcludeGroup:
		return k >= fb.peerStart[i] && k < fb.peerEnd[i]
	case ExcludeTies:
		return k != i && k >= fb.peerStart[i] && k < fb.peerEnd[i]
	}
	return false
}

// rankingFuncs ignore the frame: their value depends on the partition and
// the order only.
var rankingFuncs = map[string]bool{"row_number": true, "rank": true, "dense_rank": true, "ntile": true,
	"lag": true, "lead": true, "percent_rank": true, "cume_dist": true}

// String renders a frame for EXPLAIN as SQL, or "" for the default frame
// (RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, or the whole
// partition).
func (fr WindowFrame) String() string { return fr.render(false, false) }

// frameString is f's frame for EXPLAIN; a bound computed per row
// (window_rowargs.go) shows as "expr PRECEDING" or "expr FOLLOWING".
func (f *WindowFunc) frameString() string { return f.Frame.render(f.RowArgs.Start, f.RowArgs.End) }

// render is String, with the start or end offset computed per row.
func (fr WindowFrame) render(startRow, endRow bool) string {
	unit := "RANGE"
	switch {
	case fr.Rows:
		unit = "ROWS"
	case fr.Groups:
		unit = "GROUPS"
	}
	if unit == "RANGE" && fr.StartUnbounded && !fr.StartRange && !fr.EndRange && fr.Exclude == ExcludeNoOthers {
		return "" // the default frame, with or without ORDER BY
	}
	bound := func(unbounded, isRange bool, off int64, dist float64, start bool) string {
		switch {
		case (start && startRow || !start && endRow) && off+int64(dist) < 0:
			return "expr PRECEDING"
		case start && startRow || !start && endRow:
			return "expr FOLLOWING"
		case unbounded && start:
			return "UNBOUNDED PRECEDING"
		case unbounded:
			return "UNBOUNDED FOLLOWING"
		case unit == "RANGE" && !isRange:
			return "CURRENT ROW"
		case unit == "RANGE":
			if dist < 0 {
				return fmt.Sprintf("%g PRECEDING", -dist)
			}
			return fmt.Sprintf("%g FOLLOWING", dist)
		case off < 0:
			return fmt.Sprintf("%d PRECEDING", -off)
		case off > 0:
			return fmt.Sprintf("%d FOLLOWING", off)
		}
		return "CURRENT ROW"
	}
	s := fmt.Sprintf("%s BETWEEN %s AND %s", unit, bound(fr.StartUnbounded, fr.StartRange, fr.Start, fr.StartDist, true),
		bound(fr.EndUnbounded, fr.EndRange, fr.End, fr.EndDist, false))
	if ex := [...]string{"", " EXCLUDE CURRENT ROW", " EXCLUDE GROUP", " EXCLUDE TIES"}; int(fr.Exclude) < len(ex) {
		s += ex[fr.Exclude]
	}
	return s
}
