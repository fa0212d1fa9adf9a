package zstdlit

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// reference decodes src with klauspost/compress, configured as formats/b2
// does: the output may not exceed n bytes.
func reference(t testing.TB, src []byte, n int) ([]byte, error) {
	t.Helper()
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	return d.DecodeAll(src, make([]byte, 0, n))
}

// agree fails t unless Decode either declines src or gives exactly what
// the reference decoder gives; it reports whether Decode took it.
func agree(t testing.TB, d *Decoder, src []byte, n int) bool {
	t.Helper()
	dst := make([]byte, n)
	if !d.Decode(dst, src) {
		return false
	}
	want, err := reference(t, src, n)
	if err != nil {
		t.Fatalf("Decode took a frame the reference refuses (%v): %x", err, src)
	}
	if len(want) != n || !bytes.Equal(dst, want) {
		t.Fatalf("Decode gave %x, the reference %x, for %x", dst, want, src)
	}
	return true
}

// cblosc2Frames are split streams of the category column's code plane as
// c-blosc2 3.3.2 wrote them for python-blosc2 4.11 (256-byte outputs): 24
// of only literals, then 4 with sequences.
func cblosc2Frames(t testing.TB) (srcs [][]byte, sizes []int) {
	raw, err := os.ReadFile("testdata/cblosc2_category.frames")
	if err != nil {
		t.Fatal(err)
	}
	for len(raw) > 0 {
		m, n := binary.LittleEndian.Uint32(raw), binary.LittleEndian.Uint32(raw[4:])
		srcs, sizes = append(srcs, raw[8:8+m]), append(sizes, int(n))
		raw = raw[8+m:]
	}
	return srcs, sizes
}

func TestCBlosc2Frames(t *testing.T) {
	srcs, sizes := cblosc2Frames(t)
	var d Decoder
	for i, src := range srcs {
		took := agree(t, &d, src, sizes[i])
		if i < 24 && !took {
			t.Errorf("frame %d (literals only) declined", i)
		}
		if i >= 24 && took {
			t.Errorf("frame %d has sequences but was taken", i)
		}
		// Any other size is declined.
		if agree(t, &d, src, sizes[i]-1) || agree(t, &d, src, sizes[i]+1) {
			t.Errorf("frame %d taken at the wrong size", i)
		}
	}
}

// TestEncoderFrames compresses random bytes over small alphabets with
// klauspost's encoder: short inputs without repeats come out as frames of
// literals only, with both weight encodings and one or four streams.
func TestEncoderFrames(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var d Decoder
	took := 0
	for _, level := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBestCompression} {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderCRC(false), zstd.WithAllLitEntropyCompression(true), zstd.WithSingleSegment(true))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 300; i++ {
			n := 1 + rng.IntN(MaxSize)
			if i%3 == 0 {
				n = 1 + rng.IntN(300)
			}
			alpha := 2 + rng.IntN(250)
			src := make([]byte, n)
			for k := range src {
				// Skewed, so that code lengths differ.
				src[k] = byte(min(rng.IntN(alpha), rng.IntN(alpha)))
			}
			frame := enc.EncodeAll(src, nil)
			if agree(t, &d, frame, n) {
				took++
			}
		}
	}
	if took < 100 {
		t.Errorf("only %d of 900 frames taken: the test no longer reaches the decoder", took)
	}
}

// TestFullAlphabet compresses literals that use all 256 byte values: the
// tree description then sends 255 weights (the last is implied), the most
// the format allows, and Decode must take those frames.
func TestFullAlphabet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderCRC(false), zstd.WithAllLitEntropyCompression(true), zstd.WithSingleSegment(true))
	if err != nil {
		t.Fatal(err)
	}
	var d Decoder
	took := 0
	for i := 0; i < 40; i++ {
		n := 1024 + rng.IntN(MaxSize-1024)
		src := make([]byte, n)
		for k := range src {
			// 6 bits of entropy: Huffman saves enough for the encoder to
			// keep it, and 4-byte repeats (matches) are rare.
			src[k] = byte(rng.IntN(64))
		}
		for k, v := range rng.Perm(256) { // and every value present
			src[k*(n/256)] = byte(v)
		}
		if agree(t, &d, enc.EncodeAll(src, nil), n) {
			took++
		}
	}
	if took < 20 {
		t.Errorf("%d of 40 full-alphabet frames taken", took)
	}
}

// TestDamaged changes every byte of the c-blosc2 frames in turn and cuts
// them short: whatever Decode takes, the reference must decode the same.
func TestDamaged(t *testing.T) {
	srcs, sizes := cblosc2Frames(t)
	var d Decoder
	for i, src := range srcs[:8] {
		buf := make([]byte, len(src))
		for k := range src {
			for _, x := range []byte{1, 0x10, 0x80, 0xFF} {
				copy(buf, src)
				buf[k] ^= x
				agree(t, &d, buf, sizes[i])
			}
			agree(t, &d, src[:k], sizes[i])
		}
	}
}

func FuzzDecode(f *testing.F) {
	srcs, sizes := cblosc2Frames(f)
	for i, src := range srcs {
		f.Add(src, uint16(sizes[i]))
	}
	var d Decoder
	f.Fuzz(func(t *testing.T, src []byte, n uint16) {
		agree(t, &d, src, int(n)%(MaxSize+1))
	})
}

func BenchmarkCBlosc2Frames(b *testing.B) {
	srcs, sizes := cblosc2Frames(b)
	srcs, sizes = srcs[:24], sizes[:24]
	dst := make([]byte, 256)
	b.Run("zstdlit", func(b *testing.B) {
		var d Decoder
		for b.Loop() {
			for i, src := range srcs {
				if !d.Decode(dst[:sizes[i]], src) {
					b.Fatal("declined")
				}
			}
		}
	})
	b.Run("klauspost", func(b *testing.B) {
		zd, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true))
		for b.Loop() {
			for i, src := range srcs {
				if _, err := zd.DecodeAll(src, dst[:0:sizes[i]]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
