package parquet

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestRowFilterSteps checks rowFilter.apply, whose range steps merge the
// comparisons of a column, against a row-by-row reference written here:
// random conjunctions over columns with NULLs, NaN, ±Inf, -0 and the
// integer extremes, constants drawn from the same edge values.
func TestRowFilterSteps(t *testing.T) {
	const n = 600
	rng := rand.New(rand.NewPCG(1, 2))
	ints := []int64{math.MinInt64, math.MinInt64 + 1, -5, -1, 0, 1, 2, 5, 7, math.MaxInt64 - 1, math.MaxInt64}
	uints := []uint64{0, 1, 2, 5, 7, math.MaxUint64 - 1, math.MaxUint64, 1 << 63}
	nan := math.NaN()
	floats := []float64{math.Inf(-1), -math.MaxFloat64, -2.5, -0.0, 0, math.SmallestNonzeroFloat64, 1, 2.5, math.MaxFloat64, math.Inf(1), nan}

	vi := columnar.NewVector(columnar.TInt64, n)
	vu := columnar.NewVector(columnar.TUint64, n)
	vf := columnar.NewVector(columnar.TFloat64, n)
	vs := columnar.NewVector(columnar.TVarchar, n)
	words := []string{"a", "b", "bb", "c"}
	for i := range n {
		vi.Ints[i] = ints[rng.IntN(len(ints))]
		vu.Uints[i] = uints[rng.IntN(len(uints))]
		vf.Floats[i] = floats[rng.IntN(len(floats))]
		vs.Bytes[i] = []byte(words[rng.IntN(len(words))])
	}
	for _, v := range []*columnar.Vector{vi, vf} {
		for i := 0; i < n; i += 5 {
			v.SetNull(i, n)
		}
	}
	vecs := []*columnar.Vector{vi, vu, vf, vs}

	constant := func(col int) columnar.Value {
		switch col {
		case 0:
			return columnar.IntValue(columnar.TInt64, ints[rng.IntN(len(ints))])
		case 1:
			return columnar.UintValue(uints[rng.IntN(len(uints))])
		case 2:
			return columnar.FloatValue(columnar.TFloat64, floats[rng.IntN(len(floats))])
		}
		return columnar.StringValue(words[rng.IntN(len(words))])
	}
	ops := []index.Op{index.Eq, index.Ne, index.Lt, index.Le, index.Gt, index.Ge, index.Between, index.In, index.IsNull, index.IsNotNull}
	pred := func() index.Pred {
		col := rng.IntN(len(vecs))
		p := index.Pred{Col: col, Op: ops[rng.IntN(len(ops))]}
		switch p.Op {
		case index.Between:
			p.Vals = []columnar.Value{constant(col), constant(col)}
		case index.In:
			p.Vals = []columnar.Value{constant(col), constant(col), constant(col)}
		case index.IsNull, index.IsNotNull:
		default:
			p.Vals = []columnar.Value{constant(col)}
		}
		return p
	}

	var f rowFilter
	for iter := range 3000 {
		var preds []index.Pred
		for range 1 + rng.IntN(4) {
			// Mostly comparisons on one or two columns, so that ranges merge.
			preds = append(preds, pred())
		}
		if iter%7 == 0 {
			preds = append(preds, index.Pred{Op: index.Or, Any: []index.Pred{pred(), pred()}})
		}
		decoded := map[int]bool{}
		given := map[int]*columnar.Vector{}
		got, err := f.apply(preds, func(c int, sel []int) (*columnar.Vector, error) {
			// As the scan's vec: decoded once per batch, and where the
			// filter says only sel will be read, the other rows are garbage.
			decoded[c] = true
			if given[c] == nil {
				given[c] = poisonRows(vecs[c], sel, n)
			}
			return given[c], nil
		}, nil, n)
		if err != nil {
			t.Fatal(err)
		}
		var want []int
		for i := range n {
			ok := true
			for _, p := range preds {
				ok = ok && refHolds(p, vecs, i)
			}
			if ok {
				want = append(want, i)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: got %d rows %v…, want %d rows %v…", predsString(preds), len(got), head(got), len(want), head(want))
		}
	}
}

func head(s []int) []int { return s[:min(len(s), 8)] }

func predsString(preds []index.Pred) string {
	s := columnar.Schema{{Name: "i"}, {Name: "u"}, {Name: "f"}, {Name: "s"}}
	out := ""
	for k, p := range preds {
		if k > 0 {
			out += " AND "
		}
		out += p.String(s)
	}
	return fmt.Sprintf("%q", out)
}

// refHolds is p on row i, by the definition: NULL fails every comparison;
// floats order NaN above every number and equal to itself, -0 = +0.
func refHolds(p index.Pred, vecs []*columnar.Vector, i int) bool {
	if p.Op == index.Or {
		for _, q := range p.Any {
			if refHolds(q, vecs, i) {
				return true
			}
		}
		return false
	}
	v := vecs[p.Col]
	null := v.Valid != nil && !v.Valid.Get(i)
	switch p.Op {
	case index.IsNull:
		return null
	case index.IsNotNull:
		return !null
	}
	if null {
		return false
	}
	cmp := func(c columnar.Value) int {
		switch p.Col {
		case 0:
			return refCmp(v.Ints[i] < c.I, v.Ints[i] > c.I)
		case 1:
			return refCmp(v.Uints[i] < uint64(c.I), v.Uints[i] > uint64(c.I))
		case 2:
			a, b := v.Floats[i], c.F
			an, bn := a != a, b != b
			switch {
			case an && bn:
				return 0
			case an:
				return 1
			case bn:
				return -1
			}
			return refCmp(a < b, a > b)
		}
		a, b := string(v.Bytes[i]), c.S
		return refCmp(a < b, a > b)
	}
	switch p.Op {
	case index.Eq:
		return cmp(p.Vals[0]) == 0
	case index.Ne:
		return cmp(p.Vals[0]) != 0
	case index.Lt:
		return cmp(p.Vals[0]) < 0
	case index.Le:
		return cmp(p.Vals[0]) <= 0
	case index.Gt:
		return cmp(p.Vals[0]) > 0
	case index.Ge:
		return cmp(p.Vals[0]) >= 0
	case index.Between:
		return cmp(p.Vals[0]) >= 0 && cmp(p.Vals[1]) <= 0
	case index.In:
		for _, c := range p.Vals {
			if cmp(c) == 0 {
				return true
			}
		}
	}
	return false
}

func refCmp(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

// poisonRows returns a copy of v's n rows where only the rows in sel (all
// if nil) are right: the others hold values and NULLs that change what any
// predicate says about them.
func poisonRows(v *columnar.Vector, sel []int, n int) *columnar.Vector {
	if sel == nil {
		return v
	}
	out := columnar.NewVector(v.Type, n)
	keep := make([]bool, n)
	for _, i := range sel {
		keep[i] = true
	}
	for i := range n {
		if keep[i] {
			switch v.Type.Phys() {
			case columnar.PhysInt:
				out.Ints[i] = v.Ints[i]
			case columnar.PhysUint:
				out.Uints[i] = v.Uints[i]
			case columnar.PhysFloat:
				out.Floats[i] = v.Floats[i]
			case columnar.PhysBytes:
				out.Bytes[i] = v.Bytes[i]
			}
			if v.IsNull(i) {
				out.SetNull(i, n)
			}
			continue
		}
		switch v.Type.Phys() {
		case columnar.PhysInt:
			out.Ints[i] = math.MaxInt64 - int64(i%3)
		case columnar.PhysUint:
			out.Uints[i] = uint64(i % 3)
		case columnar.PhysFloat:
			out.Floats[i] = float64(i%3) - 1
		case columnar.PhysBytes:
			out.Bytes[i] = []byte("zz")
		}
		if !v.IsNull(i) && i%2 == 0 {
			out.SetNull(i, n)
		}
	}
	return out
}

// TestRowFilterLazyDecode: once no row is left, the remaining filter
// columns are not decoded.
func TestRowFilterLazyDecode(t *testing.T) {
	const n = 100
	a := columnar.NewVector(columnar.TInt64, n)
	b := columnar.NewVector(columnar.TInt64, n)
	for i := range n {
		a.Ints[i], b.Ints[i] = int64(i), int64(i)
	}
	var f rowFilter
	asked := map[int]int{}
	var bRows []int
	vec := func(c int, sel []int) (*columnar.Vector, error) {
		asked[c]++
		if c == 1 {
			bRows = append(bRows[:0], sel...)
		}
		return []*columnar.Vector{a, b}[c], nil
	}
	i64 := func(x int64) []columnar.Value { return []columnar.Value{columnar.IntValue(columnar.TInt64, x)} }
	// a > 200 leaves nothing: b is never decoded.
	got, _ := f.apply([]index.Pred{{Col: 0, Op: index.Gt, Vals: i64(200)}, {Col: 1, Op: index.Lt, Vals: i64(50)}}, vec, nil, n)
	if len(got) != 0 || asked[0] != 1 || asked[1] != 0 {
		t.Fatalf("got %v, columns asked %v", got, asked)
	}
	// a >= 10 AND b < 50 AND a < 20: a's two bounds are one step; rows 10..19.
	got, _ = f.apply([]index.Pred{{Col: 0, Op: index.Ge, Vals: i64(10)}, {Col: 1, Op: index.Lt, Vals: i64(50)}, {Col: 0, Op: index.Lt, Vals: i64(20)}}, vec, nil, n)
	if fmt.Sprint(got) != "[10 11 12 13 14 15 16 17 18 19]" {
		t.Fatalf("got %v", got)
	}
	if steps := len(f.steps); steps != 2 {
		t.Fatalf("%d steps, want 2 (a's bounds merged)", steps)
	}
	// b is asked for the rows a kept, which are all later steps read.
	if fmt.Sprint(bRows) != "[10 11 12 13 14 15 16 17 18 19]" {
		t.Fatalf("b decoded for rows %v", bRows)
	}
}
