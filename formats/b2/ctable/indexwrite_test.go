package ctable

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// idxRow is one row of the index test table: id = physical row.
type idxRow struct {
	id    int64
	v     float64 // DOUBLE, nullable (mask), NaN sometimes, many ties
	vnull bool
	k     int64 // INTEGER, ties, negatives
	b     bool
}

func genIdxRow(i int) idxRow {
	r := idxRow{id: int64(i), k: int64((i*31)%200 - 100), b: i%3 == 0}
	switch {
	case i%89 == 0:
		r.vnull = true
	case i%97 == 0:
		r.v = math.NaN()
	default:
		r.v = float64((i*7919)%50)*0.5 - 3
	}
	return r
}

var idxSchema = columnar.Schema{
	{Name: "id", Type: columnar.TInt64},
	{Name: "v", Type: columnar.TFloat64, Nullable: true},
	{Name: "k", Type: columnar.TInt32},
	{Name: "b", Type: columnar.TBool},
}

// writeIdxTable writes n rows of genIdxRow and tombstones rows i%13 == 0.
func writeIdxTable(t *testing.T, path string, n int, opts CreateOptions) {
	t.Helper()
	w, err := Create(path, idxSchema, opts)
	if err != nil {
		t.Fatal(err)
	}
	const step = 1000
	for lo := 0; lo < n; lo += step {
		m := min(step, n-lo)
		b := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TFloat64, columnar.TInt32, columnar.TBool}, m)
		b.Len = m
		for j := 0; j < m; j++ {
			r := genIdxRow(lo + j)
			b.Cols[0].Ints[j] = r.id
			b.Cols[1].Floats[j] = r.v
			if r.vnull {
				b.Cols[1].SetNull(j, m)
			}
			b.Cols[2].Ints[j] = r.k
			b.Cols[3].Bools[j] = r.b
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := Begin(path)
	if err != nil {
		t.Fatal(err)
	}
	del := make([]bool, n)
	for i := range del {
		del[i] = i%13 == 0
	}
	if err := c.DeleteLive(del); err != nil {
		t.Fatal(err)
	}
	if err := c.Commit(); err != nil {
		t.Fatal(err)
	}
}

func idxLive(i int) bool { return i%13 != 0 }

