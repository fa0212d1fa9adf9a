package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"

	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// encodeDelta is an independent DELTA_BINARY_PACKED encoder written from
// the format description (not from delta.go): blocks of blockSize values in
// minis miniblocks; pad false cuts the last miniblock after its values, as
// a lax writer might. width32 computes deltas in 32-bit arithmetic.
func encodeDelta(vals []int64, blockSize, minis int, width32, pad bool) []byte {
	out := binary.AppendUvarint(nil, uint64(blockSize))
	out = binary.AppendUvarint(out, uint64(minis))
	out = binary.AppendUvarint(out, uint64(len(vals)))
	if len(vals) == 0 {
		return binary.AppendVarint(out, 0)
	}
	out = binary.AppendVarint(out, vals[0])
	perMini := blockSize / minis
	deltas := make([]uint64, 0, len(vals))
	for i := 1; i < len(vals); i++ {
		if width32 {
			deltas = append(deltas, uint64(int64(int32(vals[i])-int32(vals[i-1]))))
		} else {
			deltas = append(deltas, uint64(vals[i]-vals[i-1]))
		}
	}
	for b := 0; b < len(deltas); b += blockSize {
		block := deltas[b:min(b+blockSize, len(deltas))]
		minD := int64(block[0])
		for _, d := range block {
			minD = min(minD, int64(d))
		}
		out = binary.AppendVarint(out, minD)
		widths := make([]int, minis)
		for m := range minis {
			lo := m * perMini
			for _, d := range block[min(lo, len(block)):min(lo+perMini, len(block))] {
				u := d - uint64(minD)
				if width32 {
					u = uint64(uint32(u))
				}
				widths[m] = max(widths[m], bits.Len64(u))
			}
			out = append(out, byte(widths[m]))
		}
		for m := range minis {
			lo := m * perMini
			if lo >= len(block) {
				break
			}
			n := perMini
			if !pad {
				n = min(perMini, len(block)-lo)
			}
			packed := make([]byte, (n*widths[m]+7)/8)
			for i := 0; i < n && lo+i < len(block); i++ {
				u := block[lo+i] - uint64(minD)
				for j := 0; j < widths[m]; j++ {
					if u>>uint(j)&1 != 0 {
						p := i*widths[m] + j
						packed[p/8] |= 1 << uint(p%8)
					}
				}
			}
			out = append(out, packed...)
		}
	}
	return out
}

// deltaCases are value sequences for the delta tests: sorted keys with
// repeats (TPC-H orderkeys), a constant step, random jumps across the whole
// range (64-bit wrapping deltas), and the extremes.
func deltaCases(n int, width32 bool) map[string][]int64 {
	lim := func(x int64) int64 {
		if width32 {
			return int64(int32(x))
		}
		return x
	}
	cases := map[string][]int64{}
	add := func(name string, f func(i int) int64) {
		v := make([]int64, n)
		for i := range v {
			v[i] = lim(f(i))
		}
		cases[name] = v
	}
	add("keys", func(i int) int64 { return int64(i/4*32 + i%3) })
	add("step", func(i int) int64 { return 1_000_000 - int64(i)*7 })
	add("random", func(i int) int64 { return int64(uint64(i*i+1) * 0x9E3779B97F4A7C15) })
	add("extremes", func(i int) int64 {
		if i%2 == 0 {
			return math.MinInt64
		}
		return math.MaxInt64
	})
	add("small", func(i int) int64 { return int64(i*i%1000) - 500 })
	return cases
}

