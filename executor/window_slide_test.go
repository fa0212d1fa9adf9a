package executor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestFrameSlidersRandom checks the functions whose frames are slid
// (window_slide.go) or kept in the segment tree's moments (variances)
// against their definitions: for each row the frame's values are picked
// by the ROWS / GROUPS / RANGE rule, then aggregated directly (sorted for
// quantiles, a set for DISTINCT, counts for mode, two passes for
// variances).
func TestFrameSlidersRandom(t *testing.T) {
	seed := uint64(11)
	rng := rand.New(rand.NewPCG(seed, 3))
	names := []string{"median", "quantile_cont", "quantile_disc", "count", "sum", "avg", "mode", "var_samp", "var_pop", "stddev_samp", "stddev_pop"}
	for trial := range 800 {
		m := rng.IntN(60) + 1
		key, val, keys, vals := randomPartition(rng, m, 9) // few values: ties and repeats
		name := names[rng.IntN(len(names))]
		fr := WindowFrame{Start: int64(rng.IntN(7) - 4), End: int64(rng.IntN(7) - 2)}
		switch rng.IntN(3) {
		case 0:
			fr.Rows = true
		case 1:
			fr.Groups = true
		}
		fr.StartUnbounded = name == "mode" || rng.IntN(3) == 0
		fr.EndUnbounded = rng.IntN(5) == 0
		distinct := name == "count" || name == "sum" || name == "avg"
		typ, q := columnar.TFloat64, 0.5
		switch name {
		case "quantile_cont":
			q = float64(rng.IntN(5)) / 4
		case "quantile_disc":
			q, typ = float64(rng.IntN(5))/4, columnar.TInt64
		case "count", "sum", "mode":
			typ = columnar.TInt64
		}
		f := &WindowFunc{Name: name, Order: []SortKey{{Expr: ColumnExpr(0, columnar.TInt64)}}, Frame: fr, Type: typ,
			Args: []Expr{ColumnExpr(1, columnar.TInt64)}, Distinct: distinct, Param: columnar.FloatValue(columnar.TFloat64, q)}
		got, err := computeWindow(f, []*columnar.Vector{key, val}, m)
		if err != nil {
			t.Fatal(err)
		}
		group := peerGroups(keys)
		for i := range m {
			var frame []int64 // the frame's non-NULL values, in order
			for j := range m {
				var in bool
				switch {
				case fr.Rows:
					in = (fr.StartUnbounded || j >= i+int(fr.Start)) && (fr.EndUnbounded || j <= i+int(fr.End))
				case fr.Groups:
					in = (fr.StartUnbounded || group[j] >= group[i]+int(fr.Start)) && (fr.EndUnbounded || group[j] <= group[i]+int(fr.End))
				default: // RANGE without offsets: bounded ends are the current row's peers
					in = (fr.StartUnbounded || keys[j] >= keys[i]) && (fr.EndUnbounded || keys[j] <= keys[i])
				}
				if in && vals[j] != nil {
					frame = append(frame, *vals[j])
				}
			}
			want, wantF := "NULL", math.NaN()
			if name == "count" {
				want = "0" // of an empty frame; NULL for the others
			}
			if len(frame) > 0 {
				want, wantF = definition(name, frame, q)
			}
			g := got[i]
			ok := g.String() == want
			if !math.IsNaN(wantF) && !g.Null {
				ok = math.Abs(g.F-wantF) <= 1e-9*math.Max(1, math.Abs(wantF))
			}
			if !ok {
				t.Fatalf("seed %d trial %d: %s over %+v, row %d of keys %v vals %v: got %s, want %s", seed, trial, name, fr, i, keys, val, g, want)
			}
		}
	}
}

// randomPartition makes a sorted BIGINT key column of m rows with peers
// (each key repeats the previous one half the time) and a BIGINT value
// column, NULL one row in four, else uniform over span values centered on
// 0; keys and vals are the same as Go values (nil for NULL).
func randomPartition(rng *rand.Rand, m, span int) (key, val *columnar.Vector, keys []int64, vals []*int64) {
	key = columnar.NewVector(columnar.TInt64, m)
	val = columnar.NewVector(columnar.TInt64, m)
	keys, vals = make([]int64, m), make([]*int64, m)
	k := int64(0)
	for i := range m {
		k += int64(rng.IntN(2))
		keys[i] = k
		key.SetValue(i, m, columnar.IntValue(columnar.TInt64, k))
		if rng.IntN(4) == 0 {
			val.SetValue(i, m, columnar.NullValue(columnar.TInt64))
			continue
		}
		x := int64(rng.IntN(span) - span/2)
		vals[i] = &x
		val.SetValue(i, m, columnar.IntValue(columnar.TInt64, x))
	}
	return key, val, keys, vals
}

// peerGroups numbers the peer groups of sorted keys: group[i] is row i's.
func peerGroups(keys []int64) []int {
	group := make([]int, len(keys))
	for i := 1; i < len(keys); i++ {
		group[i] = group[i-1]
		if keys[i] != keys[i-1] {
			group[i]++
		}
	}
	return group
}

// definition computes name over a frame's non-NULL values (at least one):
// the exact text of an integer result, or NaN text and the float result.
func definition(name string, frame []int64, q float64) (string, float64) {
	sorted := slices.Clone(frame)
	slices.Sort(sorted)
	n := len(sorted)
	switch name {
	case "median", "quantile_cont":
		p := q * float64(n-1)
		lo, hi := int(math.Floor(p)), int(math.Ceil(p))
		return "", float64(sorted[lo]) + (p-float64(lo))*float64(sorted[hi]-sorted[lo])
	case "quantile_disc":
		// The value of rank ⌈n·q⌉-1 (the first value for q = 0).
		r := int(math.Ceil(float64(n)*q)) - 1
		return fmt.Sprint(sorted[max(r, 0)]), math.NaN()
	case "count", "sum", "avg":
		set := slices.Compact(sorted)
		var s int64
		for _, x := range set {
			s += x
		}
		switch name {
		case "count":
			return fmt.Sprint(len(set)), math.NaN()
		case "sum":
			return fmt.Sprint(s), math.NaN()
		}
		return "", float64(s) / float64(len(set))
	case "mode":
		counts := map[int64]int{}
		top := 0
		for _, x := range frame {
			counts[x]++
			top = max(top, counts[x])
		}
		for _, x := range frame { // the first in frame order with the top count
			if counts[x] == top {
				return fmt.Sprint(x), math.NaN()
			}
		}
	}
	// Variances: two passes.
	sample := name == "var_samp" || name == "stddev_samp"
	if sample && n < 2 {
		return "NULL", math.NaN()
	}
	var sum float64
	for _, x := range frame {
		sum += float64(x)
	}
	mean := sum / float64(n)
	var m2 float64
	for _, x := range frame {
		m2 += (float64(x) - mean) * (float64(x) - mean)
	}
	d := float64(n)
	if sample {
		d--
	}
	v := m2 / d
	if name == "stddev_samp" || name == "stddev_pop" {
		v = math.Sqrt(v)
	}
	return "", v
}
