package b2

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// ndItem is the known answer for element i (flat C-order index) of the
// test arrays: byte k of the item is byte k of i*i*7 - 3*i + 11 (LE).
func ndItem(dst []byte, i int64) {
	v := uint64(i*i*7 - 3*i + 11)
	for k := range dst {
		dst[k] = byte(v >> (8 * (k % 8)))
	}
}

func ndData(shape []int64, isz int) []byte {
	n := int64(1)
	for _, s := range shape {
		n *= s
	}
	b := make([]byte, n*int64(isz))
	for i := int64(0); i < n; i++ {
		ndItem(b[i*int64(isz):(i+1)*int64(isz)], i)
	}
	return b
}

// forChunks calls fn with the coordinates and [lo, hi) box of every chunk
// in C order.
func forChunks(shape []int64, cs []int, fn func(cc, lo, hi []int64)) {
	nd := len(shape)
	grid := make([]int64, nd)
	for d := range grid {
		grid[d] = (shape[d] + int64(cs[d]) - 1) / int64(cs[d])
		if grid[d] == 0 {
			return
		}
	}
	cc := make([]int64, nd)
	for {
		lo, hi := make([]int64, nd), make([]int64, nd)
		for d := range cc {
			lo[d] = cc[d] * int64(cs[d])
			hi[d] = min(shape[d], lo[d]+int64(cs[d]))
		}
		fn(cc, lo, hi)
		d := nd - 1
		for ; d >= 0; d-- {
			cc[d]++
			if cc[d] < grid[d] {
				break
			}
			cc[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// checkChunkLayout decompresses every chunk and compares it, padding
// included, with the layout of spec §4.3 computed element by element:
// offset = (lin(bidx) × prod(blockshape) + lin(e)) × itemsize, zeros where
// the position is outside chunkshape or shape.
func checkChunkLayout(t *testing.T, a *Array, want []byte) {
	t.Helper()
	m := a.Meta
	nd := len(m.Shape)
	isz := int64(a.ItemSize())
	ext := make([]int64, nd)
	bgrid := make([]int64, nd)
	citems, bitems := int64(1), int64(1)
	for d := 0; d < nd; d++ {
		ext[d] = (int64(m.ChunkShape[d]) + int64(m.BlockShape[d]) - 1) / int64(m.BlockShape[d]) * int64(m.BlockShape[d])
		bgrid[d] = ext[d] / int64(m.BlockShape[d])
		citems *= ext[d]
		bitems *= int64(m.BlockShape[d])
	}
	got := make([]byte, citems*isz)
	exp := make([]byte, citems*isz)
	n := 0
	forChunks(m.Shape, m.ChunkShape, func(cc, _, _ []int64) {
		if _, err := a.Frame.DecompressChunk(nil, got, n); err != nil {
			t.Fatalf("chunk %d: %v", n, err)
		}
		clear(exp)
		for e := int64(0); e < citems; e++ {
			nb, ib := e/bitems, e%bitems
			flat, inside := int64(0), true
			bc, be := make([]int64, nd), make([]int64, nd)
			for d := nd - 1; d >= 0; d-- {
				bc[d], nb = nb%bgrid[d], nb/bgrid[d]
				be[d], ib = ib%int64(m.BlockShape[d]), ib/int64(m.BlockShape[d])
			}
			for d := 0; d < nd; d++ {
				l := bc[d]*int64(m.BlockShape[d]) + be[d]
				g := cc[d]*int64(m.ChunkShape[d]) + l
				if l >= int64(m.ChunkShape[d]) || g >= m.Shape[d] {
					inside = false
				}
				flat = flat*m.Shape[d] + g
			}
			if inside {
				copy(exp[e*isz:(e+1)*isz], want[flat*isz:])
			}
		}
		if !bytes.Equal(got, exp) {
			t.Fatalf("chunk %d %v: layout differs at byte %d: % x vs % x", n, cc, firstDiff(got, exp), got[:min(16, len(got))], exp[:min(16, len(exp))])
		}
		n++
	})
	if n != a.NChunks() {
		t.Fatalf("%d chunks, frame has %d", n, a.NChunks())
	}
}

var ndStreamCases = []struct {
	name         string
	dtype        string
	shape        []int64
	chunk, block []int
	p            *CParams
}{
	{"i4/3d/edges/zstd5", "<i4", []int64{23, 17, 9}, []int{10, 6, 9}, []int{3, 4, 2},
		&CParams{Codec: Zstd, CLevel: 5, Filters: [6]uint8{5: FilterShuffle}}},
	{"f8/3d/lz4/bitshuffle", "<f8", []int64{37, 29, 13}, []int{8, 10, 5}, []int{3, 3, 2},
		&CParams{Codec: LZ4, CLevel: 5, Filters: [6]uint8{5: FilterBitShuffle}}},
	{"i2/3d/zlib/delta", "<i2", []int64{31, 33, 35}, []int{7, 9, 11}, []int{4, 4, 4},
		&CParams{Codec: Zlib, CLevel: 6, Filters: [6]uint8{4: FilterDelta, 5: FilterShuffle}}},
	{"u1/3d/blosclz/nofilter", "|u1", []int64{50, 41, 7}, []int{16, 16, 7}, []int{5, 5, 3},
		&CParams{Codec: BloscLZ, CLevel: 5}},
	{"f4/3d/bytedelta", "<f4", []int64{20, 20, 20}, []int{16, 16, 16}, []int{8, 8, 8},
		&CParams{Codec: LZ4, CLevel: 5, Filters: [6]uint8{4: FilterShuffle, 5: FilterByteDelta}, FiltersMeta: [6]uint8{5: 4}}},
	{"S5/3d/memcpy", "|S5", []int64{13, 7, 3}, []int{4, 4, 2}, []int{3, 3, 1},
		&CParams{Codec: BloscLZ, CLevel: 0, Filters: [6]uint8{5: FilterShuffle}}},
	{"u2/4d", "<u2", []int64{7, 6, 5, 9}, []int{3, 4, 2, 5}, []int{2, 3, 2, 2}, nil},
	{"f8/2d/onechunkrow", "<f8", []int64{101, 67}, []int{200, 30}, []int{7, 8}, nil},
	{"i8/1d", "<i8", []int64{12345}, []int{1000}, []int{300}, nil},
	{"u4/1d/nopadding", "<u4", []int64{10007}, []int{1024}, []int{256}, nil},
	{"c16/3d/auto", "<c16", []int64{9, 10, 11}, nil, nil, nil},
	{"f8/0d", "<f8", []int64{}, nil, nil, nil},
	{"i4/empty", "<i4", []int64{5, 0, 3}, []int{2, 2, 2}, []int{1, 1, 1}, nil},
}

// TestNDWriterStreaming writes each case three ways — WriteArray, Append
// in random pieces, WriteChunk in C order — and checks that the files are
// identical, that their chunks have the §4.3 layout and that ReadAll and
// random ReadSlice calls return the known answer.
func TestNDWriterStreaming(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	for _, tc := range ndStreamCases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, uint64(len(tc.name))))
			dt, _ := ParseDType(tc.dtype)
			isz := dt.ItemSize
			want := ndData(tc.shape, isz)
			opts := &ArrayOptions{ChunkShape: tc.chunk, BlockShape: tc.block, CParams: tc.p}
			dir := t.TempDir()
			ref := filepath.Join(dir, "ref.b2nd")
			if err := WriteArray(ref, tc.dtype, tc.shape, want, opts); err != nil {
				t.Fatal(err)
			}
			refBytes, _ := os.ReadFile(ref)

			// Append in random pieces of whole items.
			app := filepath.Join(dir, "append.b2nd")
			w, err := CreateArray(app, tc.dtype, tc.shape, opts)
			if err != nil {
				t.Fatal(err)
			}
			for off := 0; off < len(want); {
				k := min(len(want)-off, isz*(1+rng.IntN(2000)))
				if err := w.Append(want[off : off+k]); err != nil {
					t.Fatal(err)
				}
				off += k
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(app); !bytes.Equal(got, refBytes) {
				t.Fatalf("Append file differs from WriteArray's at byte %d", firstDiff(got, refBytes))
			}

			// WriteChunk in C order, each chunk's data in a fresh buffer
			// that is scribbled over afterwards.
			wc := filepath.Join(dir, "chunks.b2nd")
			w, err = CreateArray(wc, tc.dtype, tc.shape, opts)
			if err != nil {
				t.Fatal(err)
			}
			forChunks(tc.shape, w.ChunkShape(), func(cc, lo, hi []int64) {
				part := append([]byte(nil), subSlab(want, tc.shape, lo, hi, isz)...)
				if err := w.WriteChunk(cc, part); err != nil {
					t.Fatal(err)
				}
				for i := range part {
					part[i] = 0xAA
				}
			})
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
			if got, _ := os.ReadFile(wc); !bytes.Equal(got, refBytes) {
				t.Fatalf("WriteChunk file differs from WriteArray's at byte %d", firstDiff(got, refBytes))
			}

			a, err := OpenArray(wc)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if fmt.Sprint(a.Shape()) != fmt.Sprint(tc.shape) || a.DType.Str != tc.dtype {
				t.Fatalf("shape %v dtype %s", a.Shape(), a.DType.Str)
			}
			if tc.chunk != nil && (fmt.Sprint(a.Meta.ChunkShape) != fmt.Sprint(tc.chunk) || fmt.Sprint(a.Meta.BlockShape) != fmt.Sprint(tc.block)) {
				t.Fatalf("chunkshape %v blockshape %v", a.Meta.ChunkShape, a.Meta.BlockShape)
			}
			if tc.p == nil || tc.p.CLevel > 0 {
				checkChunkLayout(t, a, want)
			}
			got, err := a.ReadAll()
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("ReadAll: %v (diff at %d)", err, firstDiff(got, want))
			}
			for k := 0; k < 40 && len(want) > 0; k++ {
				start := make([]int64, len(tc.shape))
				stop := make([]int64, len(tc.shape))
				for i, s := range tc.shape {
					start[i] = rng.Int64N(s + 1)
					stop[i] = start[i] + rng.Int64N(s-start[i]+1)
				}
				got, err := a.Slice(start, stop)
				if err != nil {
					t.Fatalf("Slice(%v, %v): %v", start, stop, err)
				}
				if w := subSlab(want, tc.shape, start, stop, isz); !bytes.Equal(got, w) {
					t.Fatalf("Slice(%v, %v) differs at byte %d", start, stop, firstDiff(got, w))
				}
			}
		})
	}
}

