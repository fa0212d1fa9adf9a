package blosclz_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/b2sql/b2sql/formats/b2/blosclz"
	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// FuzzDecompress checks that Decompress never panics, never reports more
// bytes than dst holds, fails only with ErrCorrupt, and that anything
// Compress produces from the input decodes back to it. Seeds are real
// c-blosc2 streams from testdata plus Compress output.
func FuzzDecompress(f *testing.F) {
	for _, name := range []string{"sc_blosclz_nofilter_u8.b2frame", "sc_blosclz_text_u8.b2frame",
		"sc_blosclz_shuffle_i32.b2frame", "sc_blosclz_shuffle_ts3_odd.b2frame"} {
		c := frameChunk(f, readTestdata(f, name), 0)
		for _, s := range c.Streams(f, 0) {
			if s.Csize > 0 && s.Csize != s.Neblock {
				f.Add(s.Payload, uint32(s.Neblock))
			}
		}
	}
	src := bytes.Repeat([]byte("abcdefgh-0123"), 50)
	comp := make([]byte, len(src))
	n := blosclz.Compress(comp, src, 9)
	f.Add(comp[:n], uint32(len(src)))
	f.Add([]byte{0x00, 'a', 0xE0, 0xFF, 0xFF, 0x01, 0x00, 0x00, 'z'}, uint32(520))
	f.Add([]byte{0x00, 'a', 0x3F, 0xFF, 0x00, 0x10, 0x00, 'z'}, uint32(40))

	f.Fuzz(func(t *testing.T, src []byte, n uint32) {
		g := fuzzguard.Start(t, len(src))
		defer g.Done()
		n %= 1 << 20                 // allocation stays bounded
		g.Allow(int(n) + 2*len(src)) // dst, and the round trip's buffers
		dst := make([]byte, n)
		k, err := blosclz.Decompress(dst, src)
		if k > len(dst) || k < 0 {
			t.Fatalf("wrote %d bytes into %d", k, len(dst))
		}
		if err != nil && !errors.Is(err, blosclz.ErrCorrupt) {
			t.Fatalf("error %v does not wrap ErrCorrupt", err)
		}
		if err == nil && k != len(dst) {
			t.Fatalf("no error but %d of %d bytes", k, len(dst))
		}

		comp := make([]byte, len(src))
		if m := blosclz.Compress(comp, src, 9); m > 0 {
			out := make([]byte, len(src))
			if _, err := blosclz.Decompress(out, comp[:m]); err != nil || !bytes.Equal(out, src) {
				t.Fatalf("round trip failed: %v", err)
			}
		}
	})
}
