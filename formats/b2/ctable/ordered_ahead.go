package ctable

import (
	"context"
	"sync"

	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// Remote tables fetch ahead the blocks of their scattered reads.
//
// Reading one block of a remote column is two or three requests in a row
// (b2/prefetch.go), and a scan that does not read blocks in order pays
// them block after block, column after column: a top-k scan visits the
// blocks best first, an ordered scan follows its FULL index from row to
// row. Over S3 at 20 ms a request, ORDER BY price DESC, id LIMIT 10
// OFFSET 100 made 204 requests, 80 round trips over its local time. Both
// now say which rows they will read next, and prefetchRows has every
// column they read fetch those blocks at once; the reads that follow find
// them in the source's cache. Local tables read as they did.

// prefetchRows has the sources of schema columns cols (and the deleted-rows
// mask, when rows were deleted) fetch what reading rows spans needs, all
// columns at once, and returns when they have (errors are left to the
// reads). A no-op for local tables.
func (t *Table) prefetchRows(ctx context.Context, cols []int, spans [][2]int64) {
	t.rowSources(cols).prefetch(ctx, spans)
}

// rowFetch is what reading rows of some columns of a remote table reads:
// arrays read item for row (values, dictionary codes, not-null masks,
// _valid_rows), and utf8 columns, whose offsets say which bytes of their
// blob the rows need (strings_ahead.go).
type rowFetch struct {
	arrays []*b2.Array
	strs   []*colSource
}

// rowSources returns what reading rows of schema columns cols reads
// (opening their sources); nothing for a local table. It runs on the
// scan's goroutine, while the table is open.
func (t *Table) rowSources(cols []int) rowFetch {
	var rf rowFetch
	if _, remote := t.IO(); !remote {
		return rf
	}
	seen := map[int]bool{}
	for _, c := range cols {
		if c < 0 || c >= len(t.cols) {
			continue
		}
		for _, si := range t.srcsOf(c) {
			if seen[si] {
				continue
			}
			seen[si] = true
			s := t.srcs[si]
			if s.open(t.st, t.nphys) != nil {
				continue
			}
			if s.spec.Flavour == flUTF8 {
				rf.strs = append(rf.strs, s)
			} else if s.data != nil {
				rf.arrays = append(rf.arrays, s.data)
			}
			if s.mask != nil {
				rf.arrays = append(rf.arrays, s.mask)
			}
		}
	}
	if t.live != t.nphys && t.valid != nil {
		rf.arrays = append(rf.arrays, t.valid)
	}
	return rf
}

// prefetch has every array and string column fetch what reading rows
// spans needs, all at once, and returns when they have. It may run after
// the scan ended: a read of a closed source fails, and is ignored like
// any other.
func (rf rowFetch) prefetch(ctx context.Context, spans [][2]int64) {
	if len(spans) == 0 {
		return
	}
	var wg sync.WaitGroup
	run := func(fn func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { recover() }() // a fetch ahead never takes the process down
			fn()
		}()
	}
	for _, a := range rf.arrays {
		run(func() { a.PrefetchItems1D(ctx, spans) })
	}
	for _, s := range rf.strs {
		run(func() { s.blob.PrefetchItems1D(ctx, s.guessBytes(spans)) })
		run(func() { s.prefetchStrings(ctx, spans) })
	}
	wg.Wait()
}

// readCols returns the schema columns a scan with spec reads per row:
// its filter columns and its output columns.
func readCols(spec index.ScanSpec) []int {
	var cols []int
	seen := map[int]bool{}
	for _, c := range append(filterCols(spec.Filter), spec.Cols...) {
		if !seen[c] {
			seen[c] = true
			cols = append(cols, c)
		}
	}
	return cols
}

// lookAhead is called when the ordered reader takes in the positions of
// entries [from, to) of the sorted stream. When they pass the entries
// fetched ahead, it fetches ahead the blocks of the next orderedAhead
// entries in the stream's direction (no more than the LIMIT still wants),
// whatever runs of equal values they form: descending, a run is often a
// single entry.
func (r *orderedReader) lookAhead(ctx context.Context, from, to int64) {
	if !r.remote || (r.aheadLo >= 0 && from >= r.aheadLo && to <= r.aheadHi) {
		return
	}
	w := int64(orderedAhead)
	if r.limit >= 0 {
		w = min(w, max(r.limit-r.produced, 1))
	}
	lo, hi := from, min(r.hi, from+w)
	if r.desc {
		lo, hi = max(r.lo, to-w), to
	}
	r.aheadLo, r.aheadHi = lo, hi
	ps, err := r.cur.positions(nil, lo, hi)
	if err != nil {
		return // the stream reads them again and reports it
	}
	var spans [][2]int64
	seen := map[int64]bool{}
	for _, p := range ps {
		b := p / r.grain
		if p < 0 || p >= r.t.nphys || seen[b] {
			continue
		}
		seen[b] = true
		spans = append(spans, [2]int64{b * r.grain, min((b+1)*r.grain, r.t.nphys)})
	}
	cols := readCols(r.spec)
	if r.nullable {
		cols = append(cols, r.col)
	}
	r.t.prefetchRows(ctx, cols, spans)
}

// orderedAhead is how many entries of its sorted stream a remote ordered
// scan fetches the blocks of at once.
const orderedAhead = 64