// TestNDWriterGrowing appends rows to an N-d array whose first dimension
// is unknown (-1); Close records it.
func TestNDWriterGrowing(t *testing.T) {
	for _, rows := range []int64{0, 1, 4, 5, 23, 40} {
		t.Run(fmt.Sprint(rows), func(t *testing.T) {
			shape := []int64{rows, 12, 7}
			want := ndData(shape, 8)
			path := filepath.Join(t.TempDir(), "g.b2nd")
			w, err := CreateArray(path, "<i8", []int64{-1, 12, 7}, &ArrayOptions{ChunkShape: []int{5, 5, 5}, BlockShape: []int{2, 2, 2}})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteChunk([]int64{0, 0, 0}, nil); err == nil {
				t.Fatal("WriteChunk on a growing array: no error")
			}
			row := 12 * 7 * 8
			for off := 0; off < len(want); off += row {
				if err := w.Append(want[off : off+row]); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			a, err := OpenArray(path)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if fmt.Sprint(a.Shape()) != fmt.Sprint(shape) {
				t.Fatalf("shape %v, want %v", a.Shape(), shape)
			}
			checkChunkLayout(t, a, want)
			got, err := a.ReadAll()
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("ReadAll: %v", err)
			}
		})
	}
}

// dirNames lists dir, so tests can check that no temporary file is left.
func dirNames(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, e := range es {
		s = append(s, e.Name())
	}
	return strings.Join(s, ",")
}

