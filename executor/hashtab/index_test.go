package hashtab

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestMapIndex: an Index over keys that are not all integers (a string;
// a string and an integer; a float) returns, for each probe row, exactly
// the build rows with an equal key, in build order, never for a NULL key,
// with the build added in batches of 1, 2, 7 and 1024 (selections hiding
// a poison row) and probed plain and dictionary-coded, by two Finders.
func TestMapIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		name  string
		types []columnar.Type
		row   func(i int) []columnar.Value
	}{
		{"string", []columnar.Type{columnar.TVarchar}, func(i int) []columnar.Value {
			if i%13 == 0 {
				return []columnar.Value{null(columnar.TVarchar)}
			}
			return []columnar.Value{str(fmt.Sprint("key-", rng.IntN(200)))}
		}},
		{"string+int", []columnar.Type{columnar.TVarchar, columnar.TInt64}, func(i int) []columnar.Value {
			k := i64(int64(rng.IntN(3)))
			if i%11 == 0 {
				k = null(columnar.TInt64)
			}
			return []columnar.Value{str(fmt.Sprint("a much longer key than sixteen bytes ", rng.IntN(50))), k}
		}},
		{"float", []columnar.Type{columnar.TFloat64}, func(i int) []columnar.Value {
			return []columnar.Value{f64(float64(rng.IntN(40)) - 20)}
		}},
	} {
		build := make([][]columnar.Value, 3000)
		for i := range build {
			build[i] = tc.row(i)
		}
		probe := make([][]columnar.Value, 500)
		for i := range probe {
			probe[i] = tc.row(i + 1)
		}
		probe = append(probe, tc.row(0)) // a NULL key where the shape has one
		// Reference: key -> build rows, in order; NULL keys match nothing.
		ref := map[string][]int32{}
		for r, row := range build {
			if !slices.ContainsFunc(row, func(v columnar.Value) bool { return v.Null }) {
				ref[refKey(row)] = append(ref[refKey(row)], int32(r))
			}
		}
		for _, n := range batchSizes {
			for _, coded := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/batch=%d/coded=%v", tc.name, n, coded), func(t *testing.T) {
					var codedCols []bool
					if coded {
						codedCols = make([]bool, len(tc.types))
						for c, ty := range tc.types {
							codedCols[c] = ty.Phys() == columnar.PhysBytes
						}
					}
					x := NewIndex(tc.types)
					base := int32(0)
					for off, batch := 0, 0; off < len(build); off, batch = off+n, batch+1 {
						chunk := build[off:min(off+n, len(build))]
						b := batchOf(tc.types, chunk, batch%2 == 1, codedCols)
						x.Add(b, b.Cols, base)
						base += int32(b.Live())
					}
					x.Finish()
					for _, sc := range []*ProbeScratch{{}, {}} {
						b := batchOf(tc.types, probe, false, codedCols)
						rows := make([]int, b.Len)
						for i := range rows {
							rows[i] = i
						}
						lnull := make([]bool, b.Len)
						pl, pr := x.Probe(b.Cols, rows, lnull, nil, nil, sc)
						got := map[int][]int32{}
						for k, l := range pl {
							got[int(l)] = append(got[int(l)], pr[k])
						}
						for k, row := range probe {
							null := slices.ContainsFunc(row, func(v columnar.Value) bool { return v.Null })
							if lnull[k] != null {
								t.Fatalf("probe row %d %v: lnull %v", k, row, lnull[k])
							}
							if want := ref[refKey(row)]; !null && !slices.Equal(got[k], want) {
								t.Fatalf("probe row %d %v: rows %v, want %v", k, row, got[k], want)
							}
							if null && len(got[k]) > 0 {
								t.Fatalf("NULL probe row %d matched %v", k, got[k])
							}
						}
					}
					if x.Bytes() <= 0 {
						t.Fatalf("Bytes %d", x.Bytes())
					}
					most := 0
					for _, rs := range ref {
						most = max(most, len(rs))
					}
					if x.MaxMatches() != most {
						t.Fatalf("MaxMatches %d, want %d", x.MaxMatches(), most)
					}
				})
			}
		}
	}
}
