package executor

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// chunkedInput appends about rows rows to s in batches of random sizes
// (with and without a selection, Const and dictionary-coded vectors,
// NULLs), garbage in the rows a selection leaves out and poisoning the
// batches' buffers after each append, as a producer reusing them would.
// It returns every stored row's values, computed as the rows were made.
func chunkedInput(t *testing.T, s *chunkedStore, types []columnar.Type, rows int, seed uint64) [][]columnar.Value {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	colors := dict.New("red", "green", "a rather longer blue")
	var want [][]columnar.Value
	for len(want) < rows {
		n := 1 + rng.IntN(3000)
		b := &columnar.Batch{Len: n}
		live := make([]bool, n)
		if rng.IntN(2) == 0 {
			b.Sel = []int{}
			for i := range n {
				if rng.IntN(3) > 0 {
					b.Sel = append(b.Sel, i)
					live[i] = true
				}
			}
		} else {
			for i := range live {
				live[i] = true
			}
		}
		pos := make([]int, n) // the row a live row is stored as
		for i, stored := 0, len(want); i < n; i++ {
			pos[i] = stored
			if live[i] {
				stored++
			}
		}
		vals := make([][]columnar.Value, n)
		for i := range vals {
			vals[i] = make([]columnar.Value, len(types))
		}
		for c, ty := range types {
			v := columnar.NewVector(ty, n)
			switch shape := rng.IntN(8); {
			case shape == 0: // Const, sometimes NULL
				x := columnar.Value{Type: ty, I: 42, F: 4.5, S: "constant"}
				if ty.Phys() == columnar.PhysBool {
					x.I = 1
				}
				if wideInt(ty) {
					x = columnar.WideValue(ty, columnar.Int128Of(42))
				}
				if rng.IntN(2) == 0 {
					x = columnar.NullValue(ty)
				}
				v = columnar.ConstVector(x)
				for i := range n {
					vals[i][c] = x
				}
			case shape == 1 && ty.Phys() == columnar.PhysBytes && !wideInt(ty): // coded
				codes := dict.Set(v, colors, n)
				for i := range n {
					codes[i] = int32(rng.IntN(colors.Len()))
					vals[i][c] = columnar.Value{Type: ty, S: string(colors.Value(codes[i]))}
				}
			default:
				for i := range n {
					g := len(want) + i
					x := columnar.Value{Type: ty}
					switch ty.Phys() {
					case columnar.PhysBool:
						x.I = int64(g % 2)
					case columnar.PhysInt, columnar.PhysUint:
						x.I = int64(7*g + c)
						if lo, hi := ty.IntRange(); ty.ID != columnar.Uint64 && (x.I < lo || x.I > hi) {
							// Within a narrow type, its ends included.
							x.I = lo + x.I%(hi-lo+1)
							if g%5 == 0 {
								x.I = hi
							}
						}
					case columnar.PhysFloat:
						x.F = float64(g) / 4
					case columnar.PhysBytes:
						x.S = fmt.Sprintf("r%d%s", g, strings.Repeat("x", g%40))
						if wideInt(ty) {
							x = columnar.WideValue(ty, wideInput(pos[i]))
						}
					}
					if !live[i] {
						x = columnar.Value{Type: ty, I: -1, F: -1, S: "garbage"}
					}
					if live[i] && (g+c)%11 == 0 {
						x = columnar.NullValue(ty)
						v.SetNull(i, n)
						v.SetValue(i, n, columnar.Value{Type: ty, I: -9, S: "under a NULL"})
						v.SetNull(i, n)
					} else {
						v.SetValue(i, n, x)
					}
					vals[i][c] = x
				}
			}
			b.Cols = append(b.Cols, v)
		}
		s.appendRows(b, b.Cols)
		for i := range n {
			if live[i] {
				want = append(want, vals[i])
			}
		}
		for _, v := range b.Cols { // the producer reuses its buffers
			for _, s := range v.Bytes {
				for k := range s {
					s[k] = 'X'
				}
			}
		}
	}
	return want
}