func TestDecodeDelta(t *testing.T) {
	for _, width32 := range []bool{false, true} {
		for _, n := range []int{0, 1, 2, 31, 32, 33, 128, 129, 1000} {
			for name, vals := range deltaCases(n, width32) {
				for _, layout := range [][2]int{{128, 4}, {128, 1}, {256, 8}} {
					for _, pad := range []bool{true, false} {
						where := fmt.Sprintf("width32=%v n=%d %s block=%v pad=%v", width32, n, name, layout, pad)
						src := encodeDelta(vals, layout[0], layout[1], width32, pad)
						got, err := decodeDelta(src, n, width32, []int64{42})
						if err != nil {
							t.Fatalf("%s: %v", where, err)
						}
						if !slices.Equal(got, vals) {
							t.Fatalf("%s: got %v, want %v", where, got, vals)
						}
						// A prefix: readers may need fewer values than the page holds.
						if n > 3 {
							got, err = decodeDelta(src, n-3, width32, nil)
							if err != nil || !slices.Equal(got, vals[:n-3]) {
								t.Fatalf("%s: prefix: got %v (%v), want %v", where, got, err, vals[:n-3])
							}
						}
					}
				}
			}
		}
	}
}

// TestDecodeDeltaWidths decodes, at every bit width of each column type,
// sequences whose deltas span exactly that width (so the writer packs every
// miniblock at it), which exercises each generated group decoder
// (deltaunpack_gen.go), through whole blocks (deltaBlock) and through the
// per-miniblock path and its generic tail: 300 values are a first value,
// two whole blocks of 128 deltas and 43 deltas (a group of 32 and 11).
func TestDecodeDeltaWidths(t *testing.T) {
	for _, width32 := range []bool{false, true} {
		maxW := 64
		if width32 {
			maxW = 32
		}
		for bw := 1; bw <= maxW; bw++ {
			vals := make([]int64, 300)
			x := uint64(bw) * 0x9E3779B97F4A7C15
			span := ^uint64(0) >> (64 - uint(bw)) // the largest delta of bw bits
			for i := 1; i < len(vals); i++ {
				x = x*6364136223846793005 + 1442695040888963407
				d := x
				if bw < 64 {
					d = x >> 11 % (span + 1)
				}
				if i == 1 {
					d = span // one delta of the full width, one of 0
				} else if i == 2 {
					d = 0
				}
				vals[i] = vals[i-1] + int64(d) - 7
				if width32 {
					vals[i] = int64(int32(vals[i-1]) + int32(uint32(d)) - 7)
				}
			}
			for _, pad := range []bool{true, false} {
				src := encodeDelta(vals, 128, 4, width32, pad)
				if w := firstDeltaWidth(src); w != bw {
					t.Fatalf("width32=%v bw=%d: the first miniblock is packed at width %d", width32, bw, w)
				}
				got, err := decodeDelta(src, len(vals), width32, nil)
				if err != nil || !slices.Equal(got, vals) {
					t.Fatalf("width32=%v bw=%d pad=%v: got %v (%v), want %v", width32, bw, pad, got, err, vals)
				}
			}
		}
	}
}

// firstDeltaWidth is the bit width of the first miniblock of a
// DELTA_BINARY_PACKED page: after the header's four varints and the first
// block's min delta.
func firstDeltaWidth(src []byte) int {
	for range 5 {
		_, k := binary.Uvarint(src)
		src = src[k:]
	}
	return int(src[0])
}

func TestDecodeDeltaCorrupt(t *testing.T) {
	vals := deltaCases(300, false)["small"]
	good := encodeDelta(vals, 128, 4, false, true)
	hdr := func(block, minis, total uint64) []byte {
		b := binary.AppendUvarint(nil, block)
		b = binary.AppendUvarint(b, minis)
		b = binary.AppendUvarint(b, total)
		return binary.AppendVarint(b, 5)
	}
	wide := append(hdr(128, 4, 10), 0, 65, 0, 0, 0) // min delta 0, then a width of 65
	for _, tc := range []struct {
		name    string
		src     []byte
		n       int
		width32 bool
	}{
		{"empty", nil, 1, false},
		{"header-cut", good[:3], 1, false},
		{"block-not-128", hdr(100, 4, 10), 2, false},
		{"mini-not-32", hdr(128, 8, 10), 2, false},
		{"zero-minis", hdr(128, 0, 10), 2, false},
		{"huge-block", hdr(1<<30, 4, 10), 2, false},
		{"too-few-values", hdr(128, 4, 10), 11, false},
		{"width-65", wide, 10, false},
		{"width-33-int32", append(hdr(128, 4, 10), 0, 33, 0, 0, 0), 10, true},
		{"body-cut", good[:len(good)/2], 300, false},
		{"widths-cut", hdr(128, 4, 10), 10, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeDelta(tc.src, tc.n, tc.width32, nil)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("err = %v, want ErrCorrupt", err)
			}
		})
	}
}