// cmpNaN orders floats as DuckDB: NaN above every number.
func cmpNaN(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// wantOrdered is the independent answer: live rows passing keep, sorted
// stably on key (NULLs last in both directions), ids of the first limit.
func wantOrdered(n int, key func(r idxRow) (float64, bool), desc bool, keep func(r idxRow) bool, limit int) []int64 {
	var rows []idxRow
	for i := 0; i < n; i++ {
		if r := genIdxRow(i); idxLive(i) && keep(r) {
			rows = append(rows, r)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, an := key(rows[i])
		b, bn := key(rows[j])
		if an || bn {
			return !an && bn
		}
		c := cmpNaN(a, b)
		if desc {
			return c > 0
		}
		return c < 0
	})
	var out []int64
	for _, r := range rows {
		if limit >= 0 && len(out) == limit {
			break
		}
		out = append(out, r.id)
	}
	return out
}

func orderedIDs(t *testing.T, tb *Table, spec index.ScanSpec, col int, desc bool) []int64 {
	t.Helper()
	spec.Cols = []int{tb.Schema().Index("id")}
	r, err := tb.ScanOrdered(context.Background(), spec, col, desc)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []int64
	for {
		b, err := r.Next(context.Background())
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < b.Live(); i++ {
			out = append(out, b.Cols[0].Ints[b.Row(i)])
		}
	}
}

// TestCreateIndexOrdered builds FULL indexes with CreateIndex on a written
// table (ties, NaN, mask NULLs, deleted rows; several sort runs) and checks
// ScanOrdered and lookups against an independent stable sort.
func TestCreateIndexOrdered(t *testing.T) {
	defer func(n int) { sortRunItems = n }(sortRunItems)
	sortRunItems = 700 // several spilled runs, merged
	const n = 5000
	for _, ext := range []string{".b2d", ".b2z"} {
		t.Run(ext, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t"+ext)
			writeIdxTable(t, path, n, CreateOptions{ChunkRows: 1024, BlockRows: 256})
			for _, col := range []string{"v", "k", "b", "id"} {
				if err := CreateIndex(path, IndexOptions{Column: col, Kind: "FULL"}); err != nil {
					t.Fatal(err)
				}
			}
			tb, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			cv, ck, cb := tb.Schema().Index("v"), tb.Schema().Index("k"), tb.Schema().Index("b")
			for _, c := range []int{cv, ck, cb} {
				if !tb.CanScanOrdered(c) {
					t.Fatalf("column %d cannot scan ordered", c)
				}
			}
			keyV := func(r idxRow) (float64, bool) { return r.v, r.vnull }
			keyK := func(r idxRow) (float64, bool) { return float64(r.k), false }
			keyB := func(r idxRow) (float64, bool) {
				if r.b {
					return 1, false
				}
				return 0, false
			}
			all := func(idxRow) bool { return true }
			kv := func(x int64) columnar.Value { return columnar.IntValue(columnar.TInt32, x) }
			cases := []struct {
				name   string
				col    int
				key    func(idxRow) (float64, bool)
				filter []index.Pred
				keep   func(idxRow) bool
				limit  int
			}{
				{"v all", cv, keyV, nil, all, -1},
				{"v limit 10", cv, keyV, nil, all, 10},
				{"k all", ck, keyK, nil, all, -1},
				{"k limit 7", ck, keyK, nil, all, 7},
				{"b all", cb, keyB, nil, all, -1},
				{"k range and other column", ck, keyK,
					[]index.Pred{{Col: ck, Op: index.Between, Vals: []columnar.Value{kv(-10), kv(20)}},
						{Col: cb, Op: index.Eq, Vals: []columnar.Value{columnar.BoolValue(true)}}},
					func(r idxRow) bool { return r.k >= -10 && r.k <= 20 && r.b }, 25},
				{"v is null", cv, keyV, []index.Pred{{Col: cv, Op: index.IsNull}},
					func(r idxRow) bool { return r.vnull }, -1},
				{"v > 5 or k < -90", cv, keyV, []index.Pred{{Op: index.Or, Any: []index.Pred{
					{Col: cv, Op: index.Gt, Vals: []columnar.Value{f64(5)}},
					{Col: ck, Op: index.Lt, Vals: []columnar.Value{kv(-90)}}}}},
					func(r idxRow) bool { return !r.vnull && cmpNaN(r.v, 5) > 0 || r.k < -90 }, 40},
				{"v >= 20 (NaN matches)", cv, keyV, []index.Pred{{Col: cv, Op: index.Ge, Vals: []columnar.Value{f64(20)}}},
					func(r idxRow) bool { return !r.vnull && cmpNaN(r.v, 20) >= 0 }, -1},
			}
			for _, tc := range cases {
				for _, desc := range []bool{false, true} {
					want := wantOrdered(n, tc.key, desc, tc.keep, tc.limit)
					st := &index.ScanStats{}
					got := orderedIDs(t, tb, index.ScanSpec{Filter: tc.filter, Limit: int64(tc.limit), Stats: st}, tc.col, desc)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s desc=%v: got %d ids %v…, want %d ids %v…", tc.name, desc, len(got), head(got), len(want), head(want))
					}
					if tc.limit == 10 && st.UnitsTotal-st.UnitsSkipped > 10 {
						t.Fatalf("%s: read %d of %d blocks for 10 rows", tc.name, st.UnitsTotal-st.UnitsSkipped, st.UnitsTotal)
					}
				}
			}
			// The order column comes out of the index's sorted values
			// (k has no NULLs): the values must be the rows' own.
			for _, desc := range []bool{false, true} {
				r, err := tb.ScanOrdered(context.Background(), index.ScanSpec{Cols: []int{ck, tb.Schema().Index("id")}, Limit: 3000}, ck, desc)
				if err != nil {
					t.Fatal(err)
				}
				rows := 0
				for {
					b, err := r.Next(context.Background())
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					for i := 0; i < b.Live(); i++ {
						row := b.Row(i)
						if want := genIdxRow(int(b.Cols[1].Ints[row])).k; b.Cols[0].Ints[row] != want {
							t.Fatalf("row %d: k = %d, want %d", b.Cols[1].Ints[row], b.Cols[0].Ints[row], want)
						}
						rows++
					}
				}
				r.Close()
				if rows != 3000 {
					t.Fatalf("%d rows", rows)
				}
			}
			// Lookups through the written index of id: 31 rows of 5000,
			// in 2 blocks of 20.
			ci := tb.Schema().Index("id")
			p := index.Pred{Col: ci, Op: index.Between, Vals: []columnar.Value{vi64(1000), vi64(1030)}}
			st := &index.ScanStats{}
			var got []int64
			for _, r := range scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, Stats: st}, "id") {
				if r[0].I < 1000 || r[0].I > 1030 {
					t.Fatalf("row %v came out of the lookup", r)
				}
				got = append(got, r[0].I)
			}
			sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
			want := wantOrdered(n, func(r idxRow) (float64, bool) { return float64(r.id), false }, false,
				func(r idxRow) bool { return r.id >= 1000 && r.id <= 1030 }, -1)
			if !reflect.DeepEqual(got, want) || st.UnitsSkipped != 18 {
				t.Fatalf("id BETWEEN 1000 AND 1030: %v (%d blocks skipped), want %v", got, st.UnitsSkipped, want)
			}
		})
	}
}

