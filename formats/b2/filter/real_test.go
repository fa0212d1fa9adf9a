package filter_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"testing"

	"github.com/b2sql/b2sql/formats/b2/filter"
)

// TestRealChunks undoes the filters of chunks written by c-blosc2 and
// compares the result with the values fixtures/b2/README.md gives. Each case
// names the file, the block(s) it decodes and the formula for element i.

func le32s(n int, f func(i int) uint32) []byte {
	b := make([]byte, 0, 4*n)
	for i := range n {
		b = binary.LittleEndian.AppendUint32(b, f(i))
	}
	return b
}

func le64s(n int, f func(i int) uint64) []byte {
	b := make([]byte, 0, 8*n)
	for i := range n {
		b = binary.LittleEndian.AppendUint64(b, f(i))
	}
	return b
}

func mustEqual(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("%s: first difference at byte %d: got %#x, want %#x (len %d/%d)", what, i, got[i], want[i], len(got), len(want))
			}
		}
		t.Fatalf("%s: length %d, want %d", what, len(got), len(want))
	}
}

func bitUnshuffle(t *testing.T, raw []byte, ts int) []byte {
	t.Helper()
	out := make([]byte, len(raw))
	if err := filter.BitUnshuffle(out, raw, ts); err != nil {
		t.Fatal(err)
	}
	return out
}

func unshuffle(raw []byte, ts int) []byte {
	out := make([]byte, len(raw))
	filter.Unshuffle(out, raw, ts)
	return out
}

func TestRealBitshuffle(t *testing.T) {
	t.Run("sc_lz4_bitshuffle_i64", func(t *testing.T) {
		// int64 (i*i)%1000003 - 500000; chunk 0 = items 0..9999, one block.
		c := frameChunk(t, readTestdata(t, "sc_lz4_bitshuffle_i64.b2frame"), 0)
		got := bitUnshuffle(t, rawBlock(t, c, 0), 8)
		mustEqual(t, "block 0", got, le64s(10000, func(i int) uint64 { return uint64(int64(i*i%1000003 - 500000)) }))
	})
	t.Run("sc_zstd_bitshuffle_f32", func(t *testing.T) {
		c := frameChunk(t, readTestdata(t, "sc_zstd_bitshuffle_f32.b2frame"), 0)
		got := bitUnshuffle(t, rawBlock(t, c, 0), 4)
		mustEqual(t, "block 0", got, le32s(20000, func(i int) uint32 {
			return math.Float32bits(float32(i%1000)*0.5 - 3.0)
		}))
	})
	t.Run("sc_zlib_alwayssplit_bitshuffle_i32", func(t *testing.T) {
		// Split after the filter: the 4 streams are quarters of the
		// bit-shuffled block.
		c := frameChunk(t, readTestdata(t, "sc_zlib_alwayssplit_bitshuffle_i32.b2frame"), 0)
		if n := len(c.Streams(t, 0)); n != 4 {
			t.Fatalf("%d streams", n)
		}
		got := bitUnshuffle(t, rawBlock(t, c, 0), 4)
		mustEqual(t, "block 0", got, le32s(20000, func(i int) uint32 { return uint32(i * 17 % 4099) }))
	})
	t.Run("sc_lz4_bitshuffle_ts3_odd", func(t *testing.T) {
		// 3-byte items; byte k of the stream = (k*7 + k/3) & 0xFF. Blocks of
		// 1001 items (1000 bit-shuffled + 1 leftover); the last block of
		// chunk 0 has 999 items (992 + 7 leftover).
		c := frameChunk(t, readTestdata(t, "sc_lz4_bitshuffle_ts3_odd.b2frame"), 0)
		for b := range c.NBlocks() {
			got := bitUnshuffle(t, rawBlock(t, c, b), 3)
			want := make([]byte, c.BSize(b))
			for i := range want {
				k := b*3003 + i
				want[i] = byte(k*7 + k/3)
			}
			mustEqual(t, "block "+strconv.Itoa(b), got, want)
		}
	})
	t.Run("nd_bool_1d_blosclz_bitshuffle", func(t *testing.T) {
		// Chunk 3 (items 900..1199, 1000.. padding zeros) follows three
		// 352-byte memcpyed chunks; BloscLZ streams, typesize 1.
		c := frameChunk(t, readTestdata(t, "nd_bool_1d_blosclz_bitshuffle.b2nd"), 3*352)
		for b := range c.NBlocks() {
			got := bitUnshuffle(t, rawBlock(t, c, b), 1)
			want := make([]byte, 64)
			for u := range want {
				if i := 900 + 64*b + u; i < 1000 && (i%3 == 0 || i%7 == 0) {
					want[u] = 1
				}
			}
			mustEqual(t, "block "+strconv.Itoa(b), got, want)
		}
	})
	t.Run("compat_blosc-2.0.0-lz4-bitshuffle4", func(t *testing.T) {
		// Chunk version 4 (leftover rule): int32 i for i < 160273 in
		// 262144-byte blocks; the last block has 29201 items (29200 + 1).
		c := parseChunk(t, readTestdata(t, "compat_blosc-2.0.0-lz4-bitshuffle4-memcpy.cdata"))
		for b := range c.NBlocks() {
			got := bitUnshuffle(t, rawBlock(t, c, b), 4)
			first := b * c.Blocksize / 4
			mustEqual(t, "block "+strconv.Itoa(b), got, le32s(c.BSize(b)/4, func(i int) uint32 { return uint32(first + i) }))
		}
	})
}