func TestNDWriterErrors(t *testing.T) {
	shape := []int64{10, 7, 5}
	opts := &ArrayOptions{ChunkShape: []int{4, 4, 4}, BlockShape: []int{2, 2, 2}}
	data := ndData(shape, 4)
	chunk0 := subSlab(data, shape, []int64{0, 0, 0}, []int64{4, 4, 4}, 4)
	cases := []struct {
		name string
		run  func(w *NDWriter) error
		want string
	}{
		{"out of order", func(w *NDWriter) error { return w.WriteChunk([]int64{0, 0, 1}, chunk0[:4*4*4]) }, "out of order"},
		{"outside grid", func(w *NDWriter) error { return w.WriteChunk([]int64{3, 0, 0}, chunk0) }, "outside the chunk grid"},
		{"rank", func(w *NDWriter) error { return w.WriteChunk([]int64{0, 0}, chunk0) }, "have 2 dims"},
		{"short chunk", func(w *NDWriter) error { return w.WriteChunk([]int64{0, 0, 0}, chunk0[4:]) }, "need 256"},
		{"repeated chunk", func(w *NDWriter) error {
			if err := w.WriteChunk([]int64{0, 0, 0}, chunk0); err != nil {
				return err
			}
			return w.WriteChunk([]int64{0, 0, 0}, chunk0)
		}, "out of order"},
		{"mixed", func(w *NDWriter) error {
			if err := w.WriteChunk([]int64{0, 0, 0}, chunk0); err != nil {
				return err
			}
			return w.Append(data[:4])
		}, "Append after WriteChunk"},
		{"partial item", func(w *NDWriter) error { return w.Append(data[:3]) }, "whole number"},
		{"past the end", func(w *NDWriter) error { return w.Append(append(data, 0, 0, 0, 0)) }, "past the end"},
		{"incomplete rows", func(w *NDWriter) error {
			if err := w.Append(data[:4*7*5*9]); err != nil {
				return err
			}
			return w.Close()
		}, "closed after 9 of 10 rows"},
		{"partial row", func(w *NDWriter) error {
			if err := w.Append(data[:4*(7*5*9+3)]); err != nil {
				return err
			}
			return w.Close()
		}, "inside a row"},
		{"incomplete chunks", func(w *NDWriter) error {
			if err := w.WriteChunk([]int64{0, 0, 0}, chunk0); err != nil {
				return err
			}
			return w.Close()
		}, "closed after 1 of 12 chunks"},
		{"nothing", func(w *NDWriter) error { return w.Close() }, "closed after 0 of 10 rows"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := CreateArray(filepath.Join(dir, "e.b2nd"), "<i4", shape, opts)
			if err != nil {
				t.Fatal(err)
			}
			err = tc.run(w)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			w.Abort()
			if s := dirNames(t, dir); s != "" {
				t.Fatalf("left behind: %s", s)
			}
		})
	}
	// Bad arguments to CreateArray.
	dir := t.TempDir()
	for _, c := range []struct {
		dtype string
		shape []int64
		o     *ArrayOptions
	}{
		{"<i4", []int64{-2, 3}, nil},
		{"<i4", []int64{3, -1}, nil},
		{"<i8", []int64{0, 1 << 40, 1 << 40}, nil},
		{"<i8", []int64{-1, 1 << 40, 1 << 40}, nil},
		{"<x4", []int64{3}, nil},
		{"<i4", []int64{3, 3}, &ArrayOptions{ChunkShape: []int{2}, BlockShape: []int{2}}},
		{"<i4", []int64{3, 3}, &ArrayOptions{ChunkShape: []int{2, 2}, BlockShape: []int{3, 1}}},
	} {
		if _, err := CreateArray(filepath.Join(dir, "x.b2nd"), c.dtype, c.shape, c.o); err == nil {
			t.Errorf("%s %v %+v: no error", c.dtype, c.shape, c.o)
		}
	}
	if s := dirNames(t, dir); s != "" {
		t.Fatalf("left behind: %s", s)
	}
}

