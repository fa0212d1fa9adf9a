package filter_test

import (
	"bytes"
	"testing"

	"github.com/b2sql/b2sql/formats/b2/filter"
	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// FuzzFilters runs every kernel on arbitrary bytes and typesizes: no panics,
// shuffle and bitshuffle match the spec formulas, and every reversible pair
// round-trips.
func FuzzFilters(f *testing.F) {
	f.Add([]byte("0123456789abcdefghijklmnopqrstuvwxyz"), uint8(4))
	f.Add(bytes.Repeat([]byte{0xF0, 0x0F, 0x55}, 700), uint8(8))
	f.Add(seq(300), uint8(3))
	f.Fuzz(func(t *testing.T, src []byte, ts uint8) {
		g := fuzzguard.Start(t, len(src))
		defer g.Done()
		g.Allow(8 * len(src)) // the harness's buffers and reference results
		w := 1 + int(ts%33)
		enc := make([]byte, len(src))
		dec := make([]byte, len(src))

		filter.Shuffle(enc, src, w)
		if !bytes.Equal(enc, refShuffle(src, w)) {
			t.Fatal("Shuffle differs from formula")
		}
		filter.Unshuffle(dec, enc, w)
		if !bytes.Equal(dec, src) {
			t.Fatal("Unshuffle round trip")
		}
		if err := filter.BitShuffle(enc, src, w); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(enc, refBitShuffle(src, w)) {
			t.Fatal("BitShuffle differs from formula")
		}
		if err := filter.BitUnshuffle(dec, enc, w); err != nil || !bytes.Equal(dec, src) {
			t.Fatal("BitUnshuffle round trip")
		}
		filter.DeltaEncode(enc, src, nil, w, true)
		filter.DeltaDecode(dec, enc, nil, w, true)
		if !bytes.Equal(dec, src) {
			t.Fatal("Delta round trip")
		}
		filter.ByteDeltaEncode(enc, src, w)
		if !bytes.Equal(enc, refByteDelta(src, w)) {
			t.Fatal("ByteDeltaEncode differs from formula")
		}
		filter.ByteDeltaDecode(dec, enc, w)
		if !bytes.Equal(dec, src) {
			t.Fatal("ByteDelta round trip")
		}
		_ = filter.TruncPrec(enc, src, w, int(int8(ts)))
	})
}

// refByteDelta is BYTEDELTA's forward formula as c-blosc2 >= 3.3.2 applies
// it: len(src)/w-byte planes, each byte minus the one before it in its
// plane (the first minus 0), and the len(src)%w trailing bytes unchanged.
func refByteDelta(src []byte, w int) []byte {
	out := append([]byte(nil), src...)
	l := len(src) / w
	for c := 0; c < w; c++ {
		for i := 1; i < l; i++ {
			out[c*l+i] = src[c*l+i] - src[c*l+i-1]
		}
	}
	return out
}