// wideInput is stored row g's value in a wide column, so that its
// chunks take every width: a few thousand of either sign in the first
// chunk, some values past 32 bits in the second, past 16 and 64 in the
// rest.
func wideInput(g int) columnar.Int128 {
	switch {
	case g < chunkRows:
		return columnar.Int128Of(int64(g%5000 - 2500))
	case g < 2*chunkRows && g%100 == 3:
		return columnar.Int128Of(-int64(g) << 33)
	case g < 2*chunkRows:
		return columnar.Int128Of(int64(g % 1000))
	case g%1000 == 7:
		return columnar.Int128{Hi: int64(g), Lo: uint64(g) * 0x9e3779b97f4a7c15}
	}
	return columnar.Int128Of(int64(g) * 100)
}

func sameValue(got, want columnar.Value) bool {
	if got.Null || want.Null {
		return got.Null == want.Null
	}
	return columnar.Compare(got, want) == 0
}

// The stored rows read back the same, whichever way: gathered in random
// order, as ranges crossing chunk boundaries, as whole batches. Integers
// of up to 32 bits are stored narrow: their ends read back.
func TestChunkedStoreRoundTrip(t *testing.T) {
	types := []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TFloat64, columnar.TBool, columnar.TUint64,
		columnar.TInt8, columnar.TInt16, columnar.TInt32, columnar.TUint8, columnar.TUint16, columnar.TUint32,
		{ID: columnar.Hugeint}, columnar.DecimalType(38, 2)}
	for _, hint := range []int{0, 100, 1 << 20} {
		t.Run(fmt.Sprintf("hint=%d", hint), func(t *testing.T) {
			s := newChunkedStore(types, hint)
			want := chunkedInput(t, s, types, 2*chunkRows+5000, uint64(hint)+1)
			if s.n != len(want) {
				t.Fatalf("stored %d rows, want %d", s.n, len(want))
			}
			if s.chunks != (s.n+chunkRows-1)/chunkRows {
				t.Fatalf("%d chunks for %d rows", s.chunks, s.n)
			}
			rng := rand.New(rand.NewPCG(5, 6))
			rows := make([]int32, 3000)
			for k := range rows {
				rows[k] = int32(rng.IntN(s.n))
			}
			rows[0], rows[1], rows[2] = chunkRows-1, chunkRows, int32(s.n-1)
			v := &columnar.Vector{}
			for c, ty := range types {
				v.Type = ty
				s.gatherCol(v, c, rows)
				for k, r := range rows {
					if got := v.Value(k); !sameValue(got, want[r][c]) {
						t.Fatalf("column %d row %d: %v, want %v", c, r, got, want[r][c])
					}
				}
				for _, rg := range [][2]int{{0, 1}, {chunkRows - 1000, chunkRows + 24}, {chunkRows, chunkRows + 1024}, {s.n - 7, s.n}, {1024, 4 * chunkRows / 3}} {
					s.copyRange(v, c, rg[0], rg[1])
					for r := rg[0]; r < rg[1]; r++ {
						if got := v.Value(r - rg[0]); !sameValue(got, want[r][c]) {
							t.Fatalf("range %v column %d row %d: %v, want %v", rg, c, r, got, want[r][c])
						}
					}
				}
			}
			for c, ty := range types {
				if w := s.cols[c].cw; wideInt(ty) && (w[0] != 16 || w[len(w)-1] != wideBits) {
					t.Fatalf("%s chunk widths %v, want 16 first and 128 last", ty, w)
				}
			}
			out := columnar.NewBatch(types, 0)
			perm := []int32{int32(s.n - 1), 0, chunkRows + 3}
			s.gather(out, perm, 1, 3)
			if out.Len != 2 {
				t.Fatalf("gathered %d rows", out.Len)
			}
			for c := range types {
				for k, r := range perm[1:] {
					if got := out.Cols[c].Value(k); !sameValue(got, want[r][c]) {
						t.Fatalf("batch column %d row %d: %v, want %v", c, r, got, want[r][c])
					}
				}
			}
		})
	}
}