func head(x []int64) []int64 { return x[:min(len(x), 12)] }

// copyFixture copies a fixture table (file or directory) to dst.
func copyFixture(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readArray(t *testing.T, path string) *b2.Array {
	t.Helper()
	a, err := b2.OpenArray(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// TestFullIndexLayoutMatchesPython rebuilds the score FULL index of
// ctable_mixed (python wrote it while the capacity was 1024) over the 999
// stored rows and compares the new sidecars with python's: same files,
// dtypes, chunk/block geometry and catalog keys; values are the
// (already ascending) scores i/10 for i < 999 with positions 0..998, and
// l2 records the first and last value of each 256-entry block.
func TestFullIndexLayoutMatchesPython(t *testing.T) {
	for _, name := range []string{"ctable_mixed.b2d", "ctable_mixed.b2z"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			copyFixture(t, filepath.Join("testdata", name), path)
			if err := Reindex(path, []string{"score"}); err != nil {
				t.Fatal(err)
			}
			tb, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			pyTable := openTable(t, name)
			newDesc, _ := catalogEntry(tb.man.Catalog, "score")
			pyDesc, _ := catalogEntry(pyTable.man.Catalog, "score")
			if got, want := keysOf(newDesc), keysOf(pyDesc); !reflect.DeepEqual(got, want) {
				t.Fatalf("descriptor keys\n %v\nwant\n %v", got, want)
			}
			nf, _ := newDesc.get("full")
			pf, _ := pyDesc.get("full")
			for _, k := range keysOf(pf.(mpMap)) {
				if _, ok := nf.(mpMap).get(k); !ok && !isBuildStat(k) {
					t.Errorf("full.%s missing", k)
				}
			}
			for _, k := range []string{"kind", "chunks", "blocks", "dtype", "optlevel", "null_aware", "built_value_epoch", "stale"} {
				a, _ := newDesc.get(k)
				b, _ := pyDesc.get(k)
				if !reflect.DeepEqual(a, b) {
					t.Errorf("%s = %v, python wrote %v", k, render(a), render(b))
				}
			}
			for _, k := range []string{"values_path", "positions_path", "l1_path", "l2_path", "chunk_multiplier", "sidecar_chunk_len", "sidecar_block_len", "l1_dtype", "l2_dtype", "runs", "build_method"} {
				a, _ := nf.(mpMap).get(k)
				b, _ := pf.(mpMap).get(k)
				if !reflect.DeepEqual(a, b) {
					t.Errorf("full.%s = %v, python wrote %v", k, render(a), render(b))
				}
			}
			nl, _ := newDesc.get("levels")
			pl, _ := pyDesc.get("levels")
			if !reflect.DeepEqual(nl.(mpMap)[0].Val.(mpMap)[0], pl.(mpMap)[0].Val.(mpMap)[0]) {
				t.Errorf("levels differ: %v vs %v", render(nl), render(pl))
			}
			for _, k := range []string{"chunk", "block", "subblock"} {
				a, _ := nl.(mpMap).get(k)
				b, _ := pl.(mpMap).get(k)
				for _, f := range []string{"segment_len", "path", "dtype"} {
					x, _ := a.(mpMap).get(f)
					y, _ := b.(mpMap).get(f)
					if !reflect.DeepEqual(x, y) {
						t.Errorf("levels.%s.%s = %v, python wrote %v", k, f, render(x), render(y))
					}
				}
			}
			if name != "ctable_mixed.b2d" {
				return
			}
			dir := filepath.Join(path, "_indexes", "score")
			pyDir := filepath.Join("testdata", name, "_indexes", "score")
			for _, f := range []string{"full.values", "full.positions", "full.full_nav.l1", "full.full_nav.l2",
				"full.summary.chunk", "full.summary.block", "full.summary.subblock"} {
				a := readArray(t, filepath.Join(dir, f+".b2nd"))
				p := readArray(t, filepath.Join(pyDir, f+".b2nd"))
				if a.DType.Str != p.DType.Str || a.ItemSize() != p.ItemSize() {
					t.Errorf("%s: dtype %s, python %s", f, a.DType.Str, p.DType.Str)
				}
				if f == "full.values" || f == "full.positions" {
					if !reflect.DeepEqual(a.Meta.ChunkShape, p.Meta.ChunkShape) || !reflect.DeepEqual(a.Meta.BlockShape, p.Meta.BlockShape) {
						t.Errorf("%s: chunks %v blocks %v, python %v %v", f, a.Meta.ChunkShape, a.Meta.BlockShape, p.Meta.ChunkShape, p.Meta.BlockShape)
					}
				}
			}
			vals, _ := readArray(t, filepath.Join(dir, "full.values.b2nd")).ReadAll()
			pos, _ := readArray(t, filepath.Join(dir, "full.positions.b2nd")).ReadAll()
			if len(vals) != 999*8 || len(pos) != 999*8 {
				t.Fatalf("%d value bytes, %d position bytes", len(vals), len(pos))
			}
			for i := 0; i < 999; i++ {
				if v, p := b2.Items[float64](vals)[i], b2.Items[int64](pos)[i]; v != float64(i)/10 || p != int64(i) {
					t.Fatalf("entry %d = (%v, %d), want (%v, %d)", i, v, p, float64(i)/10, i)
				}
			}
			l2, _ := readArray(t, filepath.Join(dir, "full.full_nav.l2.b2nd")).ReadAll()
			nav := b2.Items[float64](l2)
			for blk := 0; blk < 4; blk++ {
				lo, hi := 256*blk, min(256*blk+255, 998)
				if nav[2*blk] != float64(lo)/10 || nav[2*blk+1] != float64(hi)/10 {
					t.Fatalf("l2[%d] = (%v, %v), want (%v, %v)", blk, nav[2*blk], nav[2*blk+1], float64(lo)/10, float64(hi)/10)
				}
			}
			// The automatic SUMMARY of id, rebuilt by b2sql, is byte for
			// byte python's (null_aware false: id has no NULLs).
			if err := Reindex(path, []string{"id"}); err != nil {
				t.Fatal(err)
			}
			got, _ := readArray(t, filepath.Join(path, "_indexes", "id", "summary.block.b2nd")).ReadAll()
			want, _ := readArray(t, filepath.Join("testdata", name, "_indexes", "id", "summary.block.b2nd")).ReadAll()
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("id summary\n %x\npython\n %x", got, want)
			}
		})
	}
}

