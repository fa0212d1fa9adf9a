package ctable

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// TestNarrowItemsReadBack writes a BOOLEAN and a SMALLINT below 10 with
// the default parameters, whose chunks of one- and two-byte items take
// BITSHUFFLE + LZ4 when zstd is not much smaller (b2's fasterAlternative). The
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

// TestTextLZ4HCReadBack writes a VARCHAR of words from a list of 64 (the
// demo titles' shape) with the default parameters, whose bytes take LZ4HC
// where zstd is not much smaller (b2's fasterAlternative). The first chunk
// of the bytes must say so in its header, and b2sql and, with
// B2SQL_PYBLOSC2 set, python-blosc2 must read the values written: the
// total length and the rows starting with "Am", counted while generating
// them.
func TestTextLZ4HCReadBack(t *testing.T) {
	const n = 60000
	rng := rand.New(rand.NewPCG(13, 14))
	vocab := strings.Fields(`alpha amber anchor apple arrow autumn basin beacon berry blue bold breeze
		bridge bright canyon cedar cloud copper coral crystal dawn delta desert dune eagle echo ember
		falcon fern field forest frost garden glacier golden granite harbor hazel horizon island jade
		lake lantern lunar maple meadow mist mountain north ocean orchid pearl pine prairie quartz river
		sage shadow silver stone summit thunder willow valley`)
	sc := columnar.Schema{{Name: "title", Type: columnar.TVarchar}}
	b := columnar.NewBatch([]columnar.Type{columnar.TVarchar}, n)
	b.Len = n
	var total, am int64
	for i := range n {
		var s []byte
		for k := range 3 + rng.IntN(8) {
			if k > 0 {
				s = append(s, ' ')
			}
			s = append(s, vocab[rng.IntN(len(vocab))]...)
		}
		s[0] -= 'a' - 'A'
		b.Cols[0].Bytes[i] = s
		total += int64(len(s))
		if bytes.HasPrefix(s, []byte("Am")) {
			am++
		}
	}
	path := filepath.Join(t.TempDir(), "text.b2d")
	tb := writeOpen(t, path, sc, b)
	defer tb.Close()

	f, err := b2.Open(filepath.Join(path, "_cols", "title.utf8.b2nd"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.ChunkData(0)
	if err != nil {
		t.Fatal(err)
	}
	h, err := b2.ParseChunkHeader(c) // before Close: c may be mapped
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if h.Codec() != b2.LZ4HC || h.Filters != [6]uint8{} {
		t.Errorf("title bytes: chunk 0 codec %v, filters %v; want lz4hc, no filters", h.Codec(), h.Filters)
	}

	var gotTotal, gotAm int64
	for _, row := range scanAll(t, tb, index.ScanSpec{}) {
		gotTotal += int64(len(row[0].S))
		if strings.HasPrefix(row[0].S, "Am") {
			gotAm++
		}
	}
	if gotTotal != total || gotAm != am {
		t.Fatalf("b2sql reads %d bytes, %d rows starting Am; want %d, %d", gotTotal, gotAm, total, am)
	}
	pyCheck(t, path, `import blosc2, sys
t = blosc2.open(sys.argv[1])
v = t["title"][:]
print(sum(len(s) for s in v), sum(1 for s in v if s.startswith("Am")))`,
		fmt.Sprintf("%d %d", total, am))
}