func TestRealShuffle(t *testing.T) {
	t.Run("sc_lz4hc_shuffle_f64", func(t *testing.T) {
		c := frameChunk(t, readTestdata(t, "sc_lz4hc_shuffle_f64.b2frame"), 0)
		got := unshuffle(rawBlock(t, c, 0), 8)
		mustEqual(t, "block 0", got, le64s(12000, func(i int) uint64 { return math.Float64bits(float64(i)*0.25 - 100.0) }))
	})
	t.Run("sc_blosclz_shuffle_ts3_odd", func(t *testing.T) {
		c := frameChunk(t, readTestdata(t, "sc_blosclz_shuffle_ts3_odd.b2frame"), 0)
		for b := range c.NBlocks() {
			got := unshuffle(rawBlock(t, c, b), 3)
			want := make([]byte, c.BSize(b))
			for i := range want {
				k := b*3003 + i
				want[i] = byte(k*7 + k/3)
			}
			mustEqual(t, "block "+strconv.Itoa(b), got, want)
		}
	})
	t.Run("nd_U4_1d_zstd", func(t *testing.T) {
		// <U4 (16-byte elements, generic path): decimal (i*7)%10000, first
		// 4 chars as UCS-4 LE, NUL padded. Blocks of 32 items, 16 streams.
		c := frameChunk(t, readTestdata(t, "nd_U4_1d_zstd.b2nd"), 0)
		for b := range c.NBlocks() {
			got := unshuffle(rawBlock(t, c, b), 16)
			var want []byte
			for u := range 32 {
				s := strconv.Itoa((32*b + u) * 7 % 10000)
				for k := range 4 {
					var r uint32
					if k < len(s) {
						r = uint32(s[k])
					}
					want = binary.LittleEndian.AppendUint32(want, r)
				}
			}
			mustEqual(t, "block "+strconv.Itoa(b), got, want)
		}
	})
}

func TestRealDelta(t *testing.T) {
	// uint16 (i*7)&0xFFFF; filters DELTA (slot 4) then SHUFFLE (slot 5):
	// undo shuffle, then delta. Each chunk is one block, so block 0 rules.
	c := frameChunk(t, readTestdata(t, "sc_zlib_delta_shuffle_u16.b2frame"), 0)
	raw := unshuffle(rawBlock(t, c, 0), 2)
	filter.DeltaDecode(raw, raw, nil, 2, true)
	want := make([]byte, 0, 32768)
	for i := range 16384 {
		want = binary.LittleEndian.AppendUint16(want, uint16(i*7))
	}
	mustEqual(t, "block 0", raw, want)
}

func TestRealByteDelta(t *testing.T) {
	// int32 1000000 + i*i; SHUFFLE (slot 4) then BYTEDELTA meta 4 (slot 5).
	c := frameChunk(t, readTestdata(t, "sc_lz4_shuffle_bytedelta_i32.b2frame"), 0)
	raw := rawBlock(t, c, 0)
	filter.ByteDeltaDecode(raw, raw, 4)
	got := unshuffle(raw, 4)
	mustEqual(t, "block 0", got, le32s(12000, func(i int) uint32 { return uint32(1000000 + i*i) }))
}

func TestRealTruncPrec(t *testing.T) {
	// float64 x = i/3 + 1 written through TRUNC_PREC meta 20: decoding only
	// unshuffles; TruncPrec must reproduce what c-blosc2 stored, which the
	// README states as bits(x) & 0xFFFFFFFF00000000.
	c := frameChunk(t, readTestdata(t, "sc_zstd_truncprec20_shuffle_f64.b2frame"), 0)
	got := unshuffle(rawBlock(t, c, 0), 8)
	orig := le64s(10000, func(i int) uint64 { return math.Float64bits(float64(i)/3.0 + 1.0) })
	trunc := make([]byte, len(orig))
	if err := filter.TruncPrec(trunc, orig, 8, 20); err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "TruncPrec vs c-blosc2", trunc, got)
	mustEqual(t, "README formula", got, le64s(10000, func(i int) uint64 {
		return math.Float64bits(float64(i)/3.0+1.0) & 0xFFFFFFFF00000000
	}))
}