// A small store allocates a small first chunk; a hint sizes it up front.
func TestChunkedStoreFirstChunk(t *testing.T) {
	types := []columnar.Type{columnar.TInt64, columnar.TVarchar}
	small := newChunkedStore(types, 25)
	b := &columnar.Batch{Len: 3, Cols: []*columnar.Vector{columnar.NewVector(columnar.TInt64, 3), columnar.NewVector(columnar.TVarchar, 3)}}
	b.Cols[0].Ints[0], b.Cols[0].Ints[1], b.Cols[0].Ints[2] = 10, 20, 30
	b.Cols[1].Bytes[0], b.Cols[1].Bytes[1], b.Cols[1].Bytes[2] = []byte("a"), nil, []byte("ccc")
	b.Cols[1].SetNull(1, 3)
	small.appendRows(b, b.Cols)
	if got := intChunkLen(&small.cols[0], 0); got != columnar.MaxBatch {
		t.Fatalf("first chunk of a 25-row store holds %d rows, want %d", got, columnar.MaxBatch)
	}
	v := &columnar.Vector{Type: columnar.TVarchar}
	small.gatherCol(v, 1, []int32{2, 1, 0})
	if got := [3]string{v.Value(0).String(), v.Value(1).String(), v.Value(2).String()}; got != [3]string{"ccc", "NULL", "a"} {
		t.Fatalf("strings %q", got)
	}
	big := newChunkedStore(types, 1<<20)
	big.appendRows(b, b.Cols)
	if got := intChunkLen(&big.cols[0], 0); got != chunkRows {
		t.Fatalf("first chunk of a 1M-row estimate holds %d rows, want %d", got, chunkRows)
	}
}

// intChunkLen is the rows chunk ch of integer column col has room for,
// whatever its width.
func intChunkLen(col *storeColumn, ch int) int {
	switch col.cw[ch] {
	case 16:
		return len(col.i16[ch])
	case 32:
		return len(col.i32[ch])
	}
	return len(col.ints[ch])
}

// TestChunkedStoreWidens: a BIGINT column whose chunks start narrow takes
// values past 16 and then 32 bits (by batch, by a Const vector, and in
// the first chunk as it grows), NULLs and selected rows among them; every
// row gathers, replays and compares as stored, with the widths the values
// need: 16 bits for the first chunk's small values, 64 for the second's
// (past 2^32), 32 for the third's (-i, a few ten thousands).
func TestChunkedStoreWidens(t *testing.T) {
	types := []columnar.Type{columnar.TInt64}
	value := func(i int) (int64, bool) { // row i's value, NULL
		switch {
		case i%97 == 5:
			return 0, true
		case i < chunkRows:
			return int64(i%300 - 150), false // 16 bits all along
		case i < chunkRows+5000:
			return int64(i - chunkRows), false
		case i < chunkRows+9000:
			return int64(i) * 1000, false // past 16 bits
		case i < 2*chunkRows:
			return int64(i) << 24, false // past 32 bits
		}
		return -int64(i), false
	}
	const n = 2*chunkRows + 3000
	s := newChunkedStore(types, 0)
	for from := 0; from < n; {
		size := 1 + from%700
		to := min(from+size, n)
		v := columnar.NewVector(columnar.TInt64, to-from)
		b := &columnar.Batch{Len: to - from, Cols: []*columnar.Vector{v}}
		for i := from; i < to; i++ {
			x, isNull := value(i)
			v.Ints[i-from] = x
			if isNull {
				v.SetNull(i-from, to-from)
			}
		}
		if from%3 == 1 { // a Const vector repeating row from's value
			x, isNull := value(from)
			if isNull {
				from++ // keep the expected values simple: skip a Const NULL
				continue
			}
			c := &columnar.Vector{Type: columnar.TInt64, Const: true, Ints: []int64{x}}
			one := &columnar.Batch{Len: 1, Cols: []*columnar.Vector{c}}
			s.appendRows(one, one.Cols)
			from++
			continue
		}
		s.appendRows(b, b.Cols)
		from = to
	}
	// The expected rows, rebuilt the way the loop stored them.
	var want []columnar.Value
	for from := 0; from < n; {
		size := 1 + from%700
		to := min(from+size, n)
		if from%3 == 1 {
			if x, isNull := value(from); !isNull {
				want = append(want, i64(x))
			}
			from++
			continue
		}
		for i := from; i < to; i++ {
			x, isNull := value(i)
			if isNull {
				want = append(want, null(columnar.TInt64))
			} else {
				want = append(want, i64(x))
			}
		}
		from = to
	}
	if s.n != len(want) {
		t.Fatalf("stored %d rows, want %d", s.n, len(want))
	}
	perm := make([]int32, s.n)
	for i := range perm {
		perm[i] = int32(s.n - 1 - i)
	}
	v := &columnar.Vector{Type: columnar.TInt64}
	s.gatherCol(v, 0, perm)
	for k, r := range perm {
		if got := v.Value(k); !sameValue(got, want[r]) {
			t.Fatalf("gathered row %d: %v, want %v", r, got, want[r])
		}
	}
	for from := 0; from < s.n; from += 1000 {
		to := min(from+1000, s.n)
		s.copyRange(v, 0, from, to)
		for r := from; r < to; r++ {
			if got := v.Value(r - from); !sameValue(got, want[r]) {
				t.Fatalf("replayed row %d: %v, want %v", r, got, want[r])
			}
		}
	}
	if w := s.cols[0].cw; len(w) != 3 || w[0] != 16 || w[1] != 64 || w[2] != 32 {
		t.Fatalf("chunk widths %v, want [16 64 32]", w)
	}
}

