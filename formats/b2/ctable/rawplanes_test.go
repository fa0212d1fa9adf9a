package ctable

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// TestRawPlanesReadBack writes a table with the default parameters, whose
// DefaultMinRatio stores byte planes raw when zstd cannot halve them: a
// DOUBLE of cents (k/100, k < 1,000,000: its low mantissa bytes are such
// planes), a SMALLINT below 20 (low plane at most 1.85× smaller: raw) and
// a utf8() VARCHAR (zstd clevel 3). Its first chunk must hold raw price
// planes (a stream whose csize equals the plane size, parsed here from
// the chunk layout of the blosc2 format), and b2sql and, with
// B2SQL_PYBLOSC2 set, python-blosc2 must read the values written: sums
// of k and of the SMALLINT computed while generating them, and the
// titles' total length.
func TestRawPlanesReadBack(t *testing.T) {
	const n = 50000
	rng := rand.New(rand.NewPCG(7, 8))
	types := []columnar.Type{columnar.TFloat64, columnar.TInt16, columnar.TVarchar}
	sc := columnar.Schema{{Name: "price", Type: types[0]}, {Name: "region", Type: types[1]}, {Name: "title", Type: types[2]}}
	b := columnar.NewBatch(types, n)
	b.Len = n
	var sumK, sumRegion, titleBytes int64
	for i := range n {
		k := rng.IntN(1_000_000)
		sumK += int64(k)
		b.Cols[0].Floats[i] = float64(k) / 100
		r := rng.IntN(20)
		sumRegion += int64(r)
		b.Cols[1].Ints[i] = int64(r)
		b.Cols[2].Bytes[i] = fmt.Appendf(nil, "title %x of row %d", rng.Uint32(), i)
		titleBytes += int64(len(b.Cols[2].Bytes[i]))
	}
	path := filepath.Join(t.TempDir(), "raw.b2d")
	tb := writeOpen(t, path, sc, b)
	defer tb.Close()

	f, err := b2.Open(filepath.Join(path, "_cols", "price.b2nd"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := f.ChunkData(0) // mapped: valid until f closes
	if err != nil {
		t.Fatal(err)
	}
	// Chunk layout: 32-byte header (blocksize at byte 8), one int32 block
	// start per block, each block 8 streams of int32 csize + bytes.
	blocksize := int(binary.LittleEndian.Uint32(c[8:]))
	at := int(binary.LittleEndian.Uint32(c[32:]))
	raw := 0
	for s := 0; s < 8; s++ {
		csize := int(int32(binary.LittleEndian.Uint32(c[at:])))
		if csize == blocksize/8 {
			raw++
		}
		at += 4 + max(csize, 0)
	}
	if raw < 3 {
		t.Errorf("block 0 of price has %d raw planes, want at least 3 (its low mantissa bytes)", raw)
	}

	var gotK, gotRegion, gotBytes int64
	for _, row := range scanAll(t, tb, index.ScanSpec{}) {
		gotK += int64(row[0].F*100 + 0.5)
		gotRegion += row[1].I
		gotBytes += int64(len(row[2].S))
	}
	if gotK != sumK || gotRegion != sumRegion || gotBytes != titleBytes {
		t.Fatalf("b2sql reads sums %d %d %d, want %d %d %d", gotK, gotRegion, gotBytes, sumK, sumRegion, titleBytes)
	}
	pyCheck(t, path, `import blosc2, sys, numpy as np
t = blosc2.open(sys.argv[1])
p = t["price"][:]
print(int(np.rint(p * 100).astype(np.int64).sum()), int(t["region"][:].astype(np.int64).sum()), sum(len(s.encode()) for s in t["title"][:]))`,
		fmt.Sprintf("%d %d %d", sumK, sumRegion, titleBytes))
}
