package lz4mid_test

import (
	"bytes"
	"testing"

	"github.com/b2sql/b2sql/formats/b2/lz4mid"
	"github.com/b2sql/b2sql/internal/fuzzguard"
	"github.com/pierrec/lz4/v4"
)

// FuzzCompress: whatever the input and however little room it gets,
// Compress returns 0 or a block pierrec/lz4 decodes back to the input, and
// never writes past dst.
func FuzzCompress(f *testing.F) {
	f.Add([]byte("abcdefghabcdefghabcdefghabcdefgh"), uint16(0))
	f.Add(bytes.Repeat([]byte("stone river "), 300), uint16(100))
	f.Add(bytes.Repeat([]byte{0}, 5000), uint16(20))
	f.Fuzz(func(t *testing.T, src []byte, short uint16) {
		g := fuzzguard.Start(t, len(src))
		defer g.Done()
		bound := lz4mid.CompressBlockBound(len(src))
		room := max(bound-int(short), 0)
		g.Allow(3*bound + 64)
		dst := make([]byte, room+8)
		for i := room; i < len(dst); i++ {
			dst[i] = 0x5A
		}
		var c lz4mid.Compressor
		n := c.Compress(dst[:room], src)
		for i := room; i < len(dst); i++ {
			if dst[i] != 0x5A {
				t.Fatalf("wrote past dst (room %d)", room)
			}
		}
		if n == 0 {
			if short == 0 {
				t.Fatalf("%d bytes did not fit in the bound %d", len(src), bound)
			}
			return
		}
		out := make([]byte, len(src)+16)
		k, err := lz4.UncompressBlock(dst[:n], out)
		if err != nil || !bytes.Equal(out[:k], src) {
			t.Fatalf("round trip: %v (%d of %d bytes)", err, k, len(src))
		}
	})
}
