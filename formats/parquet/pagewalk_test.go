package parquet

import "testing"

// TestPageWalk: batches that enter a chunk's pages in order (or skip a
// few small pages) are a walk, read ahead; a lookup's single page, pages
// far apart and a chunk change are not; a walk over three quarters of the
// chunk's bytes is reported covered once.
func TestPageWalk(t *testing.T) {
	// Ten pages of 10 KB from offset 1000 (a 1000-byte dictionary first),
	// and a second chunk of two pages of 1 MB each, 1 MB apart.
	small := &pageIndex{start: 0, end: 101000}
	for i := range 10 {
		small.off = append(small.off, 1000+int64(i)*10000)
		small.size = append(small.size, 10000)
	}
	far := &pageIndex{start: 200000, end: 4200000,
		off: []int64{200000, 2200000}, size: []int64{1000000, 1000000}}

	type step struct {
		pi               *pageIndex
		page             int
		walking, covered bool
	}
	steps := []step{
		{small, 0, false, false},  // one page: a lookup so far
		{small, 0, false, false},  // the same page again
		{small, -1, false, false}, // a batch with no row
		{small, 1, true, false},   // the next page: a walk
		{small, 3, true, false},   // skipping a 10 KB page is still in order
		{small, 6, true, false},   // bytes 1000..71000 of 101000: not yet 3/4
		{small, 7, true, true},    // 1000..81000: 80000*4 >= 101000*3
		{small, 8, true, false},   // covered is reported once
		{far, 0, false, false},    // a new chunk starts a new walk
		{far, 1, false, false},    // 1 MB after the page before: too far
	}
	var w pageWalk
	for i, s := range steps {
		walking, covered := w.enter(s.pi, s.page)
		if walking != s.walking || covered != s.covered {
			t.Fatalf("step %d (page %d): walking %v covered %v, want %v %v", i, s.page, walking, covered, s.walking, s.covered)
		}
	}
}
