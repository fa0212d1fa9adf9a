package executor

import (
	"testing"

	"github.com/b2sql/b2sql/executor/memory"
)

// LIMIT p% keeps floor(9 × p / 100) of people's 9 rows after the offset.
func TestLimitPercent(t *testing.T) {
	for _, tc := range []struct {
		pct    float64
		offset int64
		want   []string
	}{
		{50, 0, []string{"1", "2", "3", "4"}}, // 4.5 → 4
		{34, 2, []string{"3", "4", "5"}},      // 3.06 → 3, after 2 skipped
		{0, 0, nil},
		{100, 7, []string{"8", "9"}}, // 9, but only 2 rows remain
		{10, 20, nil},
	} {
		runSizes(t, func(t *testing.T, n int) {
			op := &LimitPercent{Input: people(n), Percent: tc.pct, Offset: tc.offset}
			op.SetMemory(memory.NewManager(1<<20, "", 0))
			var ids []string
			for _, r := range drain(t, op) {
				ids = append(ids, r[:1])
			}
			if !equalStrings(ids, tc.want) {
				t.Fatalf("%g%% offset %d: got %v, want %v", tc.pct, tc.offset, ids, tc.want)
			}
		})
	}
}
