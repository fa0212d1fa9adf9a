package parquet

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// The byte strings are the worked examples of the Parquet encodings spec
// (Encodings.md, "Run Length Encoding / Bit-Packing Hybrid" and the
// deprecated "Bit-packed" level encoding): the values 0..7 at width 3.
func TestDecodeHybrid(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		bw   int
		n    int
		want []int32
	}{
		{"rle", []byte{5 << 1, 0x05}, 3, 5, []int32{5, 5, 5, 5, 5}},
		{"bitpacked", []byte{1<<1 | 1, 0x88, 0xC6, 0xFA}, 3, 8, []int32{0, 1, 2, 3, 4, 5, 6, 7}},
		{"bitpacked padding dropped", []byte{1<<1 | 1, 0x88, 0xC6, 0xFA}, 3, 6, []int32{0, 1, 2, 3, 4, 5}},
		{"rle then bitpacked", []byte{3 << 1, 0x02, 1<<1 | 1, 0x88, 0xC6, 0xFA}, 3, 11, []int32{2, 2, 2, 0, 1, 2, 3, 4, 5, 6, 7}},
		{"rle run longer than needed (100, two-byte header)", []byte{0xC8, 0x01, 0x01}, 1, 4, []int32{1, 1, 1, 1}},
		{"two-byte rle value", []byte{2 << 1, 0x34, 0x12}, 13, 2, []int32{0x1234, 0x1234}},
		{"width 0", []byte{1<<1 | 1}, 0, 8, []int32{0, 0, 0, 0, 0, 0, 0, 0}},
		{"width 32", []byte{1 << 1, 0xff, 0xff, 0xff, 0x7f}, 32, 1, []int32{0x7fffffff}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeHybrid(tc.src, tc.bw, tc.n, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDecodeHybridCorrupt(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		bw   int
		n    int
	}{
		{"empty", nil, 3, 1},
		{"width 33", []byte{2, 0}, 33, 1},
		{"rle value truncated", []byte{2 << 1}, 9, 2},
		{"rle value too wide", []byte{2 << 1, 0x09}, 3, 2},
		{"rle of zero", []byte{0, 0x01}, 1, 1},
		{"bitpacked truncated", []byte{2<<1 | 1, 0x88, 0xC6, 0xFA}, 3, 16},
		{"bitpacked of zero groups", []byte{1}, 3, 1},
		{"runs end early", []byte{2 << 1, 0x01}, 1, 5},
		{"header overflow", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 1, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeHybrid(tc.src, tc.bw, tc.n, nil)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("err = %v, want ErrCorrupt", err)
			}
		})
	}
}

func TestUnpackLegacyLevels(t *testing.T) {
	got, err := unpackLegacyLevels([]byte{0x05, 0x39, 0x77}, 3, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{0, 1, 2, 3, 4, 5, 6, 7}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if _, err := unpackLegacyLevels([]byte{0x05}, 3, 8, nil); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("truncated: err = %v", err)
	}
}

