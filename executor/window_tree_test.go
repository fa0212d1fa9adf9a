package executor

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestFrameTreeRandom checks sliding and excluding frames of count, sum,
// avg, min and max (computed by frameTree), and first_value, last_value
// and nth_value (frameRow), against the definitions: for
// each row, the frame's rows are picked one by one by the ROWS / GROUPS /
// RANGE rule and the EXCLUDE rule, then aggregated with plain arithmetic.
func TestFrameTreeRandom(t *testing.T) {
	seed := uint64(7)
	rng := rand.New(rand.NewPCG(seed, 2))
	names := []string{"count", "count_star", "sum", "avg", "min", "max", "first_value", "last_value", "nth_value", "arg_max", "arg_min"}
	for trial := range 600 {
		m := rng.IntN(40) + 1
		key, val, keys, vals := randomPartition(rng, m, 21) // window_slide_test.go
		by := columnar.NewVector(columnar.TInt64, m)        // arg_max's val: few values, many ties, NULLs
		bys := make([]*int64, m)
		for i := range m {
			if rng.IntN(5) == 0 {
				by.SetValue(i, m, columnar.NullValue(columnar.TInt64))
				continue
			}
			y := int64(rng.IntN(4))
			bys[i] = &y
			by.SetValue(i, m, columnar.IntValue(columnar.TInt64, y))
		}
		fr := WindowFrame{Start: int64(rng.IntN(7) - 4), End: int64(rng.IntN(7) - 2), Exclude: FrameExclude(rng.IntN(4))}
		switch rng.IntN(3) {
		case 0:
			fr.Rows = true
		case 1:
			fr.Groups = true
		default: // RANGE with peer bounds: BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING, say
		}
		fr.StartUnbounded = !fr.Rows && !fr.Groups && rng.IntN(2) == 0
		fr.EndUnbounded = rng.IntN(4) == 0
		name := names[rng.IntN(len(names))]
		typ := columnar.TInt64
		if name == "avg" {
			typ = columnar.TFloat64
		}
		f := &WindowFunc{Name: name, Order: []SortKey{{Expr: ColumnExpr(0, columnar.TInt64)}}, Frame: fr, Type: typ, Offset: int64(rng.IntN(3) + 1)}
		vecs := []*columnar.Vector{key}
		if name != "count_star" {
			f.Args = []Expr{ColumnExpr(1, columnar.TInt64)}
			vecs = append(vecs, val)
		}
		if name == "arg_max" || name == "arg_min" {
			f.Args = append(f.Args, ColumnExpr(2, columnar.TInt64))
			vecs = append(vecs, by)
		}
		got, err := computeWindow(f, vecs, m)
		if err != nil {
			t.Fatal(err)
		}
		// group[i]: the peer group of row i (keys are sorted).
		group := peerGroups(keys)
		for i := range m {
			var n, sum int64
			var best *int64
			var frame []*int64                              // the frame's values, in order
			bestBy, bestArg := (*int64)(nil), (*int64)(nil) // arg_max/arg_min: the first row of the best val
			rowsIn := 0
			for j := range m {
				in := true
				switch {
				case fr.Rows:
					in = (fr.StartUnbounded || j >= i+int(fr.Start)) && (fr.EndUnbounded || j <= i+int(fr.End))
				case fr.Groups:
					in = (fr.StartUnbounded || group[j] >= group[i]+int(fr.Start)) && (fr.EndUnbounded || group[j] <= group[i]+int(fr.End))
				default: // RANGE without offsets: bounded ends are the current row's peers
					in = (fr.StartUnbounded || keys[j] >= keys[i]) && (fr.EndUnbounded || keys[j] <= keys[i])
				}
				switch fr.Exclude {
				case ExcludeCurrentRow:
					in = in && j != i
				case ExcludeGroup:
					in = in && keys[j] != keys[i]
				case ExcludeTies:
					in = in && (j == i || keys[j] != keys[i])
				}
				if !in {
					continue
				}
				rowsIn++
				frame = append(frame, vals[j])
				// arg_max/arg_min skip rows whose val or arg is NULL (DuckDB 1.x)
				if y := bys[j]; y != nil && vals[j] != nil && (bestBy == nil || (name == "arg_max" && *y > *bestBy) || (name == "arg_min" && *y < *bestBy)) {
					bestBy, bestArg = y, vals[j]
				}
				if vals[j] == nil {
					continue
				}
				x := *vals[j]
				n++
				sum += x
				if best == nil || (name == "min" && x < *best) || (name == "max" && x > *best) {
					best = &x
				}
			}
			var want string
			switch name {
			case "count":
				want = fmt.Sprint(n)
			case "count_star":
				want = fmt.Sprint(rowsIn)
			case "sum":
				want = "NULL"
				if n > 0 {
					want = fmt.Sprint(sum)
				}
			case "avg":
				want = "NULL"
				if n > 0 {
					want = columnar.FloatValue(columnar.TFloat64, float64(sum)/float64(n)).String()
				}
			case "arg_max", "arg_min":
				want = "NULL"
				if bestArg != nil {
					want = fmt.Sprint(*bestArg)
				}
			case "min", "max":
				want = "NULL"
				if best != nil {
					want = fmt.Sprint(*best)
				}
			default: // first_value, last_value, nth_value: one row of the frame
				at := map[string]int{"first_value": 0, "last_value": len(frame) - 1, "nth_value": int(f.Offset) - 1}[name]
				want = "NULL"
				if at >= 0 && at < len(frame) && frame[at] != nil {
					want = fmt.Sprint(*frame[at])
				}
			}
			if g := got[i].String(); g != want {
				t.Fatalf("seed %d trial %d: %s over %+v, row %d of keys %v vals %v: got %s, want %s", seed, trial, name, fr, i, keys, val, g, want)
			}
		}
	}
}
