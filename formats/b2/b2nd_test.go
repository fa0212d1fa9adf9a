package b2

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

func ucs4(s string, n int) []byte {
	b := make([]byte, 4*n)
	i := 0
	for _, r := range s {
		if i == n {
			break
		}
		binary.LittleEndian.PutUint32(b[4*i:], uint32(r))
		i++
	}
	return b
}

// ndFixtures: file, dtype, shape and the item bytes at flat index i.
var ndFixtures = []struct {
	file  string
	dtype string
	shape []int64
	item  func(i int64) []byte
}{
	{"nd_i32_2d_edges_zstd.b2nd", "<i4", []int64{37, 53}, func(i int64) []byte {
		return le32s(1, func(int) int32 { return int32(i/53*1000 + i%53) })
	}},
	{"nd_f64_3d_lz4.b2nd", "<f8", []int64{10, 11, 12}, func(i int64) []byte {
		a, b, c := i/(11*12), i/12%11, i%12
		return f64s(1, func(int) float64 { return float64(a*10000+b*100+c) + 0.5 })
	}},
	{"nd_bool_1d_blosclz_bitshuffle.b2nd", "|b1", []int64{1000}, func(i int64) []byte {
		if i%3 == 0 || i%7 == 0 {
			return []byte{1}
		}
		return []byte{0}
	}},
	{"nd_U4_1d_zstd.b2nd", "<U4", []int64{500}, func(i int64) []byte {
		return ucs4(fmt.Sprint((i*7)%10000), 4)
	}},
	{"nd_U80_pystyle_shufflemeta4.b2nd", "<U80", []int64{300}, func(i int64) []byte {
		return ucs4(fmt.Sprintf("row-%d-\u00e9\U0001F600", i), 80)
	}},
	{"nd_S6_2d_lz4hc.b2nd", "|S6", []int64{20, 30}, func(i int64) []byte {
		return []byte(fmt.Sprintf("r%02dc%02d", i/30, i%30))
	}},
	{"nd_u8_2d_sparse_zlib.b2nd", "|u1", []int64{100, 100}, func(i int64) []byte {
		return []byte{byte((i/100 + 2*(i%100)) % 256)}
	}},
	{"nd_i1_1d.b2nd", "|i1", []int64{10000}, func(i int64) []byte { return []byte{byte(int8(i%256 - 128))} }},
	{"nd_i2_1d.b2nd", "<i2", []int64{10000}, func(i int64) []byte {
		return le16s(1, func(int) uint16 { return uint16(int16(i*3 - 15000)) })
	}},
	{"nd_u2_1d.b2nd", "<u2", []int64{10000}, func(i int64) []byte { return le16s(1, func(int) uint16 { return uint16(i * 5) }) }},
	{"nd_u4_1d.b2nd", "<u4", []int64{10000}, func(i int64) []byte {
		return le32s(1, func(int) int32 { return int32(uint32(i * 100000)) })
	}},
	{"nd_u8_1d.b2nd", "<u8", []int64{10000}, func(i int64) []byte {
		return le64s(1, func(int) uint64 { return uint64(i)*1000000007 + 9000000000000000000 })
	}},
	{"nd_f4_1d.b2nd", "<f4", []int64{10000}, func(i int64) []byte {
		return f32s(1, func(int) float32 { return float32(i)*float32(0.125) - float32(50.0) })
	}},
	{"nd_i8_1d.b2nd", "<i8", []int64{10000}, func(i int64) []byte {
		return le64s(1, func(int) uint64 { return uint64(-i * 123456789) })
	}},
	{"nd_c16_1d.b2nd", "<c16", []int64{10000}, func(i int64) []byte {
		return append(f64s(1, func(int) float64 { return float64(i) }), f64s(1, func(int) float64 { return -float64(i) })...)
	}},
	{"nd_f8_pystyle_zstd5.b2nd", "<f8", []int64{1000}, func(i int64) []byte {
		return f64s(1, func(int) float64 { return float64(i) * 1.5 })
	}},
	{"nd_zeros_f4_2d.b2nd", "<f4", []int64{100, 100}, func(i int64) []byte { return make([]byte, 4) }},
	{"nd_scalar_f8_0d.b2nd", "<f8", []int64{}, func(i int64) []byte { return f64s(1, func(int) float64 { return 42.5 }) }},
}

