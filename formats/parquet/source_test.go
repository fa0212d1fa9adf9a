package parquet

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/storage"
)

// recordingSource is a local file posing as a remote one: it records the
// ranges the scan asks it to prefetch and to fetch ahead.
type recordingSource struct {
	storage.Source
	mu    sync.Mutex
	ahead []storage.Range
}

func (r *recordingSource) Prefetch(ctx context.Context, ranges []storage.Range) error { return nil }

func (r *recordingSource) PrefetchAhead(ranges []storage.Range) {
	r.mu.Lock()
	r.ahead = append(r.ahead, ranges...)
	r.mu.Unlock()
}

func (r *recordingSource) aheadCovers(off int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, q := range r.ahead {
		if q.Off <= off && off < q.Off+q.Len {
			return true
		}
	}
	return false
}

// TestDenseFilterFetchesOutputAhead: a remote filtered scan whose rows
// pass all over its batches fetches the output columns' pages of the
// units ahead with their filter columns, instead of a round trip after
// each unit's filter ran (issue #22: filter_region_eq at 20 ms a request
// was 100 round trips over its local time); a selective one does not
// fetch them ahead.
func TestDenseFilterFetchesOutputAhead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "paged.parquet")
	writeArrow(t, path, piCols(), 0, piRows, 1000, false,
		parquet.WithPageIndexEnabled(true), parquet.WithDataPageSize(1024), parquet.WithDictionaryDefault(false))
	for _, tc := range []struct {
		name  string
		pred  index.Pred
		ahead bool
	}{
		// rnd < 10,003 keeps about 10% of the rows, scattered.
		{"dense", index.Pred{Op: index.Lt, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 10_003)}}, true},
		{"sparse", index.Pred{Op: index.Eq, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, piRnd(12345))}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := storage.Open(context.Background(), path, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := &recordingSource{Source: src}
			tb, err := OpenSources("paged", []storage.Source{rec})
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			id, rnd := tb.Schema().Index("id"), tb.Schema().Index("rnd")
			tc.pred.Col = rnd
			spec := index.ScanSpec{Cols: []int{id}, Filter: []index.Pred{tc.pred}, Threads: 1, Limit: -1}
			rows := readAll(t, tb, spec)
			if len(rows) == 0 {
				t.Fatal("no rows")
			}
			// The id chunk's first data page of the last row group: a
			// late-materialized page fetch never reads ahead from a
			// chunk's first page, so only a unit prefetch asks for it.
			last := len(tb.units) - 1
			pi := tb.pageIndexOf(last, &tb.cols[id])
			if pi.first == nil {
				t.Fatal("no offset index written")
			}
			if got := rec.aheadCovers(pi.off[0]); got != tc.ahead {
				t.Fatalf("id pages of the last row group fetched ahead: %v, want %v", got, tc.ahead)
			}
		})
	}
}
