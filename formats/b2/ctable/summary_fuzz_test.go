package ctable

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// FuzzSummaryIndex replaces the SUMMARY sidecar of ctable_mixed's id column
// by fuzzed bytes and scans with filters that use it: nothing may panic,
// errors wrap ErrCorrupt or ErrUnsupported, and the rows that come out are
// live rows that satisfy the filter (the filter stays above the scan, so a
// damaged summary may skip blocks, never invent rows).
func FuzzSummaryIndex(f *testing.F) {
	const member = "_indexes/id/summary.block.b2nd"
	b, err := os.ReadFile(filepath.Join("testdata", "ctable_mixed.b2d", member))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzguard.Start(t, len(data))
		defer g.Done()
		g.Allow(fuzzTableCost)
		tb, err := openStore(mixedWith(t, member, data), "fuzz.b2d")
		if err != nil {
			t.Fatal(err) // only a sidecar changed: the table itself opens
		}
		defer tb.Close()
		id := tb.Schema().Index("id")
		for _, p := range []index.Pred{
			{Col: id, Op: index.Lt, Vals: []columnar.Value{i64(10)}},
			{Col: id, Op: index.Between, Vals: []columnar.Value{i64(300), i64(700)}},
		} {
			tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{p}})
			rows, err := scanRows(tb, index.ScanSpec{Filter: []index.Pred{p}, Threads: 1}, "id")
			if failed(t, err) {
				continue
			}
			for _, r := range rows {
				if !liveMixed(r[0].I) {
					t.Fatalf("row id %d is not a live row", r[0].I)
				}
			}
		}
	})
}

// FuzzMsgpack feeds arbitrary bytes to the msgpack reader behind every
// vlmeta value, index descriptor and varlen batch: no panic, errors wrap
// ErrCorrupt, hostile lengths allocate nothing the input cannot hold, and
// whatever decodes renders.
func FuzzMsgpack(f *testing.F) {
	for _, p := range []string{"testdata/ctable_mixed.b2d/_meta.b2f", "testdata/ctable_stale.b2d/_meta.b2f"} {
		fr, err := b2.Open(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range fr.VLMetaNames() {
			if raw, _, err := fr.VLMeta(name); err == nil {
				f.Add(append([]byte(nil), raw...))
			}
		}
		fr.Close()
	}
	f.Add(referenceManifest(mpMap{{"kind", "b2z"}, {"urlpath", "s3://b/t.b2z"}}))
	f.Add([]byte{0xdd, 0xff, 0xff, 0xff, 0xff})       // array of 4G items, no items
	f.Add([]byte{0xdf, 0x7f, 0xff, 0xff, 0xff, 0xc0}) // map of 2G pairs
	f.Add([]byte{0xc6, 0xff, 0xff, 0xff, 0xf0, 0x01}) // bin of 4G bytes
	f.Fuzz(func(t *testing.T, data []byte) {
		g := fuzzguard.Start(t, len(data))
		defer g.Done()
		v, err := mpDecode(data)
		if failed(t, err) {
			return
		}
		render(v)
	})
}