// TestChunkedStoreWidensInPlace: one chunk of a BIGINT column takes 1,
// -2, 3 (16 bits), then 70000 (to 32 bits), a Const -2^40 (to 64 bits)
// and a selected batch whose unselected row is 2^50; the rows read back as
// stored, the earlier ones through both widenings.
func TestChunkedStoreWidensInPlace(t *testing.T) {
	s := newChunkedStore([]columnar.Type{columnar.TInt64}, 0)
	add := func(v *columnar.Vector, n int, sel []int) {
		b := &columnar.Batch{Len: n, Sel: sel, Cols: []*columnar.Vector{v}}
		s.appendRows(b, b.Cols)
	}
	add(&columnar.Vector{Type: columnar.TInt64, Ints: []int64{1, -2, 3}}, 3, nil)
	if w := s.cols[0].cw[0]; w != 16 {
		t.Fatalf("width %d after small values, want 16", w)
	}
	add(&columnar.Vector{Type: columnar.TInt64, Ints: []int64{70000}}, 1, nil)
	if w := s.cols[0].cw[0]; w != 32 {
		t.Fatalf("width %d after 70000, want 32", w)
	}
	add(&columnar.Vector{Type: columnar.TInt64, Const: true, Ints: []int64{-1 << 40}}, 2, nil)
	add(&columnar.Vector{Type: columnar.TInt64, Ints: []int64{1 << 50, -7}}, 2, []int{1})
	want := []int64{1, -2, 3, 70000, -1 << 40, -1 << 40, -7}
	v := &columnar.Vector{Type: columnar.TInt64}
	s.copyRange(v, 0, 0, s.n)
	if s.n != len(want) || !slices.Equal(v.Ints[:s.n], want) {
		t.Fatalf("stored %v, want %v", v.Ints[:s.n], want)
	}
}