// FuzzDecodeHybrid: never panics, never returns more than n values.
func FuzzDecodeHybrid(f *testing.F) {
	f.Add([]byte{3 << 1, 0x02, 1<<1 | 1, 0x88, 0xC6, 0xFA}, uint8(3), uint16(11))
	f.Add([]byte{1 << 1, 0xff, 0xff, 0xff, 0x7f}, uint8(32), uint16(1))
	f.Fuzz(func(t *testing.T, src []byte, bw uint8, n uint16) {
		g := fuzzguard.Start(t, len(src))
		defer g.Done()
		g.Allow(16 * int(n)) // the values
		out, err := decodeHybrid(src, int(bw), int(n), nil)
		if err == nil && len(out) != int(n) {
			t.Fatalf("%d values for %d", len(out), n)
		}
		if err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestUnpackWidths packs values bit by bit (the spec's little-endian
// order) and checks unpack at every width and several lengths, so that
// its one-load-per-group and one-load-per-value paths and its tail agree.
func TestUnpackWidths(t *testing.T) {
	for bw := 0; bw <= 32; bw++ {
		for _, cnt := range []int{1, 7, 8, 9, 64, 100} {
			vals := make([]int32, cnt)
			for i := range vals {
				x := uint64(i*2654435761+bw) & (1<<uint(bw) - 1)
				vals[i] = int32(x)
			}
			src := make([]byte, (cnt*bw+7)/8)
			for i, v := range vals {
				for j := 0; j < bw; j++ {
					if uint32(v)>>uint(j)&1 != 0 {
						p := i*bw + j
						src[p/8] |= 1 << uint(p%8)
					}
				}
			}
			got := unpack(src, bw, cnt, []int32{-9})
			if got[0] != -9 || !slices.Equal(got[1:], vals) {
				t.Fatalf("bw=%d cnt=%d: got %v, want %v", bw, cnt, got[1:], vals)
			}
		}
	}
}

// TestDecodeHybridShortRuns alternates one-group bit-packed runs with RLE
// runs of all-ones values at every width: unpack reads 8 bytes at a time
// past the end of a run into the next run's header and value, and none of
// those bits may reach a value.
func TestDecodeHybridShortRuns(t *testing.T) {
	for bw := 1; bw <= 32; bw++ {
		ones := uint32(1<<uint(bw) - 1)
		var src []byte
		var want []int32
		for run := range 20 {
			group := make([]int32, 8)
			for j := range group {
				group[j] = int32(uint32(run*8+j) * 2654435761 & ones)
			}
			packed := make([]byte, bw) // 8 values of bw bits, bit by bit
			for j, v := range group {
				for b := 0; b < bw; b++ {
					if uint32(v)>>uint(b)&1 != 0 {
						p := j*bw + b
						packed[p/8] |= 1 << uint(p%8)
					}
				}
			}
			src = append(append(src, 1<<1|1), packed...)
			want = append(want, group...)
			src = append(src, 3<<1)
			for b := 0; b < (bw+7)/8; b++ {
				src = append(src, byte(ones>>(8*b)))
			}
			want = append(want, int32(ones), int32(ones), int32(ones))
		}
		got, err := decodeHybrid(src, bw, len(want), nil)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("bw=%d: got %v (%v), want %v", bw, got, err, want)
		}
	}
}

// BenchmarkUnpack unpacks 64K bit-packed values per width: narrow codes
// (one load per group), dates and keys (9..24 bits: one load per value at
// offsets fixed per group), and wide values.
func BenchmarkUnpack(b *testing.B) {
	const n = 64 << 10
	for _, bw := range []int{2, 6, 12, 14, 20, 28} {
		src := make([]byte, n*bw/8+8)
		for i := range src {
			src[i] = byte(i * 7919)
		}
		out := make([]int32, 0, n)
		b.Run(fmt.Sprintf("bw=%d", bw), func(b *testing.B) {
			b.SetBytes(n * 4)
			cpu0 := cpuTime()
			for b.Loop() {
				out = unpack(src, bw, n, out[:0])
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/(float64(b.N)*n), "cpu-ns/value")
		})
	}
}

// checkLazyCodes compares lazyCodes with decodeHybrid (the reference,
// checked against the spec's examples above) on one input: same success,
// and the same values through fill (in pieces) and at (in any order).
func checkLazyCodes(t *testing.T, src []byte, bw, n int, piece int) {
	t.Helper()
	want, werr := decodeHybrid(src, bw, n, nil)
	if werr == nil && slices.Contains(want, -1) {
		return // 2^32-1 is no index below any dictionary size lazyCodes takes
	}
	var l lazyCodes
	lerr := l.reset(src, bw, n, math.MaxUint32)
	if (werr == nil) != (lerr == nil) {
		t.Fatalf("decodeHybrid err %v, lazyCodes err %v", werr, lerr)
	}
	if lerr != nil {
		if !errors.Is(lerr, ErrCorrupt) {
			t.Fatalf("err = %v", lerr)
		}
		return
	}
	got := make([]int32, n)
	piece = max(piece, 1)
	for i := 0; i < n; i += piece {
		if err := l.fill(i, got[i:min(i+piece, n)]); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("fill by %d: got %v, want %v", piece, got, want)
	}
	for _, i := range []int{n - 1, 0, n / 2, n / 3, n - 1, 1} {
		if i < 0 || i >= n {
			continue
		}
		c, err := l.at(i)
		if err != nil || c != want[i] {
			t.Fatalf("at(%d) = %d, %v; want %d", i, c, err, want[i])
		}
	}
	checkGatherCodes(t, src, bw, n, piece, want)
}

// checkGatherCodes checks gatherCodes, in pieces, and gatherLazy, over
// every piece-th index, against dict[want[i]] for a dictionary covering
// every index, and that gatherCodes fails with ErrCorrupt on one a value
// too short (the largest index then is out of range), for int64 and
// float64 dictionaries.
func checkGatherCodes(t *testing.T, src []byte, bw, n, piece int, want []int32) {
	t.Helper()
	if n == 0 || slices.Max(want) >= 1<<16 || slices.Min(want) < 0 {
		return // no dictionary of that size (indices of 2^31 bits and more read as negative)
	}
	hi := int(slices.Max(want))
	for _, size := range []int{hi + 1, hi} {
		dictI := make([]int64, size)
		dictF := make([]float64, size)
		for i := range dictI {
			dictI[i], dictF[i] = int64(i)*3+1, float64(i)/2
		}
		var l lazyCodes
		err := l.reset(src, bw, n, uint32(size))
		outI, outF := make([]int64, n), make([]float64, n)
		for i := 0; err == nil && i < n; i += piece {
			if err = gatherCodes(&l, i, dictI, outI[i:min(i+piece, n)]); err == nil {
				err = gatherCodes(&l, i, dictF, outF[i:min(i+piece, n)])
			}
		}
		if size == hi {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("gatherCodes over %d values, index %d: err = %v", size, hi, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range want {
			if outI[i] != dictI[c] || outF[i] != dictF[c] {
				t.Fatalf("gatherCodes by %d: value %d = %d, %v; want %d, %v", piece, i, outI[i], outF[i], dictI[c], dictF[c])
			}
		}
		// gatherLazy over every piece-th row (all of them for piece 1).
		var rows []int
		for i := 0; i < n; i += piece {
			rows = append(rows, i)
		}
		lazy := make([]int64, n)
		if err := gatherLazy(lazy, rows, 0, &l, dictI, 0); err != nil {
			t.Fatalf("gatherLazy every %d: %v", piece, err)
		}
		for _, i := range rows {
			if lazy[i] != dictI[want[i]] {
				t.Fatalf("gatherLazy every %d: value %d = %d, want %d", piece, i, lazy[i], dictI[want[i]])
			}
		}
	}
}

// TestLazyCodes: RLE and bit-packed runs at widths 0..32, read whole, in
// pieces that start inside groups, and value by value; indices at or above
// the dictionary size are errors wherever they are read.
func TestLazyCodes(t *testing.T) {
	for bw := 0; bw <= 32; bw++ {
		// An RLE run of 5, a bit-packed run of 3 groups, an RLE run of 30.
		var src []byte
		rv := uint32(1<<uint(bw)-1) & 0x55555555
		src = append(src, 5<<1)
		for b := 0; b < (bw+7)/8; b++ {
			src = append(src, byte(rv>>(8*b)))
		}
		src = append(src, 3<<1|1)
		for k := 0; k < 3*bw; k++ {
			src = append(src, byte(k*37+bw))
		}
		src = append(src, 30<<1)
		for b := 0; b < (bw+7)/8; b++ {
			src = append(src, byte(rv>>(8*b+1)))
		}
		for _, n := range []int{1, 5, 6, 13, 29, 59} {
			for _, piece := range []int{1, 3, 8, 64} {
				checkLazyCodes(t, src, bw, n, piece)
			}
		}
	}
	// Bit-packed 0, 1, …, 15 at width 4 against a dictionary of 10.
	src := []byte{2<<1 | 1, 0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe}
	var l lazyCodes
	if err := l.reset(src, 4, 16, 10); err != nil {
		t.Fatal(err)
	}
	if c, err := l.at(9); err != nil || c != 9 {
		t.Fatalf("at(9) = %d, %v", c, err)
	}
	if _, err := l.at(10); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("at(10): err = %v", err)
	}
	if err := l.fill(0, make([]int32, 16)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("fill: err = %v", err)
	}
	if err := l.reset([]byte{4 << 1, 12}, 4, 4, 10); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("RLE index 12 of 10: err = %v", err)
	}
}

// gatherTestPage is the page of TestGatherCodesWidths at width bw: an RLE
// run of 5 zeros, then 800 indices bit-packed here bit by bit (below 2^20,
// the largest, size-1, at index 42); size is the dictionary size they need.
func gatherTestPage(bw int) (src []byte, vals []int32, size int) {
	size = 1 << min(bw, 20)
	vals = make([]int32, 805)
	for i := range vals {
		vals[i] = int32(uint32(i*2654435761+bw) % uint32(size))
		if i < 5 {
			vals[i] = 0
		}
	}
	vals[5+37] = int32(size - 1)
	src = []byte{5 << 1}
	for b := 0; b < (bw+7)/8; b++ {
		src = append(src, 0)
	}
	src = append(src, 100<<1|1, 100>>6) // ULEB128 of 100 groups, bit-packed
	packed := make([]byte, 100*bw)
	for j, v := range vals[5:] {
		for b := 0; b < bw; b++ {
			if uint32(v)>>uint(b)&1 != 0 {
				p := j*bw + b
				packed[p/8] |= 1 << uint(p%8)
			}
		}
	}
	return append(src, packed...), vals, size
}

// TestGatherLazyWidths gathers selected rows (some in the RLE run, the
// first after it, every third, a dense stretch, the page's last rows, whose
// loads would pass its end) of gatherTestPage at every width through
// gatherLazy, with the page's values starting at several offsets of the
// batch, against dict[index]; with the dictionary one value short,
// selecting index 42 is ErrCorrupt.
func TestGatherLazyWidths(t *testing.T) {
	for bw := 1; bw <= 32; bw++ {
		src, vals, size := gatherTestPage(bw)
		var rows []int
		for i := 0; i < len(vals); i++ {
			if i < 3 || i == 5 || i%3 == 0 || (i >= 300 && i < 400) || i >= len(vals)-4 {
				rows = append(rows, i)
			}
		}
		for _, dictLen := range []int{size, size - 1} {
			dict := make([]int64, dictLen)
			for i := range dict {
				dict[i] = int64(i)*3 + 1
			}
			for _, base := range []int{0, 7} {
				var l lazyCodes
				if err := l.reset(src, bw, len(vals), uint32(dictLen)); err != nil {
					t.Fatalf("bw=%d: %v", bw, err)
				}
				// Batch row base+i is page index i: vpos 0 at row base.
				shifted := make([]int, len(rows))
				for k, r := range rows {
					shifted[k] = r + base
				}
				out := make([]int64, len(vals)+base)
				err := gatherLazy(out, shifted, base, &l, dict, 0)
				if dictLen < size {
					if !errors.Is(err, ErrCorrupt) {
						t.Fatalf("bw=%d base=%d: index %d of a %d-value dictionary: err = %v", bw, base, size-1, dictLen, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("bw=%d base=%d: %v", bw, base, err)
				}
				for _, r := range rows {
					if want := int64(vals[r])*3 + 1; out[r+base] != want {
						t.Fatalf("bw=%d base=%d: row %d = %d, want %d", bw, base, r, out[r+base], want)
					}
				}
			}
		}
	}
}

// TestGatherCodesWidths gathers, at every width, an RLE run of 5 zeros and a
// bit-packed run of 800 indices packed bit by bit here, in pieces that
// start inside and on groups of 32 (gatherCodes takes whole groups of 32
// through the width's generated function, the rest index by index), and
// checks each value against dict[index]; then with the dictionary one
// value short, the largest index (placed inside a group of 32) must be
// ErrCorrupt. Indices stay below 2^20 (a 1M-value dictionary) even at
// wider widths.
func TestGatherCodesWidths(t *testing.T) {
	for bw := 1; bw <= 32; bw++ {
		src, vals, size := gatherTestPage(bw)
		for _, dictLen := range []int{size, size - 1} {
			dict := make([]int64, dictLen)
			for i := range dict {
				dict[i] = int64(i)*3 + 1
			}
			for _, piece := range []int{805, 7, 32, 45} {
				var l lazyCodes
				if err := l.reset(src, bw, len(vals), uint32(dictLen)); err != nil {
					t.Fatalf("bw=%d: %v", bw, err)
				}
				out := make([]int64, len(vals))
				var err error
				for i := 0; err == nil && i < len(vals); i += piece {
					err = gatherCodes(&l, i, dict, out[i:min(i+piece, len(vals))])
				}
				if dictLen < size {
					if !errors.Is(err, ErrCorrupt) {
						t.Fatalf("bw=%d piece=%d: index %d of a %d-value dictionary: err = %v", bw, piece, size-1, dictLen, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("bw=%d piece=%d: %v", bw, piece, err)
				}
				for i, v := range vals {
					if out[i] != int64(v)*3+1 {
						t.Fatalf("bw=%d piece=%d: value %d = %d, want %d", bw, piece, i, out[i], int64(v)*3+1)
					}
				}
			}
		}
	}
}

// FuzzLazyCodes: lazyCodes agrees with decodeHybrid on any input.
func FuzzLazyCodes(f *testing.F) {
	f.Add([]byte{3 << 1, 0x02, 1<<1 | 1, 0x88, 0xC6, 0xFA}, uint8(3), uint16(11), uint8(3))
	f.Add([]byte{2<<1 | 1, 0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe, 4 << 1, 7}, uint8(4), uint16(20), uint8(5))
	f.Fuzz(func(t *testing.T, src []byte, bw uint8, n uint16, piece uint8) {
		g := fuzzguard.Start(t, len(src))
		defer g.Done()
		g.Allow(64 * int(n)) // the codes, both ways, and the pieces
		checkLazyCodes(t, src, int(bw), int(n), int(piece))
	})
}
