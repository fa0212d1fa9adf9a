package b2

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestFasterAlternative: DefaultCParams gives chunks of one- and
// two-byte items whose planes zstd codes BITSHUFFLE + LZ4 when that is at
// most MinRatio times as large, and keeps SHUFFLE + zstd otherwise (and
// for wider items, MinRatio 1 or another level); TextCParams gives text
// LZ4HC when that is at most MinRatio times as large. Every chunk decodes
// to its input (checked whole and in a range cutting blocks).
func TestFasterAlternative(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows = 65536
	bools := make([]byte, rows) // a flag true on ~30% of the rows
	small := make([]byte, 2*rows)
	cycle := make([]byte, 2*rows) // 999 random int16 values repeated
	wide := make([]byte, 4*rows)  // int32 below 10
	for i := range rows {
		if rng.IntN(10) < 3 {
			bools[i] = 1
		}
		small[2*i] = byte(rng.IntN(10))
		wide[4*i] = byte(rng.IntN(10))
	}
	for i := 0; i < 2*999; i++ {
		cycle[i] = byte(rng.Uint32())
	}
	for i := 2 * 999; i < len(cycle); i++ {
		cycle[i] = cycle[i-2*999]
	}
	// Words of a 64-word list: LZ4HC finds a match for each word and
	// many spanning two, about 3.3× where zstd reaches about 4×.
	vocab := make([][]byte, 64)
	for i := range vocab {
		for range 4 + rng.IntN(6) {
			vocab[i] = append(vocab[i], byte('a'+rng.IntN(26)))
		}
	}
	var words []byte
	for len(words) < rows {
		words = append(append(words, vocab[rng.IntN(len(vocab))]...), ' ')
	}
	words = words[:rows]
	// Letters of a four-letter alphabet: 2 bits of information a byte,
	// which zstd's Huffman coding reaches and LZ4's short matches do not
	// (more than twice zstd's size).
	letters := make([]byte, rows)
	for i := range letters {
		letters[i] = "acgt"[rng.IntN(4)]
	}
	zstdShuffle := CParams{Codec: Zstd, Filters: [6]uint8{5: FilterShuffle}}
	for _, tc := range []struct {
		name     string
		src      []byte
		ts       int
		minRatio int
		clevel   int
		want     CParams
	}{
		{"bool", bools, 1, DefaultMinRatio, 1, CParams{Codec: LZ4, Filters: [6]uint8{5: FilterBitShuffle}}},
		{"int16 below 10", small, 2, DefaultMinRatio, 1, CParams{Codec: LZ4, Filters: [6]uint8{5: FilterBitShuffle}}},
		// zstd finds the 999-item cycle in each byte plane (period 999
		// bytes), BITSHUFFLE breaks it across bit planes: far larger.
		{"int16 cycle", cycle, 2, DefaultMinRatio, 1, zstdShuffle},
		{"int32 below 10", wide, 4, DefaultMinRatio, 1, zstdShuffle},
		{"bool, MinRatio 1", bools, 1, 1, 1, zstdShuffle},
		// TextCParams: byte streams of text.
		{"words", words, 1, DefaultMinRatio, 3, CParams{Codec: LZ4HC}},
		{"four letters", letters, 1, DefaultMinRatio, 3, zstdShuffle},
		{"words, MinRatio 1", words, 1, 1, 3, zstdShuffle},
		{"words, clevel 5", words, 1, DefaultMinRatio, 5, zstdShuffle},
	} {
		p := DefaultCParams(tc.ts)
		p.Blocksize = 8192 * tc.ts
		p.MinRatio, p.CLevel = tc.minRatio, tc.clevel
		c, err := Compress(nil, tc.src, p)
		if err != nil {
			t.Fatal(err)
		}
		h, err := ParseChunkHeader(c)
		if err != nil {
			t.Fatal(err)
		}
		want := tc.want
		if h.Codec() != want.Codec || h.Filters != want.Filters || h.Blocksize != p.Blocksize {
			t.Errorf("%s: codec %v, filters %v, blocksize %d; want %v, %v, %d (%d bytes)",
				tc.name, h.Codec(), h.Filters, h.Blocksize, want.Codec, want.Filters, p.Blocksize, len(c))
		}
		got := make([]byte, len(tc.src))
		if _, err := Decompress(got, c); err != nil || !bytes.Equal(got, tc.src) {
			t.Fatalf("%s: round trip: %v", tc.name, err)
		}
		off, n := 3*p.Blocksize/2, 2*p.Blocksize
		part := make([]byte, n)
		if err := DecompressRange(part, c, off, n); err != nil || !bytes.Equal(part, tc.src[off:off+n]) {
			t.Fatalf("%s: range [%d, %d): %v", tc.name, off, off+n, err)
		}
	}
}