// TestChunkedStoreWideInPlace: one chunk of a DECIMAL(38,2) column takes
// 1, -2, 3 (16 bits), 70000 (to 32 bits), a Const -2^40 (to 64 bits), a
// NULL with garbage under it, 2^64+5 (to 128 bits: the keys themselves)
// and a selected batch whose unselected row is past 64 bits too; the rows
// read back as stored, the earlier ones through every widening, and
// compare as their numbers do.
func TestChunkedStoreWideInPlace(t *testing.T) {
	ty := columnar.DecimalType(38, 2)
	s := newChunkedStore([]columnar.Type{ty}, 0)
	key := func(x columnar.Int128) []byte { return columnar.AppendInt128Key(nil, x) }
	add := func(vals []columnar.Int128, sel []int, nulls ...int) {
		v := columnar.NewVector(ty, len(vals))
		for i, x := range vals {
			v.Bytes[i] = key(x)
		}
		for _, i := range nulls {
			v.SetNull(i, len(vals))
			v.Bytes[i] = []byte("garbage")
		}
		b := &columnar.Batch{Len: len(vals), Sel: sel, Cols: []*columnar.Vector{v}}
		s.appendRows(b, b.Cols)
	}
	of := columnar.Int128Of
	big := columnar.Int128{Hi: 1, Lo: 5} // 2^64 + 5
	add([]columnar.Int128{of(1), of(-2), of(3)}, nil)
	widths := []uint8{s.cols[0].cw[0]}
	add([]columnar.Int128{of(70000)}, nil)
	widths = append(widths, s.cols[0].cw[0])
	c := &columnar.Vector{Type: ty, Const: true, Bytes: [][]byte{key(of(-1 << 40))}}
	one := &columnar.Batch{Len: 2, Cols: []*columnar.Vector{c}}
	s.appendRows(one, one.Cols)
	widths = append(widths, s.cols[0].cw[0])
	add([]columnar.Int128{of(0), big}, nil, 0)
	widths = append(widths, s.cols[0].cw[0])
	add([]columnar.Int128{{Hi: -7}, of(-7)}, []int{1})
	if !slices.Equal(widths, []uint8{16, 32, 64, 128}) {
		t.Fatalf("widths %v, want [16 32 64 128]", widths)
	}
	want := []columnar.Int128{of(1), of(-2), of(3), of(70000), of(-1 << 40), of(-1 << 40), {}, big, of(-7)}
	const null = 6
	check := func(how string, v *columnar.Vector, k, r int) {
		t.Helper()
		if r == null {
			if !v.IsNull(k) {
				t.Fatalf("%s row %d: not NULL", how, r)
			}
			return
		}
		if v.IsNull(k) || string(v.Bytes[k]) != string(key(want[r])) {
			t.Fatalf("%s row %d: %x, want %x", how, r, v.Bytes[k], key(want[r]))
		}
	}
	v := &columnar.Vector{Type: ty}
	s.copyRange(v, 0, 0, s.n)
	if s.n != len(want) {
		t.Fatalf("stored %d rows, want %d", s.n, len(want))
	}
	for r := range want {
		check("replayed", v, r, r)
	}
	perm := []int32{8, 7, 5, 0, 6, 3}
	s.gatherCol(v, 0, perm)
	for k, r := range perm {
		check("gathered", v, k, int(r))
	}
	spec := []SortKey{{}}
	for a := range want {
		for b := range want {
			if a == null || b == null {
				continue
			}
			if got, exp := s.compareRows([]int{0}, spec, a, b), want[a].Cmp(want[b]); got != exp {
				t.Fatalf("rows %d and %d compare %d, want %d", a, b, got, exp)
			}
		}
	}
}

// TestChunkedStoreWideNarrowCompare: rows of a HUGEINT column held in
// chunks of different widths (a 16-bit chunk, a 128-bit one) compare and
// sort-prefix as their numbers do.
func TestChunkedStoreWideNarrowCompare(t *testing.T) {
	ty := columnar.Type{ID: columnar.Hugeint}
	s := newChunkedStore([]columnar.Type{ty}, chunkRows)
	v := columnar.NewVector(ty, chunkRows+2)
	want := make([]columnar.Int128, chunkRows+2)
	for i := range want {
		want[i] = columnar.Int128Of(int64(i%2000 - 1000))
	}
	want[chunkRows] = columnar.Int128{Hi: -3} // -3 * 2^64
	want[chunkRows+1] = columnar.Int128Of(999)
	for i, x := range want {
		v.Bytes[i] = columnar.AppendInt128Key(nil, x)
	}
	b := &columnar.Batch{Len: len(want), Cols: []*columnar.Vector{v}}
	s.appendRows(b, b.Cols)
	if w := s.cols[0].cw; !slices.Equal(w, []uint8{16, 128}) {
		t.Fatalf("widths %v, want [16 128]", w)
	}
	spec := []SortKey{{Desc: true}}
	for _, pair := range [][2]int{{0, chunkRows}, {chunkRows, 5}, {chunkRows + 1, 1999}, {1999, chunkRows + 1}, {3, 4}} {
		a, b := pair[0], pair[1]
		if got, exp := s.compareRows([]int{0}, spec, a, b), -want[a].Cmp(want[b]); got != exp {
			t.Fatalf("rows %d and %d compare %d, want %d", a, b, got, exp)
		}
	}
	es := make([]sortEntry, s.n)
	s.normalizePrefix(es, []int{0}, []SortKey{{}})
	for _, pair := range [][2]int{{0, chunkRows}, {chunkRows, 5}, {chunkRows + 1, 1999}, {3, 4}} {
		a, b := pair[0], pair[1]
		pa, pb := [2]uint64{es[a].pfx0, es[a].pfx1}, [2]uint64{es[b].pfx0, es[b].pfx1}
		got := cmp.Compare(pa[0], pb[0])
		if got == 0 {
			got = cmp.Compare(pa[1], pb[1])
		}
		if exp := want[a].Cmp(want[b]); got != exp {
			t.Fatalf("prefixes of rows %d and %d compare %d, want %d", a, b, got, exp)
		}
	}
}
