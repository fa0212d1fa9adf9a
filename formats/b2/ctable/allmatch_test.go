package ctable

import (
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

func geInt(col int, v int64) index.Pred {
	return index.Pred{Col: col, Op: index.Ge, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, v)}}
}

// TestAllMatchBlocks: on rulesTable (40 blocks of 256 rows, ts = i), ts >=
// 5000 skips blocks 0..18 (ts ≤ 4863), reads block 19 (4864..5119) and
// filters it, and proves blocks 20..39 true: counted all-match, and the
// predicate is not evaluated there.
func TestAllMatchBlocks(t *testing.T) {
	tb := rulesTable(t)
	spec := index.ScanSpec{Cols: []int{0}, Filter: []index.Pred{geInt(0, 5000)}, Limit: -1}
	pl, err := tb.plan(spec)
	if err != nil {
		t.Fatal(err)
	}
	if pl.allTrue != 20 || pl.skipped != 19 || len(pl.late) != 1 {
		t.Fatalf("plan: %d all-match, %d skipped, %d late predicates; want 20, 19, 1", pl.allTrue, pl.skipped, len(pl.late))
	}
	for b := 0; b < 40; b++ {
		lo := int64(b) * 256
		if got := pl.late[0].proven(lo, 256, pl.grain); got != (b >= 20) {
			t.Errorf("block %d: proven %v", b, got)
		}
	}
	// A batch that straddles block 19 and 20 is not proven.
	if pl.late[0].proven(19*256+100, 256, pl.grain) {
		t.Error("rows across blocks 19 and 20 proven")
	}
	for _, threads := range []int{1, 2} {
		var st index.ScanStats
		spec.Threads, spec.Stats = threads, &st
		rows := scanAll(t, tb, spec)
		// Block 19 is filtered by late materialization: exactly 5000..9999.
		if len(rows) != 5000 {
			t.Fatalf("threads=%d: %d rows, want 5000", threads, len(rows))
		}
		sum := int64(0)
		for _, r := range rows {
			sum += r[0].I
		}
		if want := int64(5000+9999) * 5000 / 2; sum != want {
			t.Fatalf("threads=%d: sum %d, want %d", threads, sum, want)
		}
		if st.UnitsAllTrue != 20 || st.SkippedBy[index.BlockPruning] != 19 {
			t.Fatalf("threads=%d: %d all-match, %d pruned; want 20 and 19", threads, st.UnitsAllTrue, st.SkippedBy[index.BlockPruning])
		}
	}
}

// TestAllMatchNeedsEveryPredicate: a block is all-match only when every
// pushed predicate is proven there; NaN (x) and NULLs of a column with a
// mask (n) leave blocks "maybe" even when min/max are within the bounds.
func TestAllMatchNeedsEveryPredicate(t *testing.T) {
	tb := rulesTable(t)
	s1 := index.Pred{Col: 3, Op: index.Eq, Vals: []columnar.Value{columnar.StringValue("s1")}}
	xge := index.Pred{Col: 1, Op: index.Ge, Vals: []columnar.Value{columnar.FloatValue(columnar.TFloat64, -1)}}
	cases := []struct {
		name   string
		filter []index.Pred
		cols   []int
		want   int
	}{
		{"ts and s (no index on s)", []index.Pred{geInt(0, 5000), s1}, []int{0, 3}, 0},
		{"x >= -1 with NaN in every block", []index.Pred{xge}, []int{1}, 0},
		{"n >= 0 with NULLs in every block", []index.Pred{geInt(2, 0)}, []int{2}, 0},
		{"ts >= 0", []index.Pred{geInt(0, 0)}, []int{0}, 40},
	}
	for _, c := range cases {
		pl, err := tb.plan(index.ScanSpec{Cols: c.cols, Filter: c.filter, Limit: -1})
		if err != nil {
			t.Fatal(err)
		}
		if pl.allTrue != c.want {
			t.Errorf("%s: %d all-match blocks, want %d", c.name, pl.allTrue, c.want)
		}
	}
}

// TestAllMatchNullableWithoutNulls: a nullable column gets its mask with
// its first NULL; without one, blocks can be all-match, with one (a NULL
// in the last row only) no block can, since SUMMARY does not count NULLs.
func TestAllMatchNullableWithoutNulls(t *testing.T) {
	for _, withNull := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "n.b2d")
		w, err := Create(path, columnar.Schema{{Name: "v", Type: columnar.TInt64, Nullable: true}},
			CreateOptions{ChunkRows: 1024, BlockRows: 256})
		if err != nil {
			t.Fatal(err)
		}
		b := columnar.NewBatch([]columnar.Type{columnar.TInt64}, 2048)
		b.Len = 2048
		for i := range 2048 {
			b.Cols[0].Ints[i] = int64(i)
		}
		if withNull {
			b.Cols[0].SetNull(2047, 2048)
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		tb, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var st index.ScanStats
		rows := scanAll(t, tb, index.ScanSpec{Cols: []int{0}, Filter: []index.Pred{geInt(0, 0)}, Limit: -1, Stats: &st})
		tb.Close()
		want := int64(8)
		if withNull {
			want = 0
		}
		// Every row but the NULL matches: a batch that mostly matches goes
		// out whole (the filter above the scan re-checks it), NULL included.
		if st.UnitsAllTrue != want || len(rows) != 2048 {
			t.Errorf("NULL in the last row %v: %d all-match blocks, %d rows; want %d, 2048", withNull, st.UnitsAllTrue, len(rows), want)
		}
	}
}