// TestNDWriterAbort: Abort mid-stream leaves nothing, including an
// existing file of the same name untouched.
func TestNDWriterAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.b2nd")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	shape := []int64{64, 32, 16}
	w, err := CreateArray(path, "<f8", shape, &ArrayOptions{ChunkShape: []int{4, 16, 16}, BlockShape: []int{2, 8, 8}})
	if err != nil {
		t.Fatal(err)
	}
	data := ndData(shape, 8)
	if err := w.Append(data[:len(data)/2]); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(data[:8]); err == nil {
		t.Fatal("Append after Abort: no error")
	}
	if s := dirNames(t, dir); s != "a.b2nd" {
		t.Fatalf("dir holds %s", s)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("existing file changed: %q", b)
	}
}

// TestNDWriterMemoryBound streams an array far larger than the writer's
// buffers (one chunk-row plus two chunks per worker) row by row and checks
// loosely that the bytes allocated stay far below the array size.
func TestNDWriterMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 64 MiB")
	}
	shape := []int64{512, 128, 128} // 64 MiB of <f8
	chunk := []int{8, 64, 64}       // 256 KiB chunks, 4 per chunk-row (1 MiB)
	rowBytes := 128 * 128 * 8
	total := int(shape[0]) * rowBytes
	path := filepath.Join(t.TempDir(), "big.b2nd")
	row := make([]byte, rowBytes)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	w, err := CreateArray(path, "<f8", shape, &ArrayOptions{ChunkShape: chunk, BlockShape: []int{4, 32, 32}})
	if err != nil {
		t.Fatal(err)
	}
	for r := 0; r < int(shape[0]); r++ {
		for j := 0; j < rowBytes; j += 8 {
			binary.LittleEndian.PutUint64(row[j:], math.Float64bits(float64(r*128*128+j/8)*0.5))
		}
		if err := w.Append(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	// Buffers: k chunk-rows (k = ⌈workers/4⌉), 2 chunks per worker, plus
	// codec state (zstd encoders) and the frame writer's 1 MiB bufio.
	workers := workerCount(math.MaxInt32)
	bound := uint64((workers+3)/4*chunk[0]*rowBytes + 2*workers*(256<<10) + 24<<20)
	t.Logf("array %d MiB, allocated %.1f MiB (bound %d MiB, %d workers)", total>>20, float64(alloc)/(1<<20), bound>>20, workers)
	if alloc > bound || alloc > uint64(total)/2 {
		t.Fatalf("allocated %d bytes writing a %d-byte array (bound %d)", alloc, total, bound)
	}
	a, err := OpenArray(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	got, err := a.Slice([]int64{300, 5, 7}, []int64{301, 6, 9})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range Items[float64](got) {
		if want := float64(300*128*128+5*128+7+k) * 0.5; v != want {
			t.Fatalf("item %d = %v, want %v", k, v, want)
		}
	}
}