func catalogEntry(cat mpMap, col string) (mpMap, bool) {
	for _, e := range cat {
		if e.Key == col {
			d, ok := e.Val.(mpMap)
			return d, ok
		}
	}
	return nil, false
}

func keysOf(m mpMap) []string {
	var out []string
	for _, e := range m {
		if k, ok := e.Key.(string); ok && !isBuildStat(k) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// isBuildStat names the statistics python-blosc2's out-of-core builder
// records (temp_*, ooc_*): informative, not read by anyone.
func isBuildStat(k string) bool {
	return len(k) > 5 && (k[:5] == "temp_" || k[:4] == "ooc_")
}

// TestReindexAllMixed rebuilds every index of ctable_mixed that b2sql can
// build: z (complex128, SUMMARY) is left as python wrote it, the others
// are rebuilt, and every answer stays the same.
func TestReindexAllMixed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ctable_mixed.b2z")
	copyFixture(t, filepath.Join("testdata", "ctable_mixed.b2z"), path)
	before := scanAll(t, openTable(t, "ctable_mixed.b2z"), index.ScanSpec{Threads: 1})
	zOld, err := os.ReadFile(filepath.Join("testdata", "ctable_mixed.b2d", "_indexes", "z", "summary.block.b2nd"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Reindex(path, nil); err != nil {
		t.Fatal(err)
	}
	if err := Reindex(path, []string{"z"}); err == nil {
		t.Fatal("REINDEX of a complex column")
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	var got []string
	for _, ix := range tb.Indexes() {
		got = append(got, ix.Column+":"+ix.Kind+":"+ix.Why)
	}
	if s := fmt.Sprint(got); s != "[score:full: u16:summary: id:summary: i8:summary: f32:summary: flag:summary: z:summary: opt:summary: sent:summary:]" {
		t.Fatalf("catalog after REINDEX: %s", s)
	}
	zs := tb.st.(*zipStore)
	m := zs.members["_indexes/z/summary.block.b2nd"]
	if !reflect.DeepEqual(zs.data[m.off:m.off+m.size], zOld) {
		t.Fatal("z's python sidecar changed")
	}
	if after := scanAll(t, tb, index.ScanSpec{Threads: 1}); !reflect.DeepEqual(fmt.Sprint(after), fmt.Sprint(before)) {
		t.Fatal("rows changed")
	}
}

// TestReindexStale rebuilds the stale FULL index of ctable_stale: it
// becomes usable and answers over all 301 rows, row 300 (-1) included.
func TestReindexStale(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ctable_stale.b2d")
	copyFixture(t, filepath.Join("testdata", "ctable_stale.b2d"), path)
	if err := Reindex(path, nil); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	x := tb.Schema().Index("x")
	if !tb.CanScanOrdered(x) {
		t.Fatalf("rebuilt index not usable: %+v", tb.Indexes())
	}
	r, err := tb.ScanOrdered(context.Background(), index.ScanSpec{Cols: []int{x}, Limit: 3}, x, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := r.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(b.Cols[0].Floats[:b.Len]); got != "[-1 0 0.5]" {
		t.Fatalf("x ascending: %s", got)
	}
	info := tb.Indexes()
	if len(info) != 1 || info[0].Kind != "full" || info[0].Why != "" || info[0].Column != "x" {
		t.Fatalf("indexes %+v", info)
	}
}

// TestIndexStatements: errors and DropIndex.
func TestCreateDropIndexErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.b2d")
	writeIdxTable(t, path, 300, CreateOptions{ChunkRows: 128, BlockRows: 64})
	// k has the automatic SUMMARY: a FULL index replaces it.
	if err := CreateIndex(path, IndexOptions{Column: "k", Name: "k_idx"}); err != nil {
		t.Fatal(err)
	}
	if err := CreateIndex(path, IndexOptions{Column: "k"}); !errors.Is(err, ErrIndexExists) {
		t.Fatalf("second CreateIndex: %v", err)
	}
	if err := CreateIndex(path, IndexOptions{Column: "nope"}); err == nil {
		t.Fatal("index on a missing column")
	}
	if err := CreateIndex(path, IndexOptions{Column: "k", Kind: "bucket"}); err == nil {
		t.Fatal("unknown kind accepted")
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, ix := range tb.Indexes() {
		kinds = append(kinds, ix.Column+":"+ix.Kind+":"+ix.Name)
	}
	tb.Close()
	if got := fmt.Sprint(kinds); got != "[id:summary:__self__ v:summary:__self__ k:full:k_idx b:summary:__self__]" {
		t.Fatalf("catalog %s", got)
	}
	if err := DropIndex(path, "k"); err != nil {
		t.Fatal(err)
	}
	if err := DropIndex(path, "k"); !errors.Is(err, ErrNoIndex) {
		t.Fatalf("second DropIndex: %v", err)
	}
	if _, err := os.Stat(filepath.Join(path, "_indexes", "k")); !os.IsNotExist(err) {
		t.Fatalf("sidecars of the dropped index remain: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
	// A SUMMARY index on a column without one.
	if err := CreateIndex(path, IndexOptions{Column: "k", Kind: "summary"}); err != nil {
		t.Fatal(err)
	}
	rows, tb2 := readAllRows(t, path)
	defer tb2.Close()
	if len(rows) != 300-24 {
		t.Fatalf("%d rows after index changes", len(rows))
	}
}

func readAllRows(t *testing.T, path string) ([][]columnar.Value, *Table) {
	t.Helper()
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return scanAll(t, tb, index.ScanSpec{Threads: 1}), tb
}
