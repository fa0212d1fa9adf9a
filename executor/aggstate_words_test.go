package executor

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestUpdateSumFloatWords checks the grouped float sum that reads NULLs
// from validity words against sums worked out by formula: 200 rows (three
// full words and a partial one), row i in group i%3 with value i+0.5,
// NULL where i%7 == 0 and every row of the second word (64..127) NULL
// except 100.
func TestUpdateSumFloatWords(t *testing.T) {
	const n = 200
	in := make([]float64, n)
	gids := make([]int32, n)
	valid := columnar.NewBitmap(n)
	for i := range in {
		in[i], gids[i] = float64(i)+0.5, int32(i%3)
		if i%7 == 0 || i >= 64 && i < 128 && i != 100 {
			valid.Clear(i)
		}
	}
	var want [3]float64
	var wantN [3]int64
	for i := 0; i < n; i++ {
		if i%7 != 0 && (i < 64 || i >= 128 || i == 100) {
			want[i%3] += float64(i) + 0.5
			wantN[i%3]++
		}
	}
	vals, comp, counts := make([]float64, 3), make([]float64, 3), make([]int64, 3)
	updateSumFloatWords(vals, comp, counts, in, gids, valid, n)
	for g := range 3 {
		if vals[g]+comp[g] != want[g] || counts[g] != wantN[g] {
			t.Errorf("group %d: sum %v count %d, want %v %d", g, vals[g]+comp[g], counts[g], want[g], wantN[g])
		}
	}

	// The rounding error is kept: 1e16 + 1 + 1 - 1e16 is 2, where plain
	// float addition gives 0 (1e16+1 rounds back to 1e16).
	in = []float64{1e16, 1, 1, -1e16}
	gids = []int32{0, 0, 0, 0}
	vals, comp, counts = make([]float64, 1), make([]float64, 1), make([]int64, 1)
	updateSumFloatWords(vals, comp, counts, in, gids, columnar.NewBitmap(4), 4)
	if got := vals[0] + comp[0]; got != 2 || counts[0] != 4 {
		t.Errorf("compensated sum %v count %d, want 2 and 4", got, counts[0])
	}
}
