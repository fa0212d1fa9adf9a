package executor

import (
	"math"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestOffsetRow checks the clamping of per-row frame offsets: far past
// either end of an m-row partition stays one past it, whatever the
// offset, without overflowing.
func TestOffsetRow(t *testing.T) {
	const m = 10
	for _, c := range []struct {
		i    int
		off  int64
		want int
	}{
		{3, 0, 3}, {3, -2, 1}, {3, 4, 7}, {3, -4, -1}, {3, -100, -1}, {3, 7, 10}, {3, 8, 11},
		{3, math.MaxInt64, 11}, {3, math.MinInt64, -1}, {0, -1, -1}, {9, 1, 10},
	} {
		if got := offsetRow(c.i, c.off, m); got != c.want {
			t.Errorf("offsetRow(%d, %d, %d) = %d, want %d", c.i, c.off, m, got, c.want)
		}
	}
}

// TestFrameOffset checks how a per-row ROWS offset is read: NULL is the
// current row (0), the sign orients it, and the smallest BIGINT preceding
// does not overflow into "following".
func TestFrameOffset(t *testing.T) {
	v := columnar.NewVector(columnar.TInt64, 4)
	v.Ints[0], v.Ints[1], v.Ints[2] = 3, -2, math.MinInt64
	v.SetNull(3, 4)
	for _, c := range []struct {
		row  int32
		sign int64
		want int64
	}{
		{0, -1, -3}, {0, 1, 3}, {1, -1, 2}, {1, 1, -2}, {3, -1, 0}, {3, 1, 0}, {2, 1, math.MinInt64},
	} {
		if got := frameOffset(v, c.sign, c.row); got != c.want {
			t.Errorf("frameOffset(row %d, sign %d) = %d, want %d", c.row, c.sign, got, c.want)
		}
	}
	if got := frameOffset(v, -1, 2); got <= 0 {
		t.Errorf("frameOffset(MinInt64 PRECEDING) = %d, want a large positive offset", got)
	}
}
