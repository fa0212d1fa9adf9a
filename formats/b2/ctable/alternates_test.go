package ctable

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// TestNarrowItemsReadBack writes a BOOLEAN and a SMALLINT below 10 with
// the default parameters, whose chunks of one- and two-byte items take
// BITSHUFFLE + LZ4 when zstd is not much smaller (b2's narrowItems). The
// first chunk of each must say so in its header, and b2sql and, with
// B2SQL_PYBLOSC2 set, python-blosc2 must read the values written: the
// count of true flags and the sum of the SMALLINT, counted while
// generating them.
func TestNarrowItemsReadBack(t *testing.T) {
	const n = 100000
	rng := rand.New(rand.NewPCG(11, 12))
	types := []columnar.Type{columnar.TBool, columnar.TInt16}
	sc := columnar.Schema{{Name: "flag", Type: types[0]}, {Name: "region", Type: types[1]}}
	b := columnar.NewBatch(types, n)
	b.Len = n
	var trues, sumRegion int64
	for i := range n {
		f := rng.IntN(10) < 3
		b.Cols[0].Bools[i] = f
		if f {
			trues++
		}
		r := rng.IntN(10)
		sumRegion += int64(r)
		b.Cols[1].Ints[i] = int64(r)
	}
	path := filepath.Join(t.TempDir(), "narrow.b2d")
	tb := writeOpen(t, path, sc, b)
	defer tb.Close()

	for _, col := range []string{"flag", "region"} {
		f, err := b2.Open(filepath.Join(path, "_cols", col+".b2nd"))
		if err != nil {
			t.Fatal(err)
		}
		c, err := f.ChunkData(0)
		if err != nil {
			t.Fatal(err)
		}
		h, err := b2.ParseChunkHeader(c)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if h.Codec() != b2.LZ4 || h.Filters != [6]uint8{5: b2.FilterBitShuffle} {
			t.Errorf("%s: chunk 0 codec %v, filters %v; want lz4, BITSHUFFLE in slot 5", col, h.Codec(), h.Filters)
		}
	}

	var gotTrues, gotRegion int64
	for _, row := range scanAll(t, tb, index.ScanSpec{}) {
		if row[0].I == 1 {
			gotTrues++
		}
		gotRegion += row[1].I
	}
	if gotTrues != trues || gotRegion != sumRegion {
		t.Fatalf("b2sql reads %d true flags, region sum %d; want %d, %d", gotTrues, gotRegion, trues, sumRegion)
	}
	pyCheck(t, path, `import blosc2, sys, numpy as np
t = blosc2.open(sys.argv[1])
print(int(t["flag"][:].sum()), int(t["region"][:].astype(np.int64).sum()))`,
		fmt.Sprintf("%d %d", trues, sumRegion))
}
