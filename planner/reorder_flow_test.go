package planner

import (
	"math"
	"slices"
	"testing"
)

// TPC-H Q5's six leaves as the estimates see them at SF1: lineitem (6M),
// orders (1.5M, a year of seven: 1/7), customer (150k), supplier (10k),
// nation (25), region (5 rows, one kept: filterSel). Filter links: the
// integer key equalities l_orderkey = o_orderkey, l_suppkey = s_suppkey,
// o_custkey = c_custkey, c_nationkey = s_nationkey, s_nationkey =
// n_nationkey, n_regionkey = r_regionkey.
const (
	q5L = iota
	q5O
	q5C
	q5S
	q5N
	q5R
)

func q5Flow() ([]flowLeaf, [][]bool) {
	leaves := []flowLeaf{{6e6, 1}, {1.5e6, 1.0 / 7}, {150e3, 1}, {10e3, 1}, {25, 1}, {5, 0.2}}
	links := make([][]bool, 6)
	for i := range links {
		links[i] = make([]bool, 6)
	}
	for _, p := range [][2]int{{q5L, q5O}, {q5L, q5S}, {q5O, q5C}, {q5C, q5S}, {q5S, q5N}, {q5N, q5R}} {
		links[p[0]][p[1]], links[p[1]][p[0]] = true, true
	}
	return leaves, links
}

// The scores by hand. Greedy order L O S N R C: customer is built first
// and keeps all 150k rows; region keeps 1/5, nation 1/5 (region's share),
// supplier 1/5 (nation's; customer above it is the bigger side: at most
// all its keys), orders 1/7 (customer passes all), lineitem 1/7 * 1/5:
// 150k + 1 + 5 + 2k + 214,286 + 5 joins * 171,429 = 1,223,435.
// Flow order L O C S N R: customer now below supplier keeps 1/5 (30k),
// orders 1/7 * 1/5 (42,857), lineitem 1/35 * 1/5 (34,286 probed 5 times):
// 30k + 42,857 + 2k + 5 + 1 + 171,429 = 246,292.
func TestFlowScoreQ5(t *testing.T) {
	leaves, links := q5Flow()
	near := func(got, want float64) bool { return math.Abs(got-want) < 1 }
	if got := flowScore([]int{q5L, q5O, q5S, q5N, q5R, q5C}, leaves, links); !near(got, 1_223_434.7) {
		t.Errorf("greedy order scores %.1f, want 1223434.7", got)
	}
	if got := flowScore([]int{q5L, q5O, q5C, q5S, q5N, q5R}, leaves, links); !near(got, 246_291.4) {
		t.Errorf("flow order scores %.1f, want 246291.4", got)
	}
}

// flowOrder moves customer under supplier, the cheapest connected order
// from lineitem; it keeps an order no other beats by flowGain, and one of
// more than flowMaxLeaves leaves.
func TestFlowOrder(t *testing.T) {
	leaves, links := q5Flow()
	greedy := []int{q5L, q5O, q5S, q5N, q5R, q5C}
	got := flowOrder(greedy, leaves, links, links)
	if want := []int{q5L, q5O, q5C, q5S, q5N, q5R}; !slices.Equal(got, want) {
		t.Errorf("flowOrder = %v, want %v", got, want)
	}
	if s := flowScore(got, leaves, links); s >= flowGain*flowScore(greedy, leaves, links) {
		t.Errorf("chosen order scores %.0f, not below flowGain x greedy", s)
	}
	// Without a filter on region nothing flows: every order scores alike
	// within flowGain, the greedy order stays.
	leaves[q5R].sel = 1
	if got := flowOrder(greedy, leaves, links, links); !slices.Equal(got, greedy) {
		t.Errorf("unfiltered: flowOrder = %v, want the greedy %v", got, greedy)
	}
	// Orders must stay connected: with customer linked to orders only,
	// nothing may put it before orders.
	leaves, links = q5Flow()
	links[q5C][q5S], links[q5S][q5C] = false, false
	for _, o := range [][]int{flowOrder(greedy, leaves, links, links)} {
		if slices.Index(o, q5C) < slices.Index(o, q5O) {
			t.Errorf("order %v places customer before orders", o)
		}
	}
	// Too many leaves: the greedy order is kept as is.
	big := make([]int, flowMaxLeaves+1)
	for i := range big {
		big[i] = i
	}
	if got := flowOrder(big, nil, nil, nil); !slices.Equal(got, big) {
		t.Errorf("%d leaves: flowOrder = %v", len(big), got)
	}
}
