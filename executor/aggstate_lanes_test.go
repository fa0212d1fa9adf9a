package executor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// laneInput is n rows over ng groups, every 7th row left out of sel.
func laneInput(n, ng int, big bool) (in []int64, gids []int32, sel []int) {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	for i := range n {
		x := rng.Int64N(2000) - 1000
		if big {
			x = math.MaxInt64/3 - rng.Int64N(1000)
		}
		in = append(in, x)
		gids = append(gids, int32(rng.IntN(ng)))
		if i%7 != 3 {
			sel = append(sel, i)
		}
	}
	return in, gids, sel
}

// TestLaneKernels: the lane kernels give the plain loops' sums and counts,
// with and without a selection, at lengths that leave every tail.
func TestLaneKernels(t *testing.T) {
	for _, ng := range []int{1, 3, fewGroups} {
		for _, n := range []int{0, 1, 5, 8, 2049} {
			in, gids, sel := laneInput(n, ng, false)
			for _, s := range [][]int{nil, sel} {
				want, wantC := make([]int64, ng), make([]int64, ng)
				rows := s
				if rows == nil {
					rows = make([]int, n)
					for i := range rows {
						rows[i] = i
					}
				}
				for _, i := range rows {
					want[gids[i]] += in[i]
					wantC[gids[i]]++
				}
				vals, counts := make([]int64, ng), make([]int64, ng)
				if !sumIntsLanes(vals, counts, in, gids, s, n) {
					t.Fatalf("ng=%d n=%d: overflow reported", ng, n)
				}
				cnt := make([]int64, ng)
				countRowsLanes(cnt, gids, s, n)
				if !slices.Equal(vals, want) || !slices.Equal(counts, wantC) || !slices.Equal(cnt, wantC) {
					t.Fatalf("ng=%d n=%d sel=%v: sums %v counts %v %v, want %v %v", ng, n, s != nil, vals, counts, cnt, want, wantC)
				}
			}
		}
	}
}

// TestLaneOverflow: sums past int64 report false, and unsumInts restores
// the state exactly (updateWideSum's move to 128 bits relies on it).
func TestLaneOverflow(t *testing.T) {
	in, gids, _ := laneInput(64, 2, true)
	vals, counts := []int64{5, -7}, []int64{1, 2}
	if sumIntsLanes(vals, counts, in, gids, nil, len(in)) {
		t.Fatal("64 values near MaxInt64/3 into 2 groups: no overflow reported")
	}
	unsumInts(vals, counts, in, gids, nil, len(in))
	if !slices.Equal(vals, []int64{5, -7}) || !slices.Equal(counts, []int64{1, 2}) {
		t.Fatalf("after unsumInts: %v %v, want [5 -7] [1 2]", vals, counts)
	}
}

func BenchmarkSumFewGroups(b *testing.B) {
	in, gids, _ := laneInput(2048, 4, false)
	for i := range gids { // runs of 16 rows of one group, as Q01's
		gids[i] = gids[i/16*16]
	}
	vals, counts := make([]int64, 4), make([]int64, 4)
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			sumInts(vals, counts, in, gids, nil, len(in))
		}
	})
	b.Run("lanes", func(b *testing.B) {
		for b.Loop() {
			sumIntsLanes(vals, counts, in, gids, nil, len(in))
		}
	})
	b.Run("countplain", func(b *testing.B) {
		for b.Loop() {
			for _, g := range gids {
				counts[g]++
			}
		}
	})
	b.Run("count", func(b *testing.B) {
		for b.Loop() {
			countRowsLanes(counts, gids, nil, len(in))
		}
	})
}