func expectedND(shape []int64, item func(int64) []byte) []byte {
	n := int64(1)
	for _, s := range shape {
		n *= s
	}
	var b []byte
	for i := int64(0); i < n; i++ {
		b = append(b, item(i)...)
	}
	return b
}

// subSlab extracts [start, stop) from a C-order array of the given shape.
func subSlab(full []byte, shape, start, stop []int64, isz int) []byte {
	nd := len(shape)
	var out []byte
	if nd == 0 {
		return full
	}
	idx := append([]int64(nil), start...)
	for {
		for i := 0; i < nd; i++ {
			if start[i] >= stop[i] {
				return out
			}
		}
		var flat int64
		for i := 0; i < nd; i++ {
			flat = flat*shape[i] + idx[i]
		}
		out = append(out, full[flat*int64(isz):(flat+1)*int64(isz)]...)
		i := nd - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < stop[i] {
				break
			}
			idx[i] = start[i]
		}
		if i < 0 {
			return out
		}
	}
}

func TestB2ndFixtures(t *testing.T) {
	for _, tc := range ndFixtures {
		t.Run(tc.file, func(t *testing.T) {
			a, err := OpenArray(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if a.DType.Str != tc.dtype {
				t.Errorf("dtype %q, want %q", a.DType.Str, tc.dtype)
			}
			if fmt.Sprint(a.Shape()) != fmt.Sprint(tc.shape) {
				t.Errorf("shape %v, want %v", a.Shape(), tc.shape)
			}
			want := expectedND(tc.shape, tc.item)
			got, err := a.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("ReadAll mismatch at byte %d (len %d vs %d)", firstDiff(got, want), len(got), len(want))
			}
			// Random slabs, checked against the formula.
			rng := rand.New(rand.NewPCG(1, uint64(len(tc.file))))
			for k := 0; k < 50; k++ {
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
				if w := subSlab(want, tc.shape, start, stop, a.ItemSize()); !bytes.Equal(got, w) {
					t.Fatalf("Slice(%v, %v) mismatch at %d", start, stop, firstDiff(got, w))
				}
			}
			if a.NDim() == 1 {
				var cat []byte
				it := a.Chunks()
				for it.Next() {
					start, _ := a.ChunkItems(it.Chunk())
					if it.Start() != start || int64(len(cat)) != start*int64(a.ItemSize()) {
						t.Fatalf("chunk %d starts at %d, have %d bytes", it.Chunk(), it.Start(), len(cat))
					}
					cat = append(cat, it.Bytes()...)
				}
				if it.Err() != nil {
					t.Fatal(it.Err())
				}
				if !bytes.Equal(cat, want) {
					t.Fatalf("ChunkIter mismatch at %d", firstDiff(cat, want))
				}
			}
		})
	}
}

func TestB2ndTyped(t *testing.T) {
	a, err := OpenArray("testdata/nd_f8_pystyle_zstd5.b2nd")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := a.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	v := Items[float64](b)
	for i, x := range v {
		if x != float64(i)*1.5 {
			t.Fatalf("item %d = %v", i, x)
		}
	}
	got, err := a.Frame.VLMetaValue("answer")
	if err != nil || fmt.Sprint(got) != "42" {
		t.Fatalf("vlmeta answer = %v, %v", got, err)
	}
	s, err := a.Frame.VLMetaValue("name")
	if err != nil || s != "fixture-v1" {
		t.Fatalf("vlmeta name = %v, %v", s, err)
	}
	_ = utf8.RuneLen
	_ = math.Pi
}