// FuzzDecodeDelta: never panics; success means exactly n values; errors
// wrap ErrCorrupt.
func FuzzDecodeDelta(f *testing.F) {
	for _, vals := range deltaCases(200, false) {
		f.Add(encodeDelta(vals, 128, 4, false, true), uint16(200), false)
	}
	for _, vals := range deltaCases(50, true) {
		f.Add(encodeDelta(vals, 256, 8, true, false), uint16(50), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, n uint16, width32 bool) {
		g := fuzzguard.Start(t, len(src))
		defer g.Done()
		g.Allow(16 * int(n)) // the values and the decoder's block of them
		out, err := decodeDelta(src, int(n), width32, nil)
		if err == nil && len(out) != int(n) {
			t.Fatalf("%d values for %d", len(out), n)
		}
		if err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("err = %v", err)
		}
		if width32 && err == nil {
			for _, v := range out {
				if v != int64(int32(v)) {
					t.Fatalf("INT32 value %d out of range", v)
				}
			}
		}
	})
}

// BenchmarkDecodeDelta decodes a page of sorted keys with repeats (the
// shape of TPC-H's l_orderkey) and one of random 64-bit values.
func BenchmarkDecodeDelta(b *testing.B) {
	const n = 64 << 10
	for _, name := range []string{"keys", "small", "random"} {
		vals := deltaCases(n, false)[name]
		src := encodeDelta(vals, 128, 4, false, true)
		b.Run(name, func(b *testing.B) {
			out := make([]int64, n)
			b.ReportAllocs()
			b.SetBytes(8 * n)
			for b.Loop() {
				var err error
				if out, err = decodeDelta(src, n, false, out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*n/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkScanDelta scans DELTA_BINARY_PACKED int64 columns shaped like
// TPC-H's l_orderkey (sorted, repeated) and l_extendedprice (scattered in
// a range), in 122,880-row row groups of 64 KiB pages, through codeReader
// and through arrow-go's decoder (cpu-ns/row is the figure to compare).
func BenchmarkScanDelta(b *testing.B) {
	const n = 1 << 20
	price := func(i int) int64 { return 90_000 + int64(uint64(i)*0x9E3779B97F4A7C15>>40)%10_000_000 }
	cols := []tcol{
		{name: "key", typ: arrow.PrimitiveTypes.Int64, want: columnar.TInt64,
			app: func(bd array.Builder, i int) { bd.(*array.Int64Builder).Append(int64(i/4*32 + i%3)) }},
		{name: "price", typ: arrow.PrimitiveTypes.Int64, want: columnar.TInt64,
			app: func(bd array.Builder, i int) { bd.(*array.Int64Builder).Append(price(i)) }},
	}
	path := filepath.Join(b.TempDir(), "delta.parquet")
	writeArrow(b, path, cols, 0, n, 122_880, false, append(deltaProps("key", "price"), parquet.WithDataPageSize(64<<10))...)
	tb, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	defer func(old bool) { deltaDecoder = old }(deltaDecoder)
	for c, col := range cols {
		for _, ours := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/codeReader=%v", col.name, ours), func(b *testing.B) {
				deltaDecoder = ours
				b.SetBytes(8 * n)
				cpu0 := cpuTime()
				for b.Loop() {
					if rows := scanRows(b, tb, c); rows != n {
						b.Fatalf("%d rows", rows)
					}
				}
				b.ReportMetric(float64(cpuTime()-cpu0)/(float64(b.N)*n), "cpu-ns/row")
			})
		}
	}
}
