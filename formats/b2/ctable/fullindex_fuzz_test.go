package ctable

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// fullSidecars are the members of ctable_mixed's score FULL index that the
// fuzzer replaces, by its choice of which.
var fullSidecars = []string{
	"_indexes/score/full.values.b2nd",
	"_indexes/score/full.positions.b2nd",
	"_indexes/score/full.full_nav.l2.b2nd",
}

// fixtureTrees caches fixture trees under testdata, directory → *fixtureTree.
var fixtureTrees sync.Map

// fixtureTree is one fixture directory in memory (member name → bytes).
type fixtureTree struct {
	once sync.Once
	data map[string][]byte
	err  error
}

// memStore is a table held in memory, member name → bytes.
type memStore map[string][]byte

func (m memStore) frame(member string) (*b2.Frame, error) {
	b, ok := m[member]
	if !ok {
		return nil, fmt.Errorf("no member %q: %w", member, fs.ErrNotExist)
	}
	return b2.NewFrame(b, member)
}

func (m memStore) has(member string) bool { _, ok := m[member]; return ok }
func (m memStore) close() error           { return nil }

// mixedWith returns the ctable_mixed.b2d tree in memory, member replaced
// by data.
func mixedWith(t testing.TB, member string, data []byte) memStore {
	return fixtureWith(t, "ctable_mixed.b2d", member, data)
}

// fixtureWith returns the testdata/dir tree in memory, member replaced by
// data.
func fixtureWith(t testing.TB, dir, member string, data []byte) memStore {
	v, _ := fixtureTrees.LoadOrStore(dir, &fixtureTree{})
	mf := v.(*fixtureTree)
	mf.once.Do(func() {
		root := filepath.Join("testdata", dir)
		mf.data = map[string][]byte{}
		mf.err = filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			b, err := os.ReadFile(p)
			mf.data[filepath.ToSlash(rel)] = b
			return err
		})
	})
	if mf.err != nil {
		t.Fatal(mf.err)
	}
	st := memStore{}
	for k, v := range mf.data {
		st[k] = v
	}
	st[member] = data
	return st
}

// liveMixed reports whether id is a live row of ctable_mixed.
func liveMixed(id int64) bool { return id >= 0 && id < 999 && id != 3 && id != 4 && id != 500 }

// FuzzFullIndex replaces one sidecar of a FULL index (sorted values,
// positions or the navigation array) by fuzzed bytes and runs lookups and
// ordered scans through it: nothing may panic, errors wrap ErrCorrupt or
// ErrUnsupported, and whatever the index says, the rows that come out are
// live rows of the table (a damaged index may lose rows or be refused,
// never invent them).
func FuzzFullIndex(f *testing.F) {
	for i, m := range fullSidecars {
		b, err := os.ReadFile(filepath.Join("testdata", "ctable_mixed.b2d", m))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), b)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		g := fuzzguard.Start(t, len(data))
		defer g.Done()
		// Opening and scanning the 1000-row table around the sidecar.
		g.Allow(fuzzTableCost)
		st := mixedWith(t, fullSidecars[int(which)%len(fullSidecars)], data)
		tb, err := openStore(st, "fuzz.b2d")
		if err != nil {
			t.Fatal(err) // only a sidecar changed: the table itself opens
		}
		defer tb.Close()
		score, id := tb.Schema().Index("score"), tb.Schema().Index("id")
		preds := []index.Pred{
			{Col: score, Op: index.Eq, Vals: []columnar.Value{f64(12.5)}},
			{Col: score, Op: index.Between, Vals: []columnar.Value{f64(1), f64(2)}},
			{Col: score, Op: index.In, Vals: []columnar.Value{f64(0.3), f64(99.8)}},
		}
		for _, p := range preds {
			rows, err := scanRows(tb, index.ScanSpec{Filter: []index.Pred{p}, Threads: 1}, "id")
			if err != nil {
				continue // the sidecars only save work: a scan error is the column's
			}
			for _, r := range rows {
				if !liveMixed(r[0].I) {
					t.Fatalf("row id %d is not a live row", r[0].I)
				}
			}
		}
		if !tb.CanScanOrdered(score) {
			return
		}
		for _, desc := range []bool{false, true} {
			r, err := tb.ScanOrdered(context.Background(), index.ScanSpec{Cols: []int{id}, Limit: 50}, score, desc)
			if err != nil {
				t.Fatal(err)
			}
			for {
				b, err := r.Next(context.Background())
				if err != nil {
					if err != io.EOF && !knownErr(err) {
						t.Fatalf("error without sentinel: %v", err)
					}
					break
				}
				for k := 0; k < b.Live(); k++ {
					if i := b.Cols[0].Ints[b.Row(k)]; !liveMixed(i) {
						t.Fatalf("row id %d is not a live row", i)
					}
				}
			}
			r.Close()
		}
	})
}
