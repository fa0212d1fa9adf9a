package parquet

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/storage"
)

// structMapSiblingsFile is DuckDB's struct_map_siblings.parquet
// (tests/testdata/files, README there): 3000 rows of id BIGINT and
// s STRUCT(a STRUCT(ls VARCHAR[], m MAP(VARCHAR, BIGINT), y BIGINT),
// m2 MAP(BIGINT, VARCHAR[]), v VARCHAR[], w BIGINT), l VARCHAR[] and
// mm MAP(VARCHAR, BIGINT[]).
const structMapSiblingsFile = "../../tests/testdata/files/struct_map_siblings.parquet"

// readsSource records every range read from the file.
type readsSource struct {
	storage.Source
	mu    sync.Mutex
	reads []storage.Range
}

func (r *readsSource) note(off int64, n int) {
	r.mu.Lock()
	r.reads = append(r.reads, storage.Range{Off: off, Len: int64(n)})
	r.mu.Unlock()
}

func (r *readsSource) ReadAt(p []byte, off int64) (int, error) {
	n, err := r.Source.ReadAt(p, off)
	r.note(off, n)
	return n, err
}

func (r *readsSource) ReadAtContext(ctx context.Context, p []byte, off int64) (int, error) {
	n, err := r.Source.ReadAtContext(ctx, p, off)
	r.note(off, n)
	return n, err
}

// TestFieldColumnReadsOnlyItsLeaves reads fields of STRUCTs on their own
// and checks, from the byte ranges the scan read from the file, that every
// byte read lies in a column chunk of one of the field's own leaves (the
// leaves whose Parquet path starts with the field's): s.x of
// struct_fields.parquet (a STRUCT, read by arrow-go's reader) must not
// read the MAP s.m beside it, nor s.a.ls of struct_map_siblings.parquet
// the MAPs s.a.m and s.m2, which arrow-go reads whole when asked for some
// leaves of a STRUCT holding them.
func TestFieldColumnReadsOnlyItsLeaves(t *testing.T) {
	for _, tc := range []struct {
		file string
		name string
		path []int
	}{
		{structFieldsFile, "s.a", []int{0}},
		{structFieldsFile, "s.b", []int{1}},
		{structFieldsFile, "s.x", []int{2}},
		{structFieldsFile, "s.x.y", []int{2, 0}},
		{structFieldsFile, "s.x.z", []int{2, 1}},
		{structFieldsFile, "s.c", []int{3}},
		{structFieldsFile, "s.m", []int{4}},
		{structFieldsFile, "s.t", []int{5}},
		{structMapSiblingsFile, "s.a", []int{0}},
		{structMapSiblingsFile, "s.a.ls", []int{0, 0}},
		{structMapSiblingsFile, "s.a.m", []int{0, 1}},
		{structMapSiblingsFile, "s.m2", []int{1}},
		{structMapSiblingsFile, "s.v", []int{2}},
		{structMapSiblingsFile, "l", nil},
		{structMapSiblingsFile, "mm", nil},
	} {
		t.Run(filepath.Base(tc.file)+"/"+tc.name, func(t *testing.T) {
			src, err := storage.Open(context.Background(), tc.file, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := &readsSource{Source: src}
			tb, err := OpenSources("t", []storage.Source{rec})
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			col, ok := tb.Schema().Index(tc.name), tc.path == nil // a top-level column
			if !ok {
				col, ok = tb.FieldColumn(1, tc.path)
			}
			if !ok {
				t.Fatalf("no field column %s", tc.name)
			}
			meta := tb.files[0].meta
			type span struct{ lo, hi int64 }
			var own []span
			var ownBytes int64
			for l := range meta.Schema.NumColumns() {
				if p := meta.Schema.Column(l).ColumnPath().String(); !strings.HasPrefix(p+".", tc.name+".") {
					continue
				}
				for rg := range meta.NumRowGroups() {
					cc, err := meta.RowGroup(rg).ColumnChunk(l)
					if err != nil {
						t.Fatal(err)
					}
					lo := cc.DataPageOffset()
					if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 {
						lo = min(lo, cc.DictionaryPageOffset())
					}
					own = append(own, span{lo, lo + cc.TotalCompressedSize()})
					ownBytes += cc.TotalCompressedSize()
				}
			}
			if len(own) == 0 {
				t.Fatalf("no leaf of %s in the file", tc.name)
			}
			rec.mu.Lock()
			rec.reads = nil
			rec.mu.Unlock()
			var st index.ScanStats
			rows := readAll(t, tb, index.ScanSpec{Cols: []int{col}, Limit: -1, Threads: 2, Stats: &st})
			if len(rows) != 3000 {
				t.Fatalf("%d rows", len(rows))
			}
			var read int64
			for _, r := range rec.reads {
				inside := false
				for _, s := range own {
					inside = inside || r.Off >= s.lo && r.Off+r.Len <= s.hi
				}
				if !inside {
					t.Errorf("read bytes %d..%d, outside its leaves' chunks %v", r.Off, r.Off+r.Len, own)
				}
				read += r.Len
			}
			if read == 0 || read > ownBytes {
				t.Errorf("%d bytes read, its leaves' chunks hold %d", read, ownBytes)
			}
			if st.BytesRead != ownBytes {
				t.Errorf("the scan reports %d bytes read, its leaves' chunks hold %d", st.BytesRead, ownBytes)
			}
		})
	}
}
