package executor

import (
	"fmt"
	"math/rand/v2"
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
				if rng.IntN(2) == 0 {
					x = columnar.NullValue(ty)
				}
				v = columnar.ConstVector(x)
				for i := range n {
					vals[i][c] = x
				}
			case shape == 1 && ty.Phys() == columnar.PhysBytes: // coded
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
		columnar.TInt8, columnar.TInt16, columnar.TInt32, columnar.TUint8, columnar.TUint16, columnar.TUint32}
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
	if got := len(small.cols[0].ints[0]); got != columnar.MaxBatch {
		t.Fatalf("first chunk of a 25-row store holds %d rows, want %d", got, columnar.MaxBatch)
	}
	v := &columnar.Vector{Type: columnar.TVarchar}
	small.gatherCol(v, 1, []int32{2, 1, 0})
	if got := [3]string{v.Value(0).String(), v.Value(1).String(), v.Value(2).String()}; got != [3]string{"ccc", "NULL", "a"} {
		t.Fatalf("strings %q", got)
	}
	big := newChunkedStore(types, 1<<20)
	big.appendRows(b, b.Cols)
	if got := len(big.cols[0].ints[0]); got != chunkRows {
		t.Fatalf("first chunk of a 1M-row estimate holds %d rows, want %d", got, chunkRows)
	}
}