func TestStructuredSummary(t *testing.T) {
	a, err := OpenArray("testdata/ctable_u16_summary.block.b2nd")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	dt := a.DType
	if dt.Kind != 'V' || dt.ItemSize != 5 || len(dt.Fields) != 3 {
		t.Fatalf("dtype %+v", dt)
	}
	wantF := []struct {
		name string
		off  int
		kind byte
	}{{"min", 0, 'u'}, {"max", 2, 'u'}, {"flags", 4, 'u'}}
	for i, w := range wantF {
		f := dt.Fields[i]
		if f.Name != w.name || f.Offset != w.off || f.Type.Kind != w.kind {
			t.Errorf("field %d = %+v, want %+v", i, f, w)
		}
	}
	b, err := a.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if a.Len() != 4 {
		t.Fatalf("len %d, want 4 segments", a.Len())
	}
	// Segment k covers physical rows [256k, 256k+256) of u16 = (i*7) % 65536;
	// rows ≥ 1000 are zero capacity padding.
	for k := 0; k < 4; k++ {
		mn, mx := uint16(math.MaxUint16), uint16(0)
		for i := 256 * k; i < 256*k+256; i++ {
			v := uint16(0)
			if i < 1000 {
				v = uint16(i * 7 % 65536)
			}
			mn, mx = min(mn, v), max(mx, v)
		}
		r := b[5*k:]
		if got := binary.LittleEndian.Uint16(r); got != mn {
			t.Errorf("segment %d min %d, want %d", k, got, mn)
		}
		if got := binary.LittleEndian.Uint16(r[2:]); got != mx {
			t.Errorf("segment %d max %d, want %d", k, got, mx)
		}
		if r[4] != 0 {
			t.Errorf("segment %d flags %d", k, r[4])
		}
	}
	fa, err := OpenArray("testdata/ctable_flag_summary.block.b2nd")
	if err != nil {
		t.Fatal(err)
	}
	defer fa.Close()
	if fa.DType.Str != "[('min', '?'), ('max', '?'), ('flags', 'u1')]" || fa.DType.Fields[0].Type.Kind != 'b' || fa.DType.ItemSize != 3 {
		t.Fatalf("flag dtype %+v", fa.DType)
	}
}

func TestParseDType(t *testing.T) {
	cases := []struct {
		s     string
		kind  byte
		size  int
		order byte
	}{
		{"|b1", 'b', 1, '|'}, {"|i1", 'i', 1, '|'}, {"<i8", 'i', 8, '<'}, {">u4", 'u', 4, '>'},
		{"<f4", 'f', 4, '<'}, {"<c16", 'c', 16, '<'}, {"<U80", 'U', 320, '<'}, {"|S6", 'S', 6, '|'},
		{"<M8[us]", 'M', 8, '<'}, {"<m8[ns]", 'm', 8, '<'}, {"?", 'b', 1, '|'}, {"u1", 'u', 1, '|'},
		{"[('a', '<f8', (2, 3)), ('b', [('x', 'i1'), ('y', '<i2')])]", 'V', 51, '|'},
	}
	for _, tc := range cases {
		dt, err := ParseDType(tc.s)
		if err != nil {
			t.Errorf("%q: %v", tc.s, err)
			continue
		}
		if dt.Kind != tc.kind || dt.ItemSize != tc.size || dt.Order != tc.order {
			t.Errorf("%q = kind %c size %d order %c", tc.s, dt.Kind, dt.ItemSize, dt.Order)
		}
	}
	dt, _ := ParseDType("[('a', '<f8', (2, 3)), ('b', [('x', 'i1'), ('y', '<i2')])]")
	if dt.Fields[1].Offset != 48 || dt.Fields[1].Type.Fields[1].Offset != 1 || fmt.Sprint(dt.Fields[0].Shape) != "[2 3]" {
		t.Errorf("nested fields %+v", dt.Fields)
	}
	if dt, _ := ParseDType("<M8[us]"); dt.Unit != "us" {
		t.Errorf("unit %q", dt.Unit)
	}
	for _, bad := range []string{"", "<", "<i3", "<x4", "[('a', '<i4'", "[('a')]", "<f4 junk"} {
		if _, err := ParseDType(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestReadItems1D(t *testing.T) {
	a, err := OpenArray("testdata/nd_u4_1d.b2nd")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	d := NewDecoder()
	defer d.Release()
	for _, r := range [][2]int64{{0, 1}, {999, 2}, {3990, 20}, {0, 10000}, {9999, 1}, {5000, 0}} {
		dst := make([]byte, 4*r[1])
		if err := a.ReadItems1D(d, dst, r[0], int(r[1])); err != nil {
			t.Fatal(err)
		}
		for i := int64(0); i < r[1]; i++ {
			if got := binary.LittleEndian.Uint32(dst[4*i:]); got != uint32((r[0]+i)*100000) {
				t.Fatalf("item %d = %d", r[0]+i, got)
			}
		}
	}
	if err := a.ReadItems1D(d, make([]byte, 8), 9999, 2); err == nil {
		t.Fatal("no error past the end")
	}
}
